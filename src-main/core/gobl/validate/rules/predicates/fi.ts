// Finland (regimes/fi): Y-tunnus, 8 digits with weights 7 9 10 5 8 4 2 1 summing to 0 mod 11.
import { weightedSum } from './table.ts';
import type { PredicateTable } from './table.ts';

export const fi: PredicateTable = {
  valid: (v) => typeof v === 'string' && /^\d{8}$/.test(v) && weightedSum(v, [7, 9, 10, 5, 8, 4, 2, 1]) % 11 === 0,
};
