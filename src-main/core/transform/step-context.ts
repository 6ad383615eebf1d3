import type { Ctx } from '../api/handler.ts';
import { parseFaults } from '../gobl/fault.ts';
import { storeAttachment } from '../silo/attachments.ts';
import { deriveDocument, toEnvelope, type Envelope } from '../silo/document.ts';
import { requireEntryRow } from '../silo/entries.ts';
import { writeEntryChange } from '../silo/patch.ts';
import { sameSignatures, sigsCheckFor } from '../silo/signatures.ts';
import type { StepContext } from './provider.ts';

/** The silo as a step sees it: reads of its job's entry, and writes for `apply`. */
export function makeStepContext(
  ctx: Ctx,
  job: StepContext['job'],
  step: StepContext['step'],
  attempt: number,
  signal: AbortSignal,
): StepContext {
  const entryId = job.silo_entry_id;
  return {
    service: ctx.service,
    companyId: ctx.caller.companyId,
    job,
    step,
    attempt,
    signal,
    entry() {
      const row = requireEntryRow(ctx, entryId);
      return {
        envelope: JSON.parse(row.data) as Envelope,
        state: row.state,
        folder: row.folder,
        tags: JSON.parse(row.tags) as string[],
        signed: row.signed === 1,
        version: row.version,
      };
    },
    updateEntry(changes) {
      const row = requireEntryRow(ctx, entryId);
      // A new document is checked by GOBL; a change of state, folder or tags keeps what the
      // stored one was found to be (checking it again would rebuild it for nothing).
      const next = changes.envelope ? toEnvelope(entryId, changes.envelope as Record<string, unknown>).envelope : undefined;
      // A step (silo.modify's patch) can no more seal a document with a signature nobody checked than PATCH can.
      if (next && !sameSignatures(JSON.parse(row.data) as Envelope, next)) sigsCheckFor(ctx, '$.envelope')(next);
      const doc = next
        ? deriveDocument(next)
        : deriveDocument(JSON.parse(row.data) as Envelope, { alg: row.digest_alg, val: row.digest_val }, parseFaults(row.faults));
      writeEntryChange(ctx, row, doc, { state: changes.state, folder: changes.folder, tags: changes.tags });
    },
    attach(file) {
      const id = file.id ?? (file.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 128) || 'file');
      const row = storeAttachment(ctx, entryId, { id, name: file.name, mime: file.mime, desc: file.desc, bytes: file.bytes });
      return { id: row.id, hash: row.hash, size: row.size };
    },
  };
}
