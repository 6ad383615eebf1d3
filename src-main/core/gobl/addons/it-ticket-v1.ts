// Italy AdE receipts ("documento commerciale"): prices include VAT unless stated, the lottery
// code is upper-case alphanumeric, items default to services, and VAT combos carry an exemption
// ("natura") code, with the reverse mapping from a code to a combo key.
import type { Node, NormRule } from '../engine/types.ts';
import { extDelete, extGet, extHas, extSet, extSetOneOf } from './ext.ts';
import { isForeignCombo, str } from './lookup.ts';

const EXEMPT = 'it-ticket-exempt';
const PRODUCT = 'it-ticket-product';
const LOTTERY = 'it-ticket-lottery';

function normalizeInvoice(inv: Node): void {
  if (!inv.tax || typeof inv.tax !== 'object') inv.tax = {};
  if (str(inv.tax.prices_include) === '') inv.tax.prices_include = 'VAT';
  if (extHas(inv.tax, LOTTERY)) {
    extSet(inv.tax, LOTTERY, extGet(inv.tax, LOTTERY).replace(/[^A-Za-z0-9]/g, '').toUpperCase());
  }
}

/** A combo key from its exemption code; the rate no longer applies to such a combo. */
function keyFromCodes(combo: Node): void {
  if (str(combo.key) !== '') return;
  const code = extGet(combo, EXEMPT);
  const key = code === 'N1' || code === 'N2' ? 'outside-scope'
    : code === 'N3' ? 'export'
      : code === 'N4' || code === 'N5' ? 'exempt'
        : code === 'N6' ? 'reverse-charge'
          : '';
  if (key) {
    combo.key = key;
    delete combo.rate;
  } else if (code === '') combo.key = 'standard';
}

function normalizeCombo(combo: Node): void {
  if (combo.cat !== 'VAT') return;
  if (isForeignCombo(combo, 'IT')) {
    extSet(combo, EXEMPT, 'N2');
    return;
  }
  keyFromCodes(combo);
  switch (combo.key) {
    case 'standard': case 'zero': extDelete(combo, EXEMPT); break;
    case 'outside-scope': extSetOneOf(combo, EXEMPT, 'N1', 'N2'); break;
    case 'export': case 'intra-community': extSet(combo, EXEMPT, 'N3'); break;
    case 'exempt': extSetOneOf(combo, EXEMPT, 'N4', 'N5'); break;
    case 'reverse-charge': extSet(combo, EXEMPT, 'N6'); break;
  }
}

export const itTicketV1Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: normalizeInvoice },
  { type: 'org.Item', apply: (item) => { if (!extHas(item, PRODUCT)) extSet(item, PRODUCT, 'services'); } },
  { type: 'tax.Combo', apply: normalizeCombo },
];
