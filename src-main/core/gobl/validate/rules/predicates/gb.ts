// United Kingdom (regimes/gb): VAT registration numbers, including government departments (GD)
// and health authorities (HA), and the two mod-97 schemes of commercial numbers.
import type { PredicateTable } from './table.ts';
import { atoi, weightedSum } from './table.ts';

function notZeros(code: string): boolean {
  if (code.startsWith('GD') || code.startsWith('HA')) return true;
  return atoi(code) !== 0;
}

function validCommercial(val: string): boolean {
  if (val.length < 9 || !/^\d/.test(val) || atoi(val) === 0) return false;
  const num = Number.parseInt(val.slice(0, 7), 10);
  let check = weightedSum(val, [8, 7, 6, 5, 4, 3, 2]);
  while (check > 0) check -= 97;
  if (check < 0) check = -check;
  const last = Number.parseInt(val.slice(7, 9), 10);
  if (check === last && num < 9990001 && (num < 100000 || num > 999999) && (num < 9490001 || num > 9700000)) return true;
  check = check >= 55 ? check - 55 : check + 42;
  return check === last && num > 1000000;
}

function checksum(code: string): boolean {
  if (code.startsWith('GD')) return atoi(code.slice(2)) <= 499;
  if (code.startsWith('HA')) return atoi(code.slice(2)) >= 500;
  return validCommercial(code);
}

export const gb: PredicateTable = {
  'not-zeros': (v) => typeof v === 'string' && notZeros(v),
  checksum: (v) => typeof v === 'string' && checksum(v),
};
