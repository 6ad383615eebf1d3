import { addonDef, expandAddons, regimeDef } from '../defs/index.ts';
import type { AddonDef } from '../defs/index.ts';
import { BuildError } from './types.ts';
import type { BuildContext, EngineFault, Node } from './types.ts';

/**
 * `https://gobl.org/draft-0/bill/invoice|ES|es-tbai-v1`: names the document type, regime and
 * addons of a build, for the work that depends on nothing else (ordered normalisers, scenario
 * lists, tag sets) to be done once per combination.
 */
export function comboKey(ctx: BuildContext): string {
  ctx.comboKey ??= `${ctx.schema}|${ctx.regime?.country ?? ''}|${ctx.addons.map((a) => a.key).join(',')}`;
  return ctx.comboKey;
}

/** The regime GOBL would pick: `$regime`, else the supplier's tax ID country (invoices, orders…). */
export function regimeCodeOf(doc: Node): string | undefined {
  if (typeof doc.$regime === 'string' && doc.$regime !== '') return doc.$regime.toUpperCase();
  const country = doc.supplier?.tax_id?.country;
  return typeof country === 'string' && country !== '' ? country.toUpperCase() : undefined;
}

/**
 * Resolves the regime and addons a document names and writes them back as GOBL does (`$regime` set
 * from the supplier when missing, `$addons` expanded with their requirements). Unknown regimes and
 * addons are refused: silently dropping them (as GOBL does with addons) would store a document that
 * skipped the checks its sender asked for.
 */
export function contextFor(doc: Node, schema: string, rootType: string, now: Date): BuildContext {
  const faults: EngineFault[] = [];
  const code = regimeCodeOf(doc);
  const regime = regimeDef(code);
  if (code && !regime) {
    // A supplier from a country GOBL has no regime for is fine; only an explicit `$regime` must exist.
    if (typeof doc.$regime === 'string' && doc.$regime !== '') {
      faults.push({ code: 'unknown-regime', message: `regime '${doc.$regime}' is not known`, paths: ['$.doc.$regime'] });
    }
  }
  // Types without a `$regime` field lose it again when the document is conformed to its schema.
  if (regime) doc.$regime = regime.country;
  let addons: AddonDef[] = [];
  if (doc.$addons !== undefined) {
    if (!Array.isArray(doc.$addons)) {
      faults.push({ code: 'invalid-addons', message: '$addons must be a list of addon keys', paths: ['$.doc.$addons'] });
    } else {
      doc.$addons.forEach((key: unknown, i: number) => {
        if (typeof key !== 'string' || !addonDef(key)) {
          faults.push({ code: 'unknown-addon', message: `addon '${String(key)}' is not known`, paths: [`$.doc.$addons[${i}]`] });
        }
      });
      const keys = expandAddons(doc.$addons.filter((k: unknown): k is string => typeof k === 'string'));
      addons = keys.map((k) => addonDef(k)!);
      if (keys.length > 0) doc.$addons = keys;
      else delete doc.$addons;
    }
  }
  if (faults.length > 0) throw new BuildError(faults);
  return { schema, rootType, regime, addons, doc, now };
}
