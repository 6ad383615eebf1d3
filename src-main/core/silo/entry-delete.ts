import { ApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { asAction } from './audit-actor.ts';
import type { EntryRow } from './entry-view.ts';
import { dropVersions } from './history.ts';

/**
 * Removes an entry with everything that hangs on it (attachment rows, meta,
 * mentions, its search row, finished jobs, its versions and trashed files). The
 * attachment bytes stay in the content store. Refused while a job is working on the
 * entry. Only a purge of the trash comes here (trash-purge.ts, or a purge synced):
 * history and the audit log say so. Its files and meta go with it (ON DELETE
 * CASCADE) and are no changes of their own: the entry's deletion says it. In the
 * caller's transaction.
 */
export function deleteEntry(ctx: Ctx, row: EntryRow): void {
  const { store } = ctx.service;
  // The row's own company throughout: another company's entry under the same id is not touched.
  const companyId = row.company_id;
  const jobsOfEntry = store.q.selectFrom('jobs').where('company_id', '=', companyId).where('silo_entry_id', '=', row.id);
  const running = store.first(jobsOfEntry.select('id').where('completed_at', 'is', null));
  if (running) throw new ApiError('conflict', `entry ${row.id} has a job under way (${running.id}); it is deleted once the job ends`);
  store.run(store.q.deleteFrom('intents').where('company_id', '=', companyId).where('job_id', 'in', jobsOfEntry.select('id')));
  store.run(store.q.deleteFrom('jobs').where('company_id', '=', companyId).where('silo_entry_id', '=', row.id));
  dropVersions(store, companyId, row.id);
  store.statement('DELETE FROM trash_files WHERE company_id = ? AND entry_id = ?').run(companyId, row.id);
  store.statement('DELETE FROM entries_fts WHERE rowid = ?').run(row.seq);
  asAction(store, 'purged', () => store.run(store.q.deleteFrom('entries').where('company_id', '=', companyId).where('id', '=', row.id)));
}
