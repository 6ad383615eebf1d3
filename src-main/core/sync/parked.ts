import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { ErrorBody } from '../api/errors.ts';
import { notFound } from '../api/errors.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import type { SyncKind } from './change-log.ts';
import type { CompanyKey } from '../access/company-key.ts';

export type Direction = 'push' | 'pull';

/** The record a parked change is about: its kind and id as sync names it; a pushed child's entry beside them. */
export interface ParkedRecord {
  kind: SyncKind;
  id: string;
  entryId?: string | null;
}

/**
 * A change refused as invalid is set aside with its error, and the sync goes on
 * with the others. It stays listed until someone retries it or the record
 * changes again (a pushed change parked at version N does not hold back N+1).
 */
export async function park(db: Db, companyKey: CompanyKey, direction: Direction, record: ParkedRecord, version: number, error: ErrorBody): Promise<void> {
  const text = JSON.stringify({ key: error.key, message: error.message, ...(error.fields ? { fields: error.fields } : {}) });
  const entryId = direction === 'push' ? (record.entryId ?? null) : null;
  await db.run(
    db.q
      .insertInto('sync_parked')
      .values({ id: uuidv7(), company_id: companyKey, direction, kind: record.kind, record_id: record.id, entry_id: entryId, version, error: text, parked_at: nowIso(), retry: 0 })
      .onConflict((oc) =>
        oc.columns(['company_id', 'direction', 'kind', 'record_id']).doUpdateSet({ version, error: text, parked_at: nowIso(), retry: 0 }),
      ),
  );
}

export async function unpark(db: Db, companyKey: CompanyKey, direction: Direction, kind: SyncKind, recordId: string): Promise<void> {
  await db.run(
    db.q
      .deleteFrom('sync_parked')
      .where('company_id', '=', companyKey)
      .where('direction', '=', direction)
      .where('kind', '=', kind)
      .where('record_id', '=', recordId),
  );
}

/**
 * An entry the remote deleted takes its files and meta with it: pushes of those
 * that were refused because the entry was already gone there are moot (what they
 * held is kept on the conflict copy), and no longer wait as errors.
 */
export async function unparkChildPushes(db: Db, companyKey: CompanyKey, entryId: string): Promise<void> {
  await db.sqlRun(`DELETE FROM sync_parked WHERE company_id = ? AND entry_id = ? AND direction = 'push'`, [companyKey, entryId]);
}

export async function listParked(db: Db, companyKey: CompanyKey) {
  const rows = await db.all(db.q.selectFrom('sync_parked').selectAll().where('company_id', '=', companyKey).orderBy('parked_at').orderBy('id'));
  return rows.map((r) => ({
    id: r.id,
    direction: r.direction as Direction,
    kind: r.kind as SyncKind,
    record_id: r.record_id,
    version: r.version,
    error: JSON.parse(r.error) as { key: string; message: string; fields?: Record<string, string> },
    parked_at: r.parked_at,
  }));
}

export async function parkedCount(db: Db, companyKey: CompanyKey): Promise<number> {
  return (await db.first(db.q.selectFrom('sync_parked').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', companyKey)))!.n;
}

/** A pushed change goes back in the outbox at once; a pulled one is fetched again at the next sync. */
export async function retryParked(db: Db, companyKey: CompanyKey, id: string): Promise<{ retried: boolean }> {
  const row = await db.first(db.q.selectFrom('sync_parked').selectAll().where('id', '=', id).where('company_id', '=', companyKey));
  if (!row) throw notFound(`parked change ${id}`);
  if (row.direction === 'push') await db.run(db.q.deleteFrom('sync_parked').where('id', '=', id));
  else await db.run(db.q.updateTable('sync_parked').set({ retry: 1 }).where('id', '=', id));
  return { retried: true };
}

export async function pullRetries(db: Db, companyKey: CompanyKey) {
  return await db.all(
    db.q.selectFrom('sync_parked').selectAll().where('company_id', '=', companyKey).where('direction', '=', 'pull').where('retry', '=', 1),
  );
}
