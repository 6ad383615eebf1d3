// IN: GSTINs are cleaned like any tax ID (an `IN` prefix is dropped); PAN and HSN
// identities are reduced to their letters and digits, or digits.
import type { NormRule } from '../engine/types.ts';
import { alphanumericOnly, digitsOnly } from './codes.ts';
import { inRegime } from './guards.ts';
import { codeOf, setCode, taxIdRule } from './tax-id.ts';

export const inNormRules: NormRule[] = [
  // GOBL strips `IN` twice: once as the country, once as an alternative prefix.
  taxIdRule(['IN'], undefined, ['IN']),
  {
    type: 'org.Identity',
    when: inRegime('IN'),
    apply(id) {
      if (id.type === 'PAN') setCode(id, alphanumericOnly(codeOf(id)));
      else if (id.type === 'HSN') setCode(id, digitsOnly(codeOf(id)));
    },
  },
];
