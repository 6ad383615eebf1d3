// Argentina ARCA v4: VAT rate codes on combos, the customer's VAT status, and the invoice's
// document type (A/B/C letter from the customer's status or the monotax tag) and concept
// (goods, services or both, from the line items).
import type { Node, NormRule } from '../engine/types.ts';
import { extGet, extSet, extSetOneOf, invoiceTax, mergeInvoiceTaxExt } from './ext.ts';
import { hasTag, own, str } from './lookup.ts';

const VAT_RATE = 'ar-arca-vat-rate';
const VAT_STATUS = 'ar-arca-vat-status';
const DOC_TYPE = 'ar-arca-doc-type';
const CONCEPT = 'ar-arca-concept';

/** Customer VAT statuses that call for "A" documents. */
const TYPE_A_STATUSES = ['1', '6', '13', '16'];

/** Document type per letter and invoice type. */
const DOC_TYPES: Record<string, Record<string, string>> = {
  A: { standard: '1', 'debit-note': '2', 'credit-note': '3' },
  B: { standard: '6', 'debit-note': '7', 'credit-note': '8' },
  C: { standard: '11', 'debit-note': '12', 'credit-note': '13' },
};

const RATE_CODES: Record<string, string> = { reduced: '4', general: '5', increased: '6' };

function normalizeCombo(combo: Node): void {
  // Deliberately not limited to VAT: GOBL maps any combo's rate.
  if (combo.key === 'zero') {
    extSet(combo, VAT_RATE, '3');
    return;
  }
  const code = own(RATE_CODES, combo.rate);
  if (code) extSet(combo, VAT_RATE, code);
}

function normalizeCustomerVatStatus(party: Node | undefined): void {
  if (!party || typeof party !== 'object') return;
  const taxId = party.tax_id;
  if (!taxId || typeof taxId !== 'object') {
    // final consumer, unless another non-registered status was chosen
    extSetOneOf(party, VAT_STATUS, '5', '4', '7', '10', '15');
  } else if (str(taxId.country) !== 'AR') {
    extSetOneOf(party, VAT_STATUS, '9', '8');
  } else {
    extSetOneOf(party, VAT_STATUS, '1', '6', '13', '16', '4', '7', '10', '15');
  }
}

function normalizeDocType(inv: Node): void {
  const tax = invoiceTax(inv);
  if (extGet(tax, DOC_TYPE) !== '') return;
  let letter = 'B';
  if (hasTag(inv, 'monotax')) letter = 'C';
  else if (TYPE_A_STATUSES.includes(extGet(inv.customer, VAT_STATUS))) letter = 'A';
  const code = own(DOC_TYPES[letter], inv.type);
  if (code) mergeInvoiceTaxExt(inv, { [DOC_TYPE]: code });
}

function normalizeConcept(inv: Node): void {
  let goods = false;
  let services = false;
  for (const line of Array.isArray(inv.lines) ? inv.lines : []) {
    if (line?.item?.key === 'goods') goods = true;
    else services = true;
  }
  const code = goods && services ? '3' : goods ? '1' : services ? '2' : '';
  if (code) mergeInvoiceTaxExt(inv, { [CONCEPT]: code });
}

export const arArcaV4Rules: NormRule[] = [
  {
    type: 'bill.Invoice',
    apply: (inv) => {
      normalizeCustomerVatStatus(inv.customer);
      normalizeDocType(inv);
      normalizeConcept(inv);
    },
  },
  { type: 'tax.Combo', apply: normalizeCombo },
];
