import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';

/**
 * From the beginning of the remote's feed. `newRemote`: this company now syncs
 * with another instance, to which everything here is new; else the same remote
 * lost our cursor, and what we agreed on stays.
 */
export async function startFullPull(db: Db, companyId: string, newRemote: boolean): Promise<void> {
  await db.tx(async () => {
    if (newRemote) {
      await db.run(
        db.q.updateTable('sync_changes').set({ origin: 'local', remote_version: null, synced_version: null }).where('company_id', '=', companyId),
      );
    }
    await db.run(db.q.deleteFrom('sync_seen').where('company_id', '=', companyId));
    await db.run(db.q.updateTable('sync_config').set({ pull_cursor: null, full_pull: 1 }).where('company_id', '=', companyId));
  }, { origin: LOCAL });
}

/** Records the remote once held but no longer serves go back to it; then the full pull is over. */
export async function finishFullPull(db: Db, companyId: string): Promise<void> {
  await db.sqlRun(
    `UPDATE sync_changes SET origin = 'local', synced_version = NULL, remote_version = NULL
     WHERE company_id = ? AND remote_version IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.company_id = sync_changes.company_id
                       AND s.kind = sync_changes.kind AND s.record_id = sync_changes.record_id)`,
    [companyId],
  );
  await db.run(db.q.deleteFrom('sync_seen').where('company_id', '=', companyId));
  await db.run(db.q.updateTable('sync_config').set({ full_pull: 0 }).where('company_id', '=', companyId));
}
