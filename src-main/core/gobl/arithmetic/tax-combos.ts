// The tax combos lines, discounts and charges carry (`taxes: [{cat, percent, …}]`),
// and when two of them fall into the same rate of the tax totals.
import type { Decimal } from 'decimal.js';
import { parsePercent } from './amount.ts';
import { asList, asRecord, asText } from './json.ts';

export type Combo = {
  category: string;
  key: string | undefined;
  country: string | undefined;
  /** undefined for rates without a percent: exempt, reverse charge, … */
  percent: Decimal | undefined;
  percentText: string | undefined;
  surcharge: Decimal | undefined;
  surchargeText: string | undefined;
  ext: Record<string, unknown> | undefined;
};

/** The combos in a `taxes` list; undefined when a percent cannot be read, so no tax figure can be trusted. */
export function readCombos(taxes: unknown): Combo[] | undefined {
  const combos: Combo[] = [];
  for (const value of asList(taxes)) {
    const combo = readCombo(asRecord(value));
    if (combo === undefined) return undefined;
    if (combo !== null) combos.push(combo);
  }
  return combos;
}

/** A rate as the tax totals state it, in the same terms. */
export function readStatedRate(category: string, rate: Record<string, unknown>): Combo | undefined {
  const surcharge = asRecord(rate.surcharge);
  const combo = { cat: category, key: rate.key, country: rate.country, percent: rate.percent, surcharge: surcharge?.percent, ext: rate.ext };
  return readCombo(combo) ?? undefined;
}

// null: not a combo at all (no category), skipped as GOBL would refuse it anyway.
function readCombo(combo: Record<string, unknown> | undefined): Combo | null | undefined {
  const category = asText(combo?.cat);
  if (!combo || !category) return null;
  const percent = readOptionalPercent(combo.percent);
  const surcharge = readOptionalPercent(combo.surcharge);
  if (percent === null || surcharge === null) return undefined;
  return {
    category,
    key: asText(combo.key),
    country: asText(combo.country),
    percent,
    percentText: asText(combo.percent),
    surcharge,
    surchargeText: asText(combo.surcharge),
    ext: asRecord(combo.ext),
  };
}

function readOptionalPercent(raw: unknown): Decimal | undefined | null {
  if (raw === undefined || raw === null) return undefined;
  return parsePercent(raw) ?? null;
}

/**
 * GOBL's grouping of combos into one rate: same extensions, country, percent
 * and surcharge. The key does not count; the first combo's key names the rate.
 */
export function sameRate(a: Combo, b: Combo): boolean {
  if (!sameExtensions(a.ext, b.ext) || a.country !== b.country) return false;
  if (a.percent === undefined || b.percent === undefined) return a.percent === undefined && b.percent === undefined;
  if (a.surcharge !== undefined || b.surcharge !== undefined) {
    if (a.surcharge === undefined || b.surcharge === undefined || !a.surcharge.eq(b.surcharge)) return false;
  }
  return a.percent.eq(b.percent);
}

/** Same rate but for its percent or surcharge: the same key, extensions and country. */
export function sameRateApartFromPercent(a: Combo, b: Combo): boolean {
  return a.key === b.key && a.country === b.country && sameExtensions(a.ext, b.ext);
}

function sameExtensions(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  const left = Object.entries(a ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== '');
  const right = new Map(Object.entries(b ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== ''));
  return left.length === right.size && left.every(([k, v]) => right.get(k) === v);
}

/** "VAT standard 21.0%", to name a rate in messages. */
export function rateLabel(combo: Combo): string {
  return [combo.category, combo.key, combo.percentText].filter(Boolean).join(' ');
}
