// Mexico (regimes/mx): RFC codes of people (4 letters) and companies (3 letters).
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

const PERSON = /^([A-ZÑ&]{4})([0-9]{6})([A-Z0-9]{3})$/u;
const COMPANY = /^([A-ZÑ&]{3})([0-9]{6})([A-Z0-9]{3})$/u;

export const mx: PredicateTable = {
  'valid RFC': onCode((code) => PERSON.test(code) || COMPANY.test(code)),
};
