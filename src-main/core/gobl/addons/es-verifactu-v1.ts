// Spain VERI*FACTU: regime, operation class and exemption codes on VAT/IGIC combos (and a combo
// key from those codes), and the invoice's correction type, corrective document type and issuer
// type.
import type { Node, NormRule } from '../engine/types.ts';
import { extDelete, extGet, extSet, extSetIfEmpty, extSetOneOf, invoiceTax, mergeInvoiceTaxExt } from './ext.ts';
import { setCustomerIdentityType } from './es-customer-identity.ts';
import { hasTag, isForeignCombo, str } from './lookup.ts';

const REGIME = 'es-verifactu-regime';
const OP_CLASS = 'es-verifactu-op-class';
const EXEMPT = 'es-verifactu-exempt';
const DOC_TYPE = 'es-verifactu-doc-type';
const CORRECTION_TYPE = 'es-verifactu-correction-type';
const ISSUER_TYPE = 'es-verifactu-issuer-type';
const IDENTITY_TYPE = 'es-verifactu-identity-type';

function keyFromCodes(combo: Node): void {
  if (str(combo.key) !== '') return;
  switch (extGet(combo, EXEMPT)) {
    case 'E1': case 'E6': combo.key = 'exempt'; break;
    case 'E2': case 'E3': case 'E4': combo.key = 'export'; break;
    case 'E5': combo.key = 'intra-community'; break;
  }
  switch (extGet(combo, OP_CLASS)) {
    case 'S2': combo.key = 'reverse-charge'; break;
    case 'N1': case 'N2': combo.key = 'outside-scope'; break;
  }
  if (str(combo.key) === '') combo.key = 'standard';
}

function normalizeCombo(combo: Node): void {
  if (combo.cat !== 'VAT' && combo.cat !== 'IGIC') return;
  if (isForeignCombo(combo, 'ES')) {
    extSet(combo, OP_CLASS, 'N2');
    extSetOneOf(combo, REGIME, '01', '17');
    extDelete(combo, EXEMPT);
    return;
  }
  keyFromCodes(combo);
  if (combo.key === 'export') extSetIfEmpty(combo, REGIME, '02');
  if (combo.surcharge !== undefined && combo.surcharge !== null) extSetIfEmpty(combo, REGIME, '18');
  extSetIfEmpty(combo, REGIME, '01');
  switch (combo.key) {
    case 'standard': case 'zero':
      extSet(combo, OP_CLASS, 'S1');
      extDelete(combo, EXEMPT);
      break;
    case 'reverse-charge':
      extSet(combo, OP_CLASS, 'S2');
      extDelete(combo, EXEMPT);
      break;
    case 'outside-scope':
      extSetOneOf(combo, OP_CLASS, 'N2', 'N1');
      extDelete(combo, EXEMPT);
      break;
    case 'exempt':
      extSetOneOf(combo, EXEMPT, 'E1', 'E6');
      extDelete(combo, OP_CLASS);
      break;
    case 'export':
      extSetOneOf(combo, EXEMPT, 'E2', 'E3', 'E4');
      extDelete(combo, OP_CLASS);
      break;
    case 'intra-community':
      extSet(combo, EXEMPT, 'E5');
      extDelete(combo, OP_CLASS);
      break;
  }
}

function normalizeInvoice(inv: Node): void {
  const type = str(inv.type);
  if (type === 'credit-note' || type === 'debit-note') mergeInvoiceTaxExt(inv, { [CORRECTION_TYPE]: 'I' });
  else if (type === 'corrective') mergeInvoiceTaxExt(inv, { [CORRECTION_TYPE]: 'S' });
  if (type === 'credit-note' || type === 'debit-note' || type === 'corrective') {
    const tax = invoiceTax(inv);
    if (!['R2', 'R3', 'R4', 'R5'].includes(extGet(tax, DOC_TYPE))) extSet(tax, DOC_TYPE, 'R1');
  }
  // issued by the customer (self-billed) or by a third party
  if (hasTag(inv, 'self-billed')) mergeInvoiceTaxExt(inv, { [ISSUER_TYPE]: 'D' });
  if (inv.ordering?.issuer && typeof inv.ordering.issuer === 'object') mergeInvoiceTaxExt(inv, { [ISSUER_TYPE]: 'T' });
  setCustomerIdentityType(inv.customer, IDENTITY_TYPE);
}

export const esVerifactuV1Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: normalizeInvoice },
  { type: 'tax.Combo', apply: normalizeCombo },
];
