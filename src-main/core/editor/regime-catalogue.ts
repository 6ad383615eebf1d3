// GOBL's regime definitions as an invoice editor offers them: which tax categories a country
// has, with their keys and named rates and the percent each has today.
import { notFound } from '../api/errors.ts';
import type { HandlersOf } from '../api/handler.ts';
import type { regimeOperations } from '../api/contract/regimes.ts';
import { regimeCodes, regimeDef } from '../gobl/defs/index.ts';
import type { RateDef, RegimeDef } from '../gobl/defs/index.ts';

const summary = (def: RegimeDef) => ({ code: def.country, name: (def as { name?: Record<string, string> }).name ?? { en: def.country }, currency: def.currency });

/** The value in force on `today`: the newest whose `since` has come (values are listed newest first). */
function currentValue(rate: RateDef, today: string) {
  return rate.values.find((v) => !v.disabled && (!v.since || v.since <= today));
}

export const regimeHandlers: HandlersOf<typeof regimeOperations> = {
  listRegimes: () => ({ list: regimeCodes().map((code) => summary(regimeDef(code)!)) }),
  getRegime: (_ctx, { params }) => {
    const def = regimeDef(params.code);
    if (!def) throw notFound(`regime ${params.code.toUpperCase()}`);
    const today = new Date().toISOString().slice(0, 10);
    return {
      ...summary(def),
      categories: (def.categories ?? []).map((c) => ({
        code: c.code,
        name: c.name ?? { en: c.code },
        retained: c.retained === true,
        keys: (c.keys ?? []).map((k) => ({ key: k.key, name: k.name ?? { en: k.key } })),
        rates: (c.rates ?? []).map((r) => {
          const value = currentValue(r, today);
          return {
            rate: r.rate,
            name: r.name ?? { en: r.rate },
            ...(value?.percent ? { percent: value.percent } : {}),
            ...(value?.surcharge ? { surcharge: value.surcharge } : {}),
          };
        }),
      })),
    };
  },
};
