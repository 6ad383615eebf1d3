import type { Store } from '../db/store.ts';
import { currentAction, currentActor } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
import { keepEntryVersion } from './history.ts';

/** A record change as the change log sees it (change-log.ts ChangeRef). */
export interface RecordChange {
  company_id: string;
  kind: string;
  record_id: string;
  deleted?: boolean;
}

/** The entry a child record's id names (`entry-id:file-id`, `entry-id:src:key`). */
const entryOfChild = (recordId: string): string => recordId.slice(0, recordId.indexOf(':'));

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
 * Every change a write path records for sync is also put on record here, in the same
 * transaction: an entry's new version (history.ts) and, for every kind, a row of the
 * audit log with who made it and from where. The change log calls this for every
 * change, whichever path wrote it, so no write can change a record without a trace.
 */
export function keepRecordOf(store: Store, change: RecordChange, origin: string | null): void {
  const deleted = change.deleted === true;
  if (change.kind === 'entry') {
    keepEntryVersion(store, change.record_id, change.company_id, origin, deleted);
    return;
  }
  const child = change.kind === 'attachment' || change.kind === 'meta';
  const entryId = child ? entryOfChild(change.record_id) : undefined;
  const hint = currentAction(store);
  const [put, gone] = VERB[change.kind] ?? [`${change.kind}.put`, `${change.kind}.deleted`];
  const action = hint && change.kind === 'attachment' ? `attachment.${hint}` : deleted ? gone : put;
  appendAudit(store, currentActor(store, entryId ? { origin, companyId: change.company_id, entryId } : { origin }), {
    company_id: change.company_id,
    action,
    target_kind: change.kind,
    target_id: change.record_id,
    ...(entryId ? { detail: { entry_id: entryId } } : {}),
  });
}
