// Italy SDI FatturaPA: the supplier's fiscal regime (RF01 by default) and telephone numbers
// without the +39 prefix, Italian postcodes padded to 5 digits, payment means codes on
// instructions and advances, and exemption ("natura") codes on VAT combos, with the reverse
// mapping from a code to a combo key.
import type { Node, NormRule } from '../engine/types.ts';
import { extDelete, extGet, extSet, extSetOneOf } from './ext.ts';
import { isEuMember } from './eu-members.ts';
import { isForeignCombo, lookupKeyCode, str } from './lookup.ts';

const FISCAL_REGIME = 'it-sdi-fiscal-regime';
const EXEMPT = 'it-sdi-exempt';
const PAYMENT_MEANS = 'it-sdi-payment-means';

const PAYMENT_MEANS_CODES: Readonly<Record<string, string>> = {
  cash: 'MP01',
  cheque: 'MP02',
  'bank-draft': 'MP03',
  'cash+treasury': 'MP04',
  'credit-transfer': 'MP05',
  'promissory-note': 'MP06',
  'other+payment-slip': 'MP07',
  card: 'MP08',
  online: 'MP08',
  'direct-debit+rid': 'MP09',
  'direct-debit+rid-utility': 'MP10',
  'direct-debit+rid-fast': 'MP11',
  'direct-debit+riba': 'MP12',
  'debit-transfer': 'MP13',
  'other+tax-receipt': 'MP14',
  'other+special-account': 'MP15',
  'direct-debit': 'MP16',
  'direct-debit+post-office': 'MP17',
  'cheque+post-office': 'MP18',
  'direct-debit+sepa': 'MP19',
  'direct-debit+sepa-core': 'MP20',
  'direct-debit+sepa-b2b': 'MP21',
  netting: 'MP22',
  'online+pagopa': 'MP23',
};

function normalizeSupplier(party: Node | undefined): void {
  if (!party || typeof party !== 'object') return;
  if (extGet(party, FISCAL_REGIME) === '') extSet(party, FISCAL_REGIME, 'RF01');
  if (party.tax_id?.country !== 'IT' || !Array.isArray(party.telephones)) return;
  for (const tel of party.telephones) {
    if (tel && typeof tel.num === 'string' && tel.num.startsWith('+39')) tel.num = tel.num.slice(3);
  }
}

function normalizeAddress(address: Node): void {
  if (address.country !== 'IT') return;
  const code = str(address.code);
  if (code.length === 0 || code.length >= 5) return;
  // Go's Atoi: an optional sign and decimal digits only
  if (!/^[+-]?\d+$/.test(code)) return;
  const n = Number.parseInt(code, 10);
  address.code = n < 0 ? `-${String(-n).padStart(4, '0')}` : String(n).padStart(5, '0');
}

/** A combo key from its exemption code; a "zero" exemption also fixes the percent at 0%. */
function keyFromCodes(combo: Node): void {
  const key = str(combo.key);
  if (key !== '' && key !== 'exempt') return;
  const code = extGet(combo, EXEMPT);
  if (code === 'N1') {
    combo.percent = '0%';
    combo.key = 'zero';
  } else if (['N2.1', 'N2.2', 'N7'].includes(code)) combo.key = 'outside-scope';
  else if (['N3.1', 'N3.3', 'N3.4', 'N3.5'].includes(code)) combo.key = 'export';
  else if (['N3.2', 'N3.6'].includes(code)) combo.key = 'intra-community';
  else if (['N4', 'N5'].includes(code)) combo.key = 'exempt';
  else if (/^N6\.[1-9]$/.test(code)) combo.key = 'reverse-charge';
  else if (code === '' && key === '') combo.key = 'standard';
}

function normalizeCombo(combo: Node, now: Date): void {
  if (combo.cat !== 'VAT') return;
  if (isForeignCombo(combo, 'IT')) {
    extSet(combo, EXEMPT, isEuMember(str(combo.country), now) ? 'N7' : 'N2.1');
    return;
  }
  keyFromCodes(combo);
  switch (combo.key) {
    case 'standard': extDelete(combo, EXEMPT); break;
    case 'zero': extSet(combo, EXEMPT, 'N1'); break;
    case 'outside-scope': extSetOneOf(combo, EXEMPT, 'N2.1', 'N2.2', 'N7'); break;
    case 'export': extSetOneOf(combo, EXEMPT, 'N3.1', 'N3.3', 'N3.4', 'N3.5'); break;
    case 'intra-community': extSetOneOf(combo, EXEMPT, 'N3.2', 'N3.6'); break;
    case 'exempt': extSetOneOf(combo, EXEMPT, 'N4', 'N5'); break;
    case 'reverse-charge':
      extSetOneOf(combo, EXEMPT, 'N6.9', 'N6.1', 'N6.2', 'N6.3', 'N6.4', 'N6.5', 'N6.6', 'N6.7', 'N6.8');
      break;
  }
}

function setPaymentMeans(node: Node): void {
  const code = lookupKeyCode(PAYMENT_MEANS_CODES, node.key);
  if (code) extSet(node, PAYMENT_MEANS, code);
}

export const itSdiV1Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: (inv) => normalizeSupplier(inv.supplier) },
  { type: 'pay.Instructions', apply: setPaymentMeans },
  { type: 'pay.Record', apply: setPaymentMeans },
  { type: 'org.Address', apply: normalizeAddress },
  { type: 'tax.Combo', apply: (combo, ctx) => normalizeCombo(combo, ctx.now) },
];
