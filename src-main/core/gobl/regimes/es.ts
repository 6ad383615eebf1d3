// ES: a numeric NIF lost its leading zeros somewhere; they are put back to nine characters.
import type { NormRule } from '../engine/types.ts';
import { taxIdRule } from './tax-id.ts';

export const esNormRules: NormRule[] = [
  taxIdRule(['ES'], (code) => (/^[0-9]/.test(code) ? code.padStart(9, '0') : code)),
];
