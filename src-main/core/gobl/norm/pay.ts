// pay: text cleaning of payment records, instructions and terms.
import type { NormRule } from '../engine/types.ts';
import { normalizeStringFields, normalizeUuidField } from './strings.ts';

export const payNormRules: NormRule[] = [
  {
    type: 'pay.Record',
    apply: (record) => {
      normalizeUuidField(record);
      normalizeStringFields(record, ['ref', 'description']);
    },
  },
  { type: 'pay.Instructions', apply: (instructions) => normalizeStringFields(instructions, ['detail', 'notes']) },
  { type: 'pay.Terms', apply: (terms) => normalizeStringFields(terms, ['notes']) },
];
