// The correction definition that applies to an invoice: GOBL merges the regime's entry for
// `bill/invoice` with each addon's, in `$addons` order. Lists are unioned (first seen first),
// flags are OR-ed. Starting from an empty definition means a known regime always yields one,
// even when it lists nothing.
import { addonDef, expandAddons, regimeDef } from '../defs/index.ts';
import type { AddonDef, CorrectionDef, RegimeDef } from '../defs/index.ts';
import { regimeCodeOf } from '../engine/context.ts';
import type { Node } from '../engine/types.ts';

export const INVOICE_SCHEMA_SUFFIX = 'bill/invoice';

export interface CorrectionRules {
  types: string[];
  extensions: string[];
  reasonRequired: boolean;
  stamps: string[];
  copyTax: boolean;
}

export interface InvoiceSetting {
  regime: RegimeDef | undefined;
  addons: AddonDef[];
}

/** The regime and the expanded addons an invoice names (unknown addons are ignored, as GOBL does). */
export function settingOf(doc: Node): InvoiceSetting {
  const regime = regimeDef(regimeCodeOf(doc));
  const keys = Array.isArray(doc.$addons) ? doc.$addons.filter((k: unknown): k is string => typeof k === 'string') : [];
  return { regime, addons: expandAddons(keys).map((k) => addonDef(k)!) };
}

function entryFor(list: CorrectionDef[] | undefined): CorrectionDef | undefined {
  return list?.find((cd) => INVOICE_SCHEMA_SUFFIX.endsWith(cd.schema));
}

function union(into: string[], more: string[] | undefined): void {
  for (const k of more ?? []) if (!into.includes(k)) into.push(k);
}

export function correctionRulesFor(setting: InvoiceSetting): CorrectionRules {
  const rules: CorrectionRules = { types: [], extensions: [], reasonRequired: false, stamps: [], copyTax: false };
  const entries = [entryFor(setting.regime?.corrections), ...setting.addons.map((a) => entryFor(a.corrections))];
  for (const cd of entries) {
    if (!cd) continue;
    union(rules.types, cd.types);
    union(rules.extensions, cd.extensions);
    union(rules.stamps, cd.stamps);
    rules.reasonRequired ||= cd.reason_required === true;
    rules.copyTax ||= cd.copy_tax === true;
  }
  return rules;
}

/** GOBL only knows how to correct invoices (`bill.Invoice` is its only Correctable type). */
export function isInvoice(doc: Node): boolean {
  return typeof doc.$schema === 'string' && doc.$schema.endsWith(`/${INVOICE_SCHEMA_SUFFIX}`);
}
