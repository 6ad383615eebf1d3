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
  inline: true,
  engineBound: true,
  async run(ctx, config) {
    const api: Ctx = { service: ctx.service, caller: ctx.owner };
    const series = await findSeriesRow(api, config.series_id);
    if (!series) return { status: 'KO', code: 'series-not-found', message: `series ${config.series_id} not found` };

    const current = await ctx.entry();
    if (current.signed) {
      return { status: 'KO', code: 'signed', message: 'the envelope is signed; its document can no longer be numbered' };
    }
    const issued = await issuedToThisDocument(ctx, series.id, current.envelope.doc?.series, current.envelope.doc?.code);
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
      apply: async () => {
        const entry = await issueEntry(api, series.id, entryId, {
          meta: { silo_entry_id: ctx.job.silo_entry_id, job_id: ctx.job.id, step_id: ctx.step.id },
        });
        const envelope = structuredClone((await ctx.entry()).envelope);
        // Series and code name the number together: a series left from elsewhere would misname it.
        const number = documentSeriesAndCode(series.code, entry.code);
        if (number.series) envelope.doc.series = number.series;
        else delete envelope.doc.series;
        envelope.doc.code = number.code;
        await ctx.updateEntry({ envelope });
      },
    };
  },
});

/**
 * GOBL presents a document's number as `series-code`. A series whose prefix already
 * starts with its own code (code `FV`, prefix `FV-2026-`) issues `FV-2026-00001`: the
 * document gets series `FV` and code `2026-00001`, so it reads `FV-2026-00001`, the
 * code the series issued and its preview showed, never `FV-FV-2026-00001`. Otherwise the
 * series code is the series and the issued code the code, as GOBL's convention has it.
 */
export function documentSeriesAndCode(seriesCode: string, issued: string): { series?: string; code: string } {
  if (!seriesCode) return { code: issued };
  const lead = `${seriesCode}-`;
  if (issued.length > lead.length && issued.startsWith(lead)) return { series: seriesCode, code: issued.slice(lead.length) };
  return { series: seriesCode, code: issued };
}

/**
 * The document's number counts as ours only when this series issued it to this very
 * silo entry: a copy of a numbered invoice carries the number too, and must get its own.
 * The issued code is the document's code, or its series and code joined (see above).
 */
async function issuedToThisDocument(ctx: StepContext, seriesId: string, series: unknown, code: unknown): Promise<string | undefined> {
  if (typeof code !== 'string' || code === '') return undefined;
  const codes = typeof series === 'string' && series !== '' ? [`${series}-${code}`, code] : [code];
  const { db } = ctx.service;
  const rows = await db.all(
    db.q
      .selectFrom('series_entries')
      .select(['code', 'meta'])
      .where('company_id', '=', ctx.owner.companyKey)
      .where('series_id', '=', seriesId)
      .where('code', 'in', codes),
  );
  const mine = rows.find((r) => (JSON.parse(r.meta) as Record<string, string>).silo_entry_id === ctx.job.silo_entry_id);
  return mine?.code;
}
