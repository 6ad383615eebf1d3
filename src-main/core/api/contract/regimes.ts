import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const i18n = z.record(z.string(), z.string());

const regimeSummary = z.object({
  code: z.string(),
  name: i18n,
  currency: z.string(),
});

// What an invoice editor offers for a country: GOBL's tax categories, their keys and named rates.
const regimeCatalogue = regimeSummary.extend({
  categories: z.array(
    z.object({
      code: z.string(),
      name: i18n,
      /** a tax withheld from the payable (IRPF), not added to it */
      retained: z.boolean(),
      /** GOBL tax keys (standard, zero, exempt, reverse-charge…) */
      keys: z.array(z.object({ key: z.string(), name: i18n })),
      /** the regime's named rates with the percent in force today */
      rates: z.array(z.object({ rate: z.string(), name: i18n, percent: z.string().optional(), surcharge: z.string().optional() })),
    }),
  ),
});

export const regimeOperations = {
  listRegimes: defineOperation({
    method: 'GET',
    path: '/silo/v1/gobl/regimes',
    summary: 'The tax regimes GOBL knows, by country code',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    output: z.object({ list: z.array(regimeSummary) }),
  }),
  getRegime: defineOperation({
    method: 'GET',
    path: '/silo/v1/gobl/regimes/{code}',
    summary: "A regime's tax categories, keys and rates (with today's percents), as GOBL defines them",
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ code: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code') }),
    output: regimeCatalogue,
  }),
};
