// EN 16931-1:2017: maps GOBL keys to UNTDID codes (tax category 5305, payment means 4461,
// allowance 5189, charge 7161, text subject 4451) and ISO 6523 identity schemes, defaults item
// units, splits "0208:…" inbox codes and adds the Peppol endpoint an inbox implies.
import type { Node, NormRule } from '../engine/types.ts';
import { extGet, extMerge, extSet } from './ext.ts';
import { keyForCode, lookupKeyCode, own, str } from './lookup.ts';

const TAX_CATEGORY = 'untdid-tax-category';
const PAYMENT_MEANS = 'untdid-payment-means';
const ALLOWANCE = 'untdid-allowance';
const CHARGE = 'untdid-charge';
const TEXT_SUBJECT = 'untdid-text-subject';
const SCHEME_ID = 'iso-scheme-id';

/** VAT combo key → UNTDID 5305 tax category. */
export const VAT_TAX_CATEGORIES: Readonly<Record<string, string>> = {
  standard: 'S',
  zero: 'Z',
  exempt: 'E',
  'reverse-charge': 'AE',
  'intra-community': 'K',
  export: 'G',
  'outside-scope': 'O',
};

/** Spanish special territories have their own 5305 codes; every other category is "outside scope". */
const OTHER_TAX_CATEGORIES: Readonly<Record<string, string>> = { IGIC: 'L', IPSI: 'M' };

const PAYMENT_MEANS_CODES: Readonly<Record<string, string>> = {
  any: '1',
  card: '48',
  'card+debit': '55',
  'credit-transfer': '30',
  'debit-transfer': '31',
  cash: '10',
  cheque: '20',
  'bank-draft': '21',
  'direct-debit': '49',
  online: '68',
  'promissory-note': '60',
  netting: '97',
  'credit-transfer+sepa': '58',
  'direct-debit+sepa': '59',
};

const ALLOWANCE_CODES: Readonly<Record<string, string>> = {
  'early-completion': '41',
  military: '62',
  'work-accident': '63',
  'special-agreement': '64',
  'production-error': '65',
  'new-outlet': '66',
  sample: '67',
  'end-of-range': '68',
  incoterm: '70',
  'pos-threshold': '71',
  'special-rebate': '100',
  temporary: '103',
  standard: '104',
  'yearly-turnover': '105',
};

const CHARGE_CODES: Readonly<Record<string, string>> = {
  'stamp-duty': 'ST',
  outlay: 'AAE',
  tax: 'TX',
  customs: 'ABW',
  delivery: 'DL',
  packing: 'PC',
  handling: 'HD',
  insurance: 'IN',
  storage: 'ABA',
  admin: 'AEM',
  cleaning: 'CG',
};

const TEXT_SUBJECT_CODES: Readonly<Record<string, string>> = {
  goods: 'AAA',
  payment: 'PMT',
  'payment-method': 'PMD',
  'payment-term': 'AAB',
  general: 'AAI',
  legal: 'ABL',
  'dangerous-goods': 'AAC',
  ack: 'AAE',
  rate: 'AAF',
  reason: 'ACD',
  dispute: 'ACE',
  customer: 'CUR',
  glossary: 'ACZ',
  customs: 'CUS',
  handling: 'HAN',
  packaging: 'PKG',
  loading: 'LOI',
  price: 'AAK',
  priority: 'PRI',
  regulatory: 'REG',
  safety: 'SAF',
  'ship-line': 'SLR',
  supplier: 'SUR',
  transport: 'TRA',
  delivery: 'DEL',
  quarantine: 'QIN',
  tax: 'TXD',
  other: 'ZZZ',
};

/** ISO 6523 scheme by identity key, then by identity type (FR SIREN/SIRET, DK CVR). */
const SCHEME_BY_IDENTITY_KEY: Readonly<Record<string, string>> = { gln: '0088', gtin: '0160' };
const SCHEME_BY_IDENTITY_TYPE: Readonly<Record<string, string>> = { SIREN: '0002', SIRET: '0009', CVR: '0184' };

const PEPPOL_ENDPOINT_SCHEME = 'iso6523-actorid-upis';

