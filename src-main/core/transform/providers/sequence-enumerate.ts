import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { uuid } from '../../api/contract/common.ts';
import type { Ctx } from '../../api/handler.ts';
import { issueEntry } from '../../sequence/issue.ts';
import { findSeriesRow } from '../../sequence/series.ts';
import { defineProvider, type StepContext } from '../provider.ts';

/** Namespace of the series entry ids this step derives (fixed forever: changing it would renumber retries). */
const ENUMERATE_NAMESPACE = '6f1d7c3e-2b8a-5e41-9c0d-5a1e3b7f9d20';

/**
 * The series entry a step takes is named by its job, step and series: an `apply`
 * that runs again after a crash asks for the same id and gets the same number back.
 */
export const enumerationEntryId = (jobId: string, stepId: string, seriesId: string): string =>
  uuidv5(`${jobId}/${stepId}/${seriesId}`, ENUMERATE_NAMESPACE);

export const sequenceEnumerate = defineProvider({
  id: 'sequence.enumerate',
  description: "Numbers the document from a series: issues the series' next entry and sets the document's series and code",
  config: z.object({ series_id: uuid }).strict(),
  run(ctx, config) {
    const api: Ctx = { service: ctx.service, caller: { companyId: ctx.companyId, kind: 'owner' } };
    const series = findSeriesRow(api, config.series_id);
    if (!series) return { status: 'KO', code: 'series-not-found', message: `series ${config.series_id} not found` };

    const current = ctx.entry();
    if (current.signed) {
      return { status: 'KO', code: 'signed', message: 'the envelope is signed; its document can no longer be numbered' };
    }
    const issued = issuedToThisDocument(ctx, series.id, current.envelope.doc?.code);
    if (issued) return { status: 'OK', code: 'already', message: `already numbered ${issued} in series ${series.id}` };
    if (series.issuer !== ctx.service.instanceId) {
      return {
        status: 'KO',
        code: 'not-issuer',
        message: `series ${series.id} is issued by instance ${series.issuer}; this instance holds a read-only copy`,
      };
    }

    const entryId = enumerationEntryId(ctx.job.id, ctx.step.id, series.id);
    return {
      status: 'OK',
      message: `numbered from series ${series.id}`,
      apply: () => {
        const entry = issueEntry(api, series.id, entryId, {
          meta: { silo_entry_id: ctx.job.silo_entry_id, job_id: ctx.job.id, step_id: ctx.step.id },
        });
        const envelope = structuredClone(ctx.entry().envelope);
        // Series and code name the number together: a series left from elsewhere would misname it.
        if (series.code) envelope.doc.series = series.code;
        else delete envelope.doc.series;
        envelope.doc.code = entry.code;
        ctx.updateEntry({ envelope });
      },
    };
  },
});

/**
 * The document's code counts as ours only when this series issued it to this very
 * silo entry: a copy of a numbered invoice carries the code too, and must get its own.
 */
function issuedToThisDocument(ctx: StepContext, seriesId: string, code: unknown): string | undefined {
  if (typeof code !== 'string' || code === '') return undefined;
  const { store } = ctx.service;
  const rows = store.all(
    store.q.selectFrom('series_entries').select(['meta']).where('series_id', '=', seriesId).where('code', '=', code),
  );
  const mine = rows.some((r) => (JSON.parse(r.meta) as Record<string, string>).silo_entry_id === ctx.job.silo_entry_id);
  return mine ? code : undefined;
}
