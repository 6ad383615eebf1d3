import type { Db } from '../db/engine.ts';
import type { WriteHooks, WrittenRecord } from '../db/write-scopes.ts';
import { currentAction, currentActor, inWriteContext, mergeWriteContexts, writeContext, type WriteContext } from './audit-actor.ts';
import { appendAudit, newAuditBatch } from './audit-log.ts';
import { EntriesAhead, keepEntryVersion, type KeepBatch } from './version-keeping.ts';

const VERB: Record<string, [put: string, deleted: string]> = {
  attachment: ['attachment.put', 'attachment.deleted'],
  meta: ['meta.put', 'meta.deleted'],
  workflow: ['workflow.saved', 'workflow.deleted'],
  series: ['series.saved', 'series.deleted'],
  series_entry: ['series_entry.issued', 'series_entry.deleted'],
  // trusted signers are recorded as changes (they sync), so their audit row comes from here
  trusted_jwks: ['trusted-jwks.saved', 'trusted-jwks.deleted'],
};

/**
 * Every change the database records for sync (change-triggers.ts) is also put on
 * record here, in the same transaction: an entry's new version (version-keeping.ts)
 * and, for every kind, a row of the audit log with who made it and from where. The
 * transaction calls this once per record it changed, before it commits (db/sqlite-db.ts), so
 * no write can change a record without a trace.
 */
export async function keepRecordOf(db: Db, change: WrittenRecord, origin: string, batch?: KeepBatch): Promise<void> {
  const deleted = change.deleted;
  if (change.kind === 'entry') {
    // Nothing history tracks changed: the version kept last still is the entry as it stands.
    if (!keepsVersion(change)) return;
    await keepEntryVersion(db, change.record_id, change.company_id, origin, deleted, change.keptInside === true, batch);
    return;
  }
  const entryId = change.entry_id ?? undefined;
  const hint = currentAction(db);
  const [put, gone] = VERB[change.kind] ?? [`${change.kind}.put`, `${change.kind}.deleted`];
  const action = hint && change.kind === 'attachment' ? `attachment.${hint}` : deleted ? gone : put;
  await appendAudit(db, await currentActor(db, entryId ? { origin, companyKey: change.company_id, entryId } : { origin }), {
    company_id: change.company_id,
    action,
    target_kind: change.kind,
    target_id: change.record_id,
    ...(entryId ? { detail: { entry_id: entryId } } : {}),
  }, batch?.audit);
}

/** An entry's change keeps a version (or its deletion a row of the log), unless it changed nothing history tracks. */
const keepsVersion = (change: WrittenRecord): boolean => change.deleted || !(change.context as WriteContext | undefined)?.outsideHistory;

/**
 * What every transaction of the service does as it writes (db/write-scopes.ts): it
 * takes who each write is for, and before it commits puts each record it changed on
 * record, named as its write was.
 */
export function recordKeeping(db: Db): WriteHooks<WriteContext> {
  return {
    context: () => writeContext(db),
    merge: mergeWriteContexts,
    async keep(records, origin) {
      // Many records at once (an import's slice): their entries read together, the log's last link read once.
      const kept = records.filter((r) => r.kind === 'entry' && !r.deleted && keepsVersion(r));
      const batch: KeepBatch = { ahead: await EntriesAhead.of(db, kept.map((r) => ({ companyKey: r.company_id, entryId: r.record_id }))), audit: newAuditBatch() };
      // In their order, each in the context of its write: records written in one scope share one context, entered once.
      for (let from = 0; from < records.length; ) {
        const { context } = records[from];
        let to = from + 1;
        while (to < records.length && records[to].context === context) to++;
        const run = records.slice(from, to);
        await inWriteContext(db, context, async () => {
          for (const record of run) await keepRecordOf(db, record, origin, batch);
        });
        from = to;
      }
    },
  };
}
