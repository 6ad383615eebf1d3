// ar-arca addon (Argentina, ARCA v4): document types against invoice types and customer VAT
// statuses, concepts, charges carrying other taxes.
import type { PredicateTable } from './table.ts';
import { comboCategoryIs, taxExt } from './invoice.ts';
import { identityWithExt, partyIdentities } from './party.ts';
import { extCode, hasExt, isNil, keyHas, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

const DOC_TYPES_A = ['1', '2', '3', '4', '5', '34', '39', '51', '52', '53', '54', '60', '63', '201', '202', '203'];
const DOC_TYPES_B = ['6', '7', '8', '9', '10', '35', '40', '61', '64', '206', '207', '208'];
const DOC_TYPES_C = ['11', '12', '13', '15', '211', '212', '213'];
const DOC_TYPES_T = ['195', '196', '197'];
const DOC_TYPES_CREDIT_NOTE = ['3', '8', '13', '53', '197', '203', '208', '213'];
const DOC_TYPES_DEBIT_NOTE = ['2', '7', '12', '52', '196', '202', '207', '212'];
const USED_GOODS_PURCHASE = '49';
const VAT_STATUSES_A = ['1', '6', '13', '16'];

const docType = (inv: unknown): string => taxExt(inv, 'ar-arca-doc-type');

/** A check on an invoice that passes for anything else. */
function onInvoice(check: (inv: Record<string, any>) => boolean, otherwise = true): Check {
  return (v) => {
    const inv = obj(v);
    return inv ? check(inv) : otherwise;
  };
}

/** The customer's VAT status, when the invoice has a customer and the status is set. */
function customerVatStatus(inv: Record<string, any>): string | undefined {
  if (isNil(inv.customer)) return undefined;
  return extCode(obj(inv.customer)?.ext, 'ar-arca-vat-status') || undefined;
}

const isT = onInvoice((inv) => DOC_TYPES_T.includes(docType(inv)), false);

export const arArca: PredicateTable = {
  'type matches doc type credit note': onInvoice((inv) => str(inv.type) !== 'credit-note' || DOC_TYPES_CREDIT_NOTE.includes(docType(inv))),
  'type matches doc type debit note': onInvoice((inv) => str(inv.type) !== 'debit-note' || DOC_TYPES_DEBIT_NOTE.includes(docType(inv))),
  'doc type credit note matches type': onInvoice((inv) => !DOC_TYPES_CREDIT_NOTE.includes(docType(inv)) || str(inv.type) === 'credit-note'),
  'doc type debit note matches type': onInvoice((inv) => !DOC_TYPES_DEBIT_NOTE.includes(docType(inv)) || str(inv.type) === 'debit-note'),
  'doc type 49 vat status': onInvoice((inv) => {
    const status = customerVatStatus(inv);
    return docType(inv) !== USED_GOODS_PURCHASE || status === undefined || status === '5';
  }),
  'doc type A vat status': onInvoice((inv) => {
    const status = customerVatStatus(inv);
    return !DOC_TYPES_A.includes(docType(inv)) || status === undefined || VAT_STATUSES_A.includes(status);
  }),
  'doc type B vat status': onInvoice((inv) => {
    const status = customerVatStatus(inv);
    return !DOC_TYPES_B.includes(docType(inv)) || status === undefined || !VAT_STATUSES_A.includes(status);
  }),
  'valid series': (v) => {
    const s = str(v);
    if (s === '') return true;
    if (!/^\d+$/.test(s)) return false;
    const n = Number(s);
    return n >= 1 && n <= 99998;
  },
  'customer required': onInvoice((inv) => ![...DOC_TYPES_B, USED_GOODS_PURCHASE].includes(docType(inv)), false),
  'has tax ID or identity': (v) => {
    const party = obj(v);
    if (!party) return true; // a missing customer is the "customer required" rule's business
    return !isNil(party.tax_id) || identityWithExt(partyIdentities(party), 'ar-arca-identity-type') !== undefined;
  },
  'doc type is A, B, or C': (v, at) => !isT(v, at),
  'doc type is C': onInvoice((inv) => DOC_TYPES_C.includes(docType(inv)), false),
  'doc type is T': isT,
  'concept is services': onInvoice((inv) => ['2', '3'].includes(taxExt(inv, 'ar-arca-concept')), false),
  'concept is goods': onInvoice((inv) => taxExt(inv, 'ar-arca-concept') === '1', false),
  'key is tax': (v) => keyHas(obj(v)?.key, 'tax'),
  'has tax type ext': (v) => hasExt(obj(v)?.ext, 'ar-arca-tax-type'),
  'tax type is other': (v) => extCode(obj(v)?.ext, 'ar-arca-tax-type') === '99',
  'category is VAT': (v) => comboCategoryIs(v, 'VAT'),
};
