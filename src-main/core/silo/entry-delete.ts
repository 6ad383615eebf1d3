import { ApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { asAction } from './audit-actor.ts';
import { dropSearchRow } from './derived-index.ts';
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
export async function deleteEntry(ctx: Ctx, row: EntryRow): Promise<void> {
  const { db } = ctx.service;
  // The row's own company throughout: another company's entry under the same id is not touched.
  const companyKey = row.company_id;
  const jobsOfEntry = db.q.selectFrom('jobs').where('company_id', '=', companyKey).where('silo_entry_id', '=', row.id);
  const running = await db.first(jobsOfEntry.select('id').where('completed_at', 'is', null));
  if (running) throw new ApiError('conflict', `entry ${row.id} has a job under way (${running.id}); it is deleted once the job ends`);
  await db.run(db.q.deleteFrom('intents').where('company_id', '=', companyKey).where('job_id', 'in', jobsOfEntry.select('id')));
  await db.run(db.q.deleteFrom('jobs').where('company_id', '=', companyKey).where('silo_entry_id', '=', row.id));
  await dropVersions(db, companyKey, row.id);
  await db.sqlRun('DELETE FROM trash_files WHERE company_id = ? AND entry_id = ?', [companyKey, row.id]);
  await dropSearchRow(db, row.seq);
  await asAction(db, 'purged', () => db.run(db.q.deleteFrom('entries').where('company_id', '=', companyKey).where('id', '=', row.id)));
}
