// Greece myDATA: VAT rate and exemption codes on VAT combos (and a combo key from the exemption
// code), payment means codes on instructions and advances, and the tax type of charges.
import type { Node, NormRule } from '../engine/types.ts';
import { extDelete, extGet, extHas, extSet, extSetOneOf } from './ext.ts';
import { isEuMember } from './eu-members.ts';
import { isForeignCombo, lookupKeyCode, own, str } from './lookup.ts';

const VAT_RATE = 'gr-mydata-vat-rate';
const EXEMPTION = 'gr-mydata-exemption';
const PAYMENT_MEANS = 'gr-mydata-payment-means';
const TAX_TYPE = 'gr-mydata-tax-type';
const FEE = 'gr-mydata-fee';
const OTHER_TAX = 'gr-mydata-other-tax';
const STAMP_DUTY = 'gr-mydata-stamp-duty';

/** The VAT rate code of a combo without a percent-bearing rate. */
const VAT_RATE_EXEMPT = '7';

const VAT_RATE_CODES: Readonly<Record<string, string>> = {
  general: '1',
  reduced: '2',
  'super-reduced': '3',
  'general+island': '4',
  'reduced+island': '5',
  'super-reduced+island': '6',
};

const PAYMENT_MEANS_CODES: Readonly<Record<string, string>> = {
  'credit-transfer': '1',
  'credit-transfer+foreign': '2',
  cash: '3',
  cheque: '4',
  'promissory-note': '5',
  online: '6',
  card: '7',
};

const TAX_TYPE_FEE = '2';
const TAX_TYPE_OTHER = '3';
const TAX_TYPE_STAMP_DUTY = '4';

const OUTSIDE_SCOPE_CODES = ['1', '2', '3', '4', '24', '29', '30', '31'];
const EXEMPT_CODES = ['5', '6', '7', '9', '10', '11', '12', '13', '15', '17', '18', '19', '20', '21', '22', '23', '25', '26', '27'];
const EXPORT_CODES = ['8', '28'];

function keyFromExemption(combo: Node): void {
  if (str(combo.key) !== '') return;
  const code = extGet(combo, EXEMPTION);
  if (OUTSIDE_SCOPE_CODES.includes(code)) combo.key = 'outside-scope';
  else if (EXEMPT_CODES.includes(code)) combo.key = 'exempt';
  else if (EXPORT_CODES.includes(code)) combo.key = 'export';
  else if (code === '14') combo.key = 'intra-community';
  else if (code === '16') combo.key = 'reverse-charge';
  else combo.key = 'standard';
}

function normalizeCombo(combo: Node, now: Date): void {
  if (combo.cat !== 'VAT') return;
  if (isForeignCombo(combo, 'EL')) {
    // 30: taxed in another EU country; 29: outside the EU
    extSet(combo, EXEMPTION, isEuMember(str(combo.country), now) ? '30' : '29');
    extSet(combo, VAT_RATE, VAT_RATE_EXEMPT);
    combo.key = 'outside-scope';
    return;
  }
  keyFromExemption(combo);
  switch (combo.key) {
    case 'standard': case 'zero': {
      const code = own(VAT_RATE_CODES, combo.rate);
      if (code) extSet(combo, VAT_RATE, code);
      extDelete(combo, EXEMPTION);
      break;
    }
    case 'outside-scope':
      extSetOneOf(combo, EXEMPTION, OUTSIDE_SCOPE_CODES[0], ...OUTSIDE_SCOPE_CODES.slice(1));
      extSet(combo, VAT_RATE, VAT_RATE_EXEMPT);
      break;
    case 'exempt':
      // "7" first: the default exemption when none (or an unrelated one) is given
      extSetOneOf(combo, EXEMPTION, '7', '5', '6', '9', '10', '11', '12', '13', '15', '17', '18', '19', '20', '21', '22', '23', '25', '26', '27');
      extSet(combo, VAT_RATE, VAT_RATE_EXEMPT);
      break;
    case 'export':
      extSetOneOf(combo, EXEMPTION, '8', '28');
      extSet(combo, VAT_RATE, VAT_RATE_EXEMPT);
      break;
    case 'intra-community':
      extSet(combo, EXEMPTION, '14');
      extSet(combo, VAT_RATE, VAT_RATE_EXEMPT);
      break;
    case 'reverse-charge':
      extSet(combo, EXEMPTION, '16');
      extSet(combo, VAT_RATE, VAT_RATE_EXEMPT);
      break;
  }
}

function setPaymentMeans(node: Node): void {
  const code = lookupKeyCode(PAYMENT_MEANS_CODES, node.key);
  if (code) extSet(node, PAYMENT_MEANS, code);
}

function normalizeCharge(charge: Node): void {
  if (charge.key === 'stamp-duty') extSet(charge, TAX_TYPE, TAX_TYPE_STAMP_DUTY);
  else if (charge.key === 'tax') extSet(charge, TAX_TYPE, TAX_TYPE_OTHER);
  if (extHas(charge, TAX_TYPE)) return;
  if (extHas(charge, FEE)) extSet(charge, TAX_TYPE, TAX_TYPE_FEE);
  else if (extHas(charge, OTHER_TAX)) extSet(charge, TAX_TYPE, TAX_TYPE_OTHER);
  else if (extHas(charge, STAMP_DUTY)) extSet(charge, TAX_TYPE, TAX_TYPE_STAMP_DUTY);
}

export const grMydataV1Rules: NormRule[] = [
  { type: 'pay.Instructions', apply: setPaymentMeans },
  { type: 'pay.Record', apply: setPaymentMeans },
  { type: 'tax.Combo', apply: (combo, ctx) => normalizeCombo(combo, ctx.now) },
  { type: 'bill.Charge', apply: normalizeCharge },
];
