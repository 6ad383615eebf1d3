import { z } from 'zod';
import type { Ctx } from '../../api/handler.ts';
import { commitEntry, prepareNewEntry } from '../../silo/entries.ts';
import { FaultsError } from '../../silo/faults-error.ts';
import { defineProvider } from '../provider.ts';

const stamp = z.object({ prv: z.string(), val: z.string() }).strict();

/** GOBL's correction options (`bill.CorrectionOptions`); `credit`/`debit` are the older spelling of `type`. */
const correctionOptions = z
  .object({
    type: z.string().optional(),
    credit: z.boolean().optional(),
    debit: z.boolean().optional(),
    issue_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2024-12-31').optional(),
    series: z.string().optional(),
    reason: z.string().optional(),
    stamps: z.array(stamp).optional(),
    ext: z.record(z.string(), z.string()).optional(),
    copy_tax: z.boolean().optional(),
  })
  .strict();

/**
 * Makes the correction of the job's entry (a credit note, debit note or corrective
 * invoice, as GOBL corrects for the document's regime and addons) and stores it as
 * a new entry. Its `preceding` names the original, so each lists the other as
 * related. KO with GOBL's faults when the entry cannot be corrected so.
 */
export const goblCorrect = defineProvider({
  id: 'gobl.correct',
  description: "Stores GOBL's correction of the entry (config: correction options, e.g. {\"type\": \"credit-note\", \"reason\": \"…\"}) as a new related entry",
  config: correctionOptions,
  inline: true,
  engineBound: true,
  async run(ctx, options) {
    const api: Ctx = { service: ctx.service, caller: ctx.owner };
    let prepared;
    try {
      prepared = await prepareNewEntry(api, undefined, { previous_id: ctx.job.silo_entry_id, correct: options });
    } catch (err) {
      if (!(err instanceof FaultsError)) throw err;
      return { status: 'KO', code: 'not-corrected', message: err.message, faults: err.faults };
    }
    return {
      status: 'OK',
      code: 'corrected',
      message: `correction stored as entry ${prepared.id}`,
      apply: async () => {
        await commitEntry(api, prepared);
      },
    };
  },
});
