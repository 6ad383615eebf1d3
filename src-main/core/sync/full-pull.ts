import type { Store } from '../db/store.ts';
import { LOCAL } from '../db/write-scopes.ts';

/**
 * From the beginning of the remote's feed. `newRemote`: this company now syncs
 * with another instance, to which everything here is new; else the same remote
 * lost our cursor, and what we agreed on stays.
 */
export function startFullPull(store: Store, companyId: string, newRemote: boolean): void {
  store.tx(() => {
    if (newRemote) {
      store.run(
        store.q.updateTable('sync_changes').set({ origin: 'local', remote_version: null, synced_version: null }).where('company_id', '=', companyId),
      );
    }
    store.run(store.q.deleteFrom('sync_seen').where('company_id', '=', companyId));
    store.run(store.q.updateTable('sync_config').set({ pull_cursor: null, full_pull: 1 }).where('company_id', '=', companyId));
  }, { origin: LOCAL });
}

/** Records the remote once held but no longer serves go back to it; then the full pull is over. */
export function finishFullPull(store: Store, companyId: string): void {
  store
    .statement(
      `UPDATE sync_changes SET origin = 'local', synced_version = NULL, remote_version = NULL
       WHERE company_id = ? AND remote_version IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.company_id = sync_changes.company_id
                         AND s.kind = sync_changes.kind AND s.record_id = sync_changes.record_id)`,
    )
    .run(companyId);
  store.run(store.q.deleteFrom('sync_seen').where('company_id', '=', companyId));
  store.run(store.q.updateTable('sync_config').set({ full_pull: 0 }).where('company_id', '=', companyId));
}
