// Spain SII: regime, exemption and outside-scope codes on VAT/IGIC combos (and the reverse, a
// combo key from those codes), goods/services product codes from line items, and the invoice's
// correction type, corrective document type and third-party issuer flag.
import type { Node, NormRule } from '../engine/types.ts';
import { extDelete, extGet, extHas, extSet, extSetIfEmpty, extSetOneOf, invoiceTax, mergeInvoiceTaxExt } from './ext.ts';
import { setCustomerIdentityType } from './es-customer-identity.ts';
import { comboFor, hasTag, isForeignCombo, str } from './lookup.ts';

const REGIME = 'es-sii-regime';
const EXEMPT = 'es-sii-exempt';
const OUTSIDE_SCOPE = 'es-sii-outside-scope';
const PRODUCT = 'es-sii-product';
const DOC_TYPE = 'es-sii-doc-type';
const CORRECTION_TYPE = 'es-sii-correction-type';
const THIRD_PARTY_ISSUER = 'es-sii-third-party-issuer';
const IDENTITY_TYPE = 'es-sii-identity-type';

/** A combo key from the codes given before keys existed. */
function keyFromCodes(combo: Node): void {
  if (str(combo.key) !== '') return;
  switch (extGet(combo, EXEMPT)) {
    case 'E1': case 'E6': combo.key = 'exempt'; break;
    case 'E2': case 'E3': case 'E4': combo.key = 'export'; break;
    case 'E5': combo.key = 'intra-community'; break;
  }
  if (extHas(combo, OUTSIDE_SCOPE)) combo.key = 'outside-scope';
  if (str(combo.key) === '') combo.key = 'standard';
}

function normalizeCombo(combo: Node): void {
  if (combo.cat !== 'VAT' && combo.cat !== 'IGIC') return;
  if (isForeignCombo(combo, 'ES')) {
    // taxed in another country: not subject to Spanish VAT by location rules
    extSet(combo, OUTSIDE_SCOPE, 'location');
    extSetOneOf(combo, REGIME, '01', '17');
    extDelete(combo, EXEMPT);
    return;
  }
  keyFromCodes(combo);
  if (combo.key === 'export') extSetIfEmpty(combo, REGIME, '02');
  extSetIfEmpty(combo, REGIME, '01');
  switch (combo.key) {
    case 'standard': case 'zero': case 'reverse-charge':
      extDelete(combo, EXEMPT);
      break;
    case 'outside-scope':
      extSetOneOf(combo, OUTSIDE_SCOPE, 'location', 'other');
      extDelete(combo, EXEMPT);
      break;
    case 'exempt':
      extSetOneOf(combo, EXEMPT, 'E1', 'E6');
      extDelete(combo, OUTSIDE_SCOPE);
      break;
    case 'export':
      extSetOneOf(combo, EXEMPT, 'E2', 'E3', 'E4');
      extDelete(combo, OUTSIDE_SCOPE);
      break;
    case 'intra-community':
      extSet(combo, EXEMPT, 'E5');
      extDelete(combo, OUTSIDE_SCOPE);
      break;
  }
}

function normalizeLine(line: Node): void {
  if (!line.item || typeof line.item !== 'object') return;
  const vat = comboFor(line.taxes, 'VAT');
  if (!vat) return;
  if (line.item.key === 'goods') extSet(vat, PRODUCT, 'goods');
  else if (line.item.key === 'services') extSet(vat, PRODUCT, 'services');
}

function normalizeInvoice(inv: Node): void {
  const type = str(inv.type);
  if (type === 'credit-note' || type === 'debit-note') mergeInvoiceTaxExt(inv, { [CORRECTION_TYPE]: 'I' });
  else if (type === 'corrective') mergeInvoiceTaxExt(inv, { [CORRECTION_TYPE]: 'S' });
  if (type === 'credit-note' || type === 'debit-note' || type === 'corrective') {
    // R1 unless one of the other corrective document types was chosen
    const tax = invoiceTax(inv);
    if (!['R2', 'R3', 'R4', 'R5'].includes(extGet(tax, DOC_TYPE))) extSet(tax, DOC_TYPE, 'R1');
  }
  if (hasTag(inv, 'self-billed')) mergeInvoiceTaxExt(inv, { [THIRD_PARTY_ISSUER]: 'S' });
  if (inv.ordering?.issuer && typeof inv.ordering.issuer === 'object') mergeInvoiceTaxExt(inv, { [THIRD_PARTY_ISSUER]: 'S' });
  setCustomerIdentityType(inv.customer, IDENTITY_TYPE);
}

export const esSiiV1Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: normalizeInvoice },
  { type: 'bill.Line', apply: normalizeLine },
  { type: 'tax.Combo', apply: normalizeCombo },
];
