// Spain TicketBAI: regime and exemption codes on VAT/IGIC combos (and a combo key from those
// codes), product codes from line items, the invoice's region from the supplier's address and
// the simplified flag.
import type { NormRule, Node } from '../engine/types.ts';
import { extDelete, extGet, extHas, extSet, extSetIfEmpty, extSetOneOf } from './ext.ts';
import { isEuMember } from './eu-members.ts';
import { setCustomerIdentityType } from './es-customer-identity.ts';
import { comboFor, hasTag, isForeignCombo, keyHas, own, str } from './lookup.ts';

const REGIME = 'es-tbai-regime';
const EXEMPT = 'es-tbai-exemption';
const PRODUCT = 'es-tbai-product';
const REGION = 'es-tbai-region';
const SIMPLIFIED = 'es-tbai-simplified';
const IDENTITY_TYPE = 'es-tbai-identity-type';

const REGIONS: Readonly<Record<string, string>> = {
  alava: 'VI', 'álava': 'VI', araba: 'VI', vi: 'VI',
  bizkaia: 'BI', vizcaya: 'BI', bi: 'BI',
  gipuzkoa: 'SS', guipuzcoa: 'SS', 'guipúzcoa': 'SS', ss: 'SS',
};

function keyFromCodes(combo: Node): void {
  if (str(combo.key) !== '') return;
  switch (extGet(combo, EXEMPT)) {
    case 'E1': case 'E6': combo.key = 'exempt'; break;
    case 'E2': case 'E3': case 'E4': combo.key = 'export'; break;
    case 'E5': combo.key = 'intra-community'; break;
    case 'S2': combo.key = 'reverse-charge'; break;
    case 'OT': case 'RL': case 'VT': case 'IE': combo.key = 'outside-scope'; break;
    default: combo.key = 'standard';
  }
}

function normalizeVatCombo(combo: Node, now: Date): void {
  if (isForeignCombo(combo, 'ES')) {
    // IE: not subject due to localisation rules within the EU; RL: outside the EU
    extSet(combo, EXEMPT, isEuMember(str(combo.country), now) ? 'IE' : 'RL');
    extSetIfEmpty(combo, REGIME, '01');
    return;
  }
  keyFromCodes(combo);
  if (combo.key === 'export') extSetIfEmpty(combo, REGIME, '02');
  if (combo.surcharge !== undefined && combo.surcharge !== null || keyHas(combo.rate, 'eqs')) {
    extSetIfEmpty(combo, REGIME, '51');
  }
  extSetIfEmpty(combo, REGIME, '01');
  switch (combo.key) {
    case 'standard': case 'zero': extDelete(combo, EXEMPT); break;
    case 'reverse-charge': extSet(combo, EXEMPT, 'S2'); break;
    case 'outside-scope': extSetOneOf(combo, EXEMPT, 'RL', 'IE', 'OT', 'VT'); break;
    case 'exempt': extSetOneOf(combo, EXEMPT, 'E1', 'E6'); break;
    case 'export': extSetOneOf(combo, EXEMPT, 'E2', 'E3', 'E4'); break;
    case 'intra-community': extSet(combo, EXEMPT, 'E5'); break;
  }
}

function normalizeCombo(combo: Node, now: Date): void {
  if (combo.cat === 'VAT') normalizeVatCombo(combo, now);
  else if (combo.cat === 'IGIC') {
    extSet(combo, EXEMPT, 'IE');
    extSetIfEmpty(combo, REGIME, '08');
  }
}

function normalizeLine(line: Node): void {
  if (!line.item || typeof line.item !== 'object') return;
  const vat = comboFor(line.taxes, 'VAT');
  if (!vat) return;
  const key = str(line.item.key);
  if (key === 'goods') extSetOneOf(vat, PRODUCT, 'goods', 'resale');
  else if (key === 'services' || key === '') extSet(vat, PRODUCT, 'services');
}

/** The region from the supplier's first address; `tax` is only created when a region is found. */
function normalizeRegion(inv: Node): void {
  if (extHas(inv.tax, REGION)) return;
  const address = Array.isArray(inv.supplier?.addresses) ? inv.supplier.addresses[0] : undefined;
  if (!address || typeof address !== 'object') return;
  const region = own(REGIONS, str(address.region).toLowerCase());
  if (!region) return;
  if (!inv.tax || typeof inv.tax !== 'object') inv.tax = {};
  extSet(inv.tax, REGION, region);
}

function normalizeInvoice(inv: Node): void {
  normalizeRegion(inv);
  if (hasTag(inv, 'simplified')) {
    if (!inv.tax || typeof inv.tax !== 'object') inv.tax = {};
    extSet(inv.tax, SIMPLIFIED, 'S');
  }
  setCustomerIdentityType(inv.customer, IDENTITY_TYPE);
}

export const esTbaiV1Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: normalizeInvoice },
  { type: 'bill.Line', apply: normalizeLine },
  { type: 'tax.Combo', apply: (combo, ctx) => normalizeCombo(combo, ctx.now) },
];
