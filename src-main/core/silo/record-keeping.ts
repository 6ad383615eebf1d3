import type { Db } from '../db/engine.ts';
import type { WriteHooks, WrittenRecord } from '../db/write-scopes.ts';
import { currentAction, currentActor, inWriteContext, mergeWriteContexts, writeContext, type WriteContext } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
import { keepEntryVersion } from './version-keeping.ts';

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
export async function keepRecordOf(db: Db, change: WrittenRecord, origin: string): Promise<void> {
  const deleted = change.deleted;
  if (change.kind === 'entry') {
    // Nothing history tracks changed: the version kept last still is the entry as it stands.
    if (!deleted && (change.context as WriteContext | undefined)?.outsideHistory) return;
    await keepEntryVersion(db, change.record_id, change.company_id, origin, deleted, change.keptInside === true);
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
  });
}

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
      for (const record of records) await inWriteContext(db, record.context, () => keepRecordOf(db, record, origin));
    },
  };
}
