// Poland KSeF FA(3): tax category codes on combos from their key and rate, payment means codes
// on instructions and advances, and the self-billing and reverse-charge flags from tags.
import type { Node, NormRule } from '../engine/types.ts';
import { extMerge, extSet, mergeInvoiceTaxExt } from './ext.ts';
import { hasTag, isForeignCombo, lookupKeyCode, own, str } from './lookup.ts';

const TAX_CATEGORY = 'pl-favat-tax-category';
const PAYMENT_MEANS = 'pl-favat-payment-means';

const PAYMENT_MEANS_CODES: Readonly<Record<string, string>> = {
  cash: '1',
  card: '2',
  'other+voucher': '3',
  cheque: '4',
  'other+credit': '5',
  'credit-transfer': '6',
  online: '7',
};

const STANDARD_RATE_CODES: Readonly<Record<string, string>> = { general: '1', reduced: '2', 'super-reduced': '3' };

const KEY_CODES: Readonly<Record<string, string>> = {
  zero: '6.1',
  'intra-community': '6.2',
  export: '6.3',
  exempt: '7',
  'outside-scope': '8',
  'reverse-charge': '9',
};

function normalizeCombo(combo: Node): void {
  // Not limited to VAT, as in GOBL; a combo taxed abroad is a foreign sale ("8").
  if (isForeignCombo(combo, 'PL')) {
    extSet(combo, TAX_CATEGORY, '8');
    return;
  }
  const key = str(combo.key);
  const code = key === 'standard' ? own(STANDARD_RATE_CODES, combo.rate) : own(KEY_CODES, key);
  if (code) extSet(combo, TAX_CATEGORY, code);
}

function setPaymentMeans(node: Node): void {
  const code = lookupKeyCode(PAYMENT_MEANS_CODES, node.key);
  if (code) extMerge(node, { [PAYMENT_MEANS]: code });
}

export const plFavatV3Rules: NormRule[] = [
  {
    type: 'bill.Invoice',
    apply: (inv) => {
      if (hasTag(inv, 'self-billed')) mergeInvoiceTaxExt(inv, { 'pl-favat-self-billing': '1' });
      if (hasTag(inv, 'reverse-charge')) mergeInvoiceTaxExt(inv, { 'pl-favat-reverse-charge': '1' });
    },
  },
  { type: 'pay.Instructions', apply: setPaymentMeans },
  { type: 'pay.Record', apply: setPaymentMeans },
  { type: 'tax.Combo', apply: normalizeCombo },
];
