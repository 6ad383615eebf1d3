// co-dian addon (Colombia, DIAN UBL 2.1): Colombian parties and their municipality codes.
import type { PredicateTable } from './table.ts';
import { notSimplified } from './invoice.ts';
import { taxIdCode, taxIdCountry } from './party.ts';
import { obj } from '../values.ts';

const colombian = (v: unknown): boolean => obj(v) !== undefined && obj(obj(v)?.tax_id) !== undefined && taxIdCountry(v) === 'CO';
const colombianWithCode = (v: unknown): boolean => colombian(v) && taxIdCode(v) !== '';

export const coDian: PredicateTable = {
  'colombian supplier': colombian,
  'colombian supplier with code': colombianWithCode,
  'colombian customer': colombian,
  'colombian customer with code': colombianWithCode,
  'not simplified': notSimplified,
};
