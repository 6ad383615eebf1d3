// it-ticket addon (Italy, AdE receipts): VAT on every line, exemptions, allowed VAT percents.
import type { PredicateTable } from './table.ts';
import { compareDec, parseDec } from '../decimal.ts';
import { isNil, obj, str } from '../values.ts';

// The VAT percentages the receipts system accepts, as ratios.
const VALID_PERCENTAGES = ['0.02', '0.04', '0.05', '0.064', '0.07', '0.073', '0.075', '0.0765', '0.0795', '0.083', '0.085', '0.088', '0.095', '0.123', '0.10', '0.22'].map((p) => parseDec(p)!);

export const itTicket: PredicateTable = {
  'VAT without percent': (v) => obj(v) !== undefined && str(obj(v)?.cat) === 'VAT' && isNil(obj(v)?.percent),
  'is VAT': (v) => obj(v) !== undefined && str(obj(v)?.cat) === 'VAT',
  'valid percentage': (v) => {
    if (isNil(v)) return true;
    const p = parseDec(v);
    return p !== undefined && VALID_PERCENTAGES.some((vp) => compareDec(p, vp) === 0);
  },
};
