// NO: a Norwegian VAT code is the organisation number followed by "MVA"; a bare
// number gains the suffix. Organisation-number identities keep only their digits.
import type { NormRule } from '../engine/types.ts';
import { digitsOnly } from './codes.ts';
import { inRegime } from './guards.ts';
import { codeOf, setCode, taxIdRule } from './tax-id.ts';

export const noNormRules: NormRule[] = [
  taxIdRule(['NO'], (code) => (code !== '' && !code.endsWith('MVA') ? `${code}MVA` : code)),
  {
    type: 'org.Identity',
    when: inRegime('NO'),
    apply(id) {
      if (id.type === 'ON') setCode(id, digitsOnly(codeOf(id)));
    },
  },
];
