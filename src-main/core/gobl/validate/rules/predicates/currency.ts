// currency: codes GOBL defines (ISO 4217 and its non-ISO additions).
import type { PredicateTable } from './table.ts';
import { isKnownCurrency } from '../../../defs/index.ts';

export const currency: PredicateTable = {
  'valid currency code': (v) => typeof v === 'string' && isKnownCurrency(v),
};
