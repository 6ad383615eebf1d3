// gr-mydata addon (Greece, myDATA): invoice types needing a customer, charge tax types, VAT
// combos and item income classification pairs.
import type { PredicateTable } from './table.ts';
import { taxExt } from './invoice.ts';
import { extCode, hasExt, isNil, isObject, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

function chargeTaxType(code: string): Check {
  return (v) => obj(v) !== undefined && extCode(obj(v)?.ext, 'gr-mydata-tax-type') === code;
}

const isVat = (v: unknown): boolean => obj(v) !== undefined && str(obj(v)?.cat) === 'VAT';

export const grMydata: PredicateTable = {
  // invoice types of the 1.x, 2.x and 5.x families identify the customer
  'requires customer': (v) => {
    const inv = obj(v);
    if (!inv || isNil(inv.tax)) return false;
    const type = taxExt(inv, 'gr-mydata-invoice-type');
    return ['1', '2', '5'].some((p) => type.startsWith(`${p}.`));
  },
  'income ext pair': (v) => {
    if (!isNil(v) && !isObject(v)) return true;
    return hasExt(v, 'gr-mydata-income-cat') === hasExt(v, 'gr-mydata-income-type');
  },
  'has instructions or advances': (v) => {
    const p = obj(v);
    return !p || list(p.advances).length > 0 || !isNil(p.instructions);
  },
  'tax type is fee': chargeTaxType('2'),
  'tax type is other tax': chargeTaxType('3'),
  'tax type is stamp duty': chargeTaxType('4'),
  'category is VAT': isVat,
  'VAT with no percent': (v) => isVat(v) && isNil(obj(v)?.percent),
  'VAT with income ext': (v) => isVat(v) && (hasExt(obj(v)?.ext, 'gr-mydata-income-cat') || hasExt(obj(v)?.ext, 'gr-mydata-income-type')),
};
