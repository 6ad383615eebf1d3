// PT: every VAT combo carries its `pt-region` (mainland by default, the ISO country
// for a foreign combo), and invoices written before 2023-08 with `exempt+…` rates are
// migrated to the `exempt` key with the SAF-T exemption code as an extension.
import type { Node, NormRule } from '../engine/types.ts';
import { taxCountryToIso } from './countries.ts';
import { inRegime } from './guards.ts';
import { taxIdRule } from './tax-id.ts';

const regionExt = 'pt-region';
const oldExemptionExt = 'pt-exemption-code';
const exemptionExt = 'pt-saft-exemption';

// The retired `exempt+…` rates and the extensions that replace them (GOBL's
// taxRateVATExemptMigrationMap, 2023-08-24).
const exemptRateExt: Record<string, Record<string, string>> = {
  'exempt+outlay': { [oldExemptionExt]: 'M01' },
  'exempt+intrastate-export': { [oldExemptionExt]: 'M02' },
  'exempt+imports': { [oldExemptionExt]: 'M04' },
  'exempt+exports': { [oldExemptionExt]: 'M05' },
  'exempt+suspension-scheme': { [oldExemptionExt]: 'M06' },
  'exempt+internal-operations': { [oldExemptionExt]: 'M07' },
  'exempt+small-retail-scheme': { 'at-tax-code': 'exempt', [oldExemptionExt]: 'M09' },
  'exempt+exempt-scheme': { [oldExemptionExt]: 'M10' },
  'exempt+tobacco-scheme': { [oldExemptionExt]: 'M11' },
  'exempt+margin-scheme+travel': { 'at-tax-code': 'exempt', [oldExemptionExt]: 'M12' },
  'exempt+margin-scheme+second-hand': { [oldExemptionExt]: 'M13' },
  'exempt+margin-scheme+art': { [oldExemptionExt]: 'M14' },
  'exempt+margin-scheme+antiques': { [oldExemptionExt]: 'M15' },
  'exempt+goods-transmission': { [oldExemptionExt]: 'M16' },
  'exempt+other': { [oldExemptionExt]: 'M19' },
  'exempt+flat-rate-scheme': { [oldExemptionExt]: 'M20' },
  'exempt+non-deductible': { [oldExemptionExt]: 'M21' },
  'exempt+consignment-goods': { [oldExemptionExt]: 'M25' },
  'exempt+reverse-charge+waste': { [oldExemptionExt]: 'M30' },
  'exempt+reverse-charge+civil-eng': { [oldExemptionExt]: 'M31' },
  'exempt+reverse-charge+greenhouse': { [oldExemptionExt]: 'M32' },
  'exempt+reverse-charge+woods': { [oldExemptionExt]: 'M33' },
  'exempt+reverse-charge+b2b': { [oldExemptionExt]: 'M40' },
  'exempt+reverse-charge+intraeu': { [oldExemptionExt]: 'M41' },
  'exempt+reverse-charge+real-estate': { [oldExemptionExt]: 'M42' },
  'exempt+reverse-charge+gold': { [oldExemptionExt]: 'M43' },
  'exempt+non-taxable': { [oldExemptionExt]: 'M99' },
};

function sorted(ext: Record<string, string>): Record<string, string> | undefined {
  const entries = Object.entries(ext).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function writeExt(combo: Node, ext: Record<string, string>): void {
  const value = sorted(ext);
  if (value) combo.ext = value;
  else delete combo.ext;
}

function setRegion(combo: Node): void {
  if (combo.cat !== 'VAT') return;
  const ext: Record<string, string> = { ...(combo.ext ?? {}) };
  if (!(regionExt in ext)) ext[regionExt] = 'PT';
  const country = typeof combo.country === 'string' ? combo.country : '';
  if (country !== '' && country !== 'PT') {
    const iso = taxCountryToIso(country);
    if (iso !== '') ext[regionExt] = iso;
    else delete ext[regionExt];
  }
  writeExt(combo, ext);
}

function migrateCombo(combo: Node): void {
  const rate = typeof combo.rate === 'string' ? combo.rate : '';
  if (rate.split('+')[0] === 'exempt' && combo.key !== 'exempt' && exemptRateExt[rate]) {
    combo.key = 'exempt';
    delete combo.rate;
    combo.ext = { ...exemptRateExt[rate] };
  }
  const code = combo.ext?.[oldExemptionExt];
  if (typeof code === 'string' && code !== '') {
    const ext: Record<string, string> = { ...combo.ext, [exemptionExt]: code };
    delete ext[oldExemptionExt];
    writeExt(combo, ext);
  }
}

function migrateInvoiceRates(inv: Node): void {
  for (const list of [inv.lines, inv.discounts, inv.charges]) {
    if (!Array.isArray(list)) continue;
    for (const row of list) {
      if (!Array.isArray(row?.taxes)) continue;
      for (const combo of row.taxes) if (combo) migrateCombo(combo);
    }
  }
}

export const ptNormRules: NormRule[] = [
  taxIdRule(['PT']),
  { type: 'bill.Invoice', when: inRegime('PT'), apply: migrateInvoiceRates },
  { type: 'tax.Combo', when: inRegime('PT'), apply: setRegion },
];