function normalizeCombo(combo: Node): void {
  const cat = str(combo.cat);
  if (cat === 'VAT') {
    if (str(combo.key) === '') {
      combo.key = keyForCode(VAT_TAX_CATEGORIES, extGet(combo, TAX_CATEGORY)) || 'standard';
    }
    extSet(combo, TAX_CATEGORY, own(VAT_TAX_CATEGORIES, combo.key));
    return;
  }
  extSet(combo, TAX_CATEGORY, own(OTHER_TAX_CATEGORIES, cat) || 'O');
}

function normalizeTaxNote(note: Node): void {
  if (note.cat !== 'VAT') return;
  if (str(note.key) === '') {
    const key = keyForCode(VAT_TAX_CATEGORIES, extGet(note, TAX_CATEGORY));
    if (key) note.key = key;
    else delete note.key;
  }
  const code = own(VAT_TAX_CATEGORIES, note.key);
  if (code) extMerge(note, { [TAX_CATEGORY]: code });
}

function mergeMapped(node: Node, extKey: string, map: Readonly<Record<string, string>>): void {
  const code = own(map, node.key);
  if (code) extMerge(node, { [extKey]: code });
}

function normalizeIdentity(identity: Node): void {
  if (str(identity.key) !== '') {
    const scheme = own(SCHEME_BY_IDENTITY_KEY, identity.key);
    if (scheme) {
      extMerge(identity, { [SCHEME_ID]: scheme });
      return;
    }
  }
  const scheme = own(SCHEME_BY_IDENTITY_TYPE, identity.type);
  if (scheme) extMerge(identity, { [SCHEME_ID]: scheme });
}

/** "0208:0123456789" → scheme "0208", code "0123456789" (GOBL's unanchored match, kept as is). */
function normalizeInbox(inbox: Node): void {
  const code = str(inbox.code);
  if (code === '' || !/\d{4}:/.test(code)) return;
  inbox.scheme = code.slice(0, 4);
  inbox.code = code.slice(5);
}

/** The scheme of a URI as Go's url.Parse reads it (lower-cased), or ''. */
function uriScheme(uri: unknown): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(str(uri));
  return m ? m[1].toLowerCase() : '';
}

function addPeppolEndpoint(party: Node): void {
  const endpoints: unknown[] = Array.isArray(party.endpoints) ? party.endpoints : [];
  if (endpoints.some((e: any) => e && uriScheme(e.uri) === PEPPOL_ENDPOINT_SCHEME)) return;
  for (const inbox of Array.isArray(party.inboxes) ? party.inboxes : []) {
    if (!inbox || inbox.key !== 'peppol') continue;
    if (str(inbox.scheme) === '' || str(inbox.code) === '') continue;
    const endpoint: Node = {};
    if (str(inbox.label) !== '') endpoint.label = inbox.label;
    endpoint.uri = `${PEPPOL_ENDPOINT_SCHEME}::${inbox.scheme}:${inbox.code}`;
    party.endpoints = [...endpoints, endpoint];
    return;
  }
}

export const euEn16931V2017Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: (inv) => { if (!inv.tax || typeof inv.tax !== 'object') inv.tax = {}; } },
  { type: 'pay.Instructions', apply: (instr) => {
    const code = lookupKeyCode(PAYMENT_MEANS_CODES, instr.key);
    if (code) extMerge(instr, { [PAYMENT_MEANS]: code });
  } },
  { type: 'tax.Combo', apply: normalizeCombo },
  { type: 'bill.Discount', apply: (d) => mergeMapped(d, ALLOWANCE, ALLOWANCE_CODES) },
  { type: 'bill.LineDiscount', apply: (d) => mergeMapped(d, ALLOWANCE, ALLOWANCE_CODES) },
  { type: 'bill.Charge', apply: (c) => mergeMapped(c, CHARGE, CHARGE_CODES) },
  { type: 'bill.LineCharge', apply: (c) => mergeMapped(c, CHARGE, CHARGE_CODES) },
  { type: 'tax.Note', apply: normalizeTaxNote },
  { type: 'org.Note', apply: (n) => mergeMapped(n, TEXT_SUBJECT, TEXT_SUBJECT_CODES) },
  { type: 'org.Item', apply: (item) => { if (str(item.unit) === '') item.unit = 'one'; } },
  { type: 'org.Identity', apply: normalizeIdentity },
  { type: 'org.Inbox', apply: normalizeInbox },
  { type: 'org.Party', apply: addPeppolEndpoint },
];
