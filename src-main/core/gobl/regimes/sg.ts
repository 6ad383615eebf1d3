// SG: a UEN identity is cleaned like a tax code, without the SG prefix.
import type { NormRule } from '../engine/types.ts';
import { cleanTaxCode } from './codes.ts';
import { inRegime } from './guards.ts';
import { codeOf, setCode, taxIdRule } from './tax-id.ts';

export const sgNormRules: NormRule[] = [
  taxIdRule(['SG']),
  {
    type: 'org.Identity',
    when: inRegime('SG'),
    apply(id) {
      if (id.type === 'UEN') setCode(id, cleanTaxCode(codeOf(id), 'SG'));
    },
  },
];
