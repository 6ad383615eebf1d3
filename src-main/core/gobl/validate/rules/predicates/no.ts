// Norway (regimes/no): organisasjonsnummer (9 digits, mod 11) and VAT codes with an MVA suffix.
import type { PredicateTable } from './table.ts';
import { weightedSum } from './table.ts';

function validOrgNumber(s: string): boolean {
  if (!/^\d{9}$/.test(s)) return false;
  const r = weightedSum(s, [3, 2, 7, 6, 5, 4, 3, 2]) % 11;
  const check = r === 0 ? 0 : 11 - r;
  return check !== 10 && Number(s[8]) === check;
}

export const no: PredicateTable = {
  'valid MVA-suffixed mod-11 org number': (v) => typeof v === 'string' && v.endsWith('MVA') && validOrgNumber(v.slice(0, -3)),
  'valid mod-11 org number': (v) => typeof v === 'string' && validOrgNumber(v),
};
