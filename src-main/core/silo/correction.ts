// A new entry that corrects a stored one (`previous_id` + `correct`): GOBL's correction of the
// stored envelope (a credit note, debit note or corrective invoice naming the original in
// `preceding`), optionally patched, and then built like any partial document.
import { validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { runOffLoop } from '../gobl/engine-thread/index.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import { BuildError } from '../gobl/engine/index.ts';
import { faultOf } from '../gobl/fault.ts';
import { ENVELOPE_SCHEMA } from '../gobl/index.ts';
import { requireEntryRow } from './entries.ts';
import { optionsAt, refuseFaults } from './faults-error.ts';
import { applyPatch, type JsonPatchOperation, type PatchContentType } from './patch-apply.ts';
import { documentText } from './packed-document.ts';

/** The corrective document of entry `previousId` (of the caller's company: 404 otherwise). Throws 422 with GOBL's faults. */
export async function correctiveDocument(ctx: Ctx, previousId: string, options: unknown, now: Date, member = 'correct'): Promise<Record<string, unknown>> {
  const previous = await requireEntryRow(ctx, previousId);
  try {
    // A large one read a piece at a time and corrected on the engine's thread (13,000 lines: 70 ms in one call here).
    const stored = (await parseStoredJson(documentText(previous.data, previous.id))) as Record<string, unknown>;
    return (await runOffLoop({ op: 'correct', data: stored, options, now })).outcome;
  } catch (err) {
    if (!(err instanceof BuildError)) throw err;
    const faults = err.faults.map((f) => faultOf(f));
    refuseFaults(faults, optionsAt(member), `entry ${previousId} cannot be corrected`);
  }
}

/**
 * The data of a correction entry: the corrective document, wrapped as an envelope when
 * `patch.data` changes it (paths from the envelope, `/doc/lines/0/quantity`, as PATCH).
 */
export async function correctionOf(
  ctx: Ctx,
  previousId: string,
  options: unknown,
  patch: { data?: Record<string, unknown> | Array<Record<string, unknown>>; content_type?: PatchContentType },
  now: Date,
): Promise<Record<string, unknown>> {
  const doc = await correctiveDocument(ctx, previousId, options, now);
  if (patch.data === undefined) return doc;
  if (patch.content_type === undefined || patch.content_type === 'application/json') {
    throw validationError('with previous_id, data is a patch of the correction: set content_type to a patch type', {
      '$.content_type': 'must be application/merge-patch+json or application/json-patch+json with previous_id',
    });
  }
  const envelope = { $schema: ENVELOPE_SCHEMA, head: {}, doc };
  return applyPatch(envelope, patch.content_type, patch.data as Record<string, unknown> | JsonPatchOperation[]);
}
