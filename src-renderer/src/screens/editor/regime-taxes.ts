// The tax choices a line offers, from the regime's catalogue (GET /silo/v1/gobl/regimes/{code}).
import type { Operations } from '../../../../src-main/core/api/contract/index.ts';
import type { ClientOutput } from '../../api/client.ts';
import { formatPercent } from '../../format/money.ts';

export type Regime = ClientOutput<Operations['getRegime']>;
export type TaxCategory = Regime['categories'][number];

export interface TaxChoice {
  value: string;
  label: string;
}

const en = (name: Record<string, string>, fallback: string): string => name.en ?? Object.values(name)[0] ?? fallback;

/** "Standard Rate + Equivalence Surcharge" → "Standard + surcharge": short enough for a line's select. */
const shortRate = (name: string): string => name.replace(/ Rate\b/, '').replace(/ \+ Equivalence Surcharge$/, ' + surcharge');

/** "General (21 %)", "Exempt", …, and "Other percent" for a rate the regime does not name. */
export function taxChoices(category: TaxCategory | undefined): TaxChoice[] {
  const choices: TaxChoice[] = [];
  for (const rate of category?.rates ?? []) {
    choices.push({ value: `rate:${rate.rate}`, label: `${shortRate(en(rate.name, rate.rate))}${rate.percent ? ` (${formatPercent(rate.percent)})` : ''}` });
  }
  for (const key of category?.keys ?? []) {
    if (key.key !== 'standard') choices.push({ value: `key:${key.key}`, label: en(key.name, key.key) });
  }
  choices.push({ value: 'percent:', label: 'Other percent…' });
  return choices;
}

export const categoryLabel = (category: TaxCategory): string => `${en(category.name, category.code)}${category.retained ? ' (withheld)' : ''}`;

/** The regime's rate that has `percent` ("21" → "rate:general"), for a guess read from a PDF. */
export function choiceForPercent(category: TaxCategory | undefined, percent: string): string {
  const wanted = Number(percent);
  const rate = category?.rates.find((r) => r.percent !== undefined && Number(r.percent.replace('%', '')) === wanted);
  return rate ? `rate:${rate.rate}` : `percent:${percent}`;
}
