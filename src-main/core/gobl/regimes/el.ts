// EL (Greece): Greek VAT codes carry the tax country EL, never the ISO GR; a GR
// prefix is dropped like EL.
import type { NormRule } from '../engine/types.ts';
import { taxIdRule } from './tax-id.ts';

export const elNormRules: NormRule[] = [
  taxIdRule(
    ['EL', 'GR'],
    (code, id) => {
      id.country = 'EL';
      return code;
    },
    ['GR'],
  ),
];
