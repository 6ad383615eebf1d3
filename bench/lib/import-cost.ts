// What one core spends per imported entry, on a given database, split into GOBL's work
// (build or check, derive: prepareNewEntry) and the write (commitSlice in one
// transaction: the row, its derived rows, its change, history and audit), beside the
// raw insert floor: the very same rows, deleted again and written back with prepared
// statements in one transaction, nothing computed. CPU time of this process (the
// machine is shared; wall time would count other people's work). Run it on a copy of
// a dataset: every round adds a batch.
import { toApiError } from '../../src-main/core/api/errors.ts';
import type { Ctx } from '../../src-main/core/api/handler.ts';
import type { Service } from '../../src-main/core/service.ts';
import { commitSlice, type PreparedItem } from '../../src-main/core/silo/bulk-commit.ts';
import { searchRowOf } from '../../src-main/core/silo/derived-index.ts';
import { prepareNewEntry } from '../../src-main/core/silo/entries.ts';
import { companyToken } from '../../src-main/core/silo/scale-migration.ts';
import type { BenchEntry } from './entries.ts';
import { ownerOfCompany } from '../../src-main/core/access/company-key.ts';

export interface ImportCost {
  entries: number;
  /** CPU ms of GOBL and derivation (prepareNewEntry) */
  goblMs: number;
  /** CPU ms of writing (commitSlice and its commit) */
  writeMs: number;
  /** CPU ms of writing the same rows raw (and committing) */
  floorMs: number;
}

type Row = Record<string, unknown>;

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const insertSql = (table: string, row: Row) =>
  `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`;

// Every row an import writes for an entry, by the table it goes to (an entry_states row only once its state changes: none here).
const CAPTURED: Array<[table: string, select: string, remove: string]> = [
  ['entries', 'SELECT * FROM entries WHERE id IN (SELECT value FROM json_each(?)) ORDER BY seq', 'DELETE FROM entries WHERE id IN (SELECT value FROM json_each(?))'],
  ['mentions', 'SELECT * FROM mentions WHERE entry_id IN (SELECT value FROM json_each(?))', 'DELETE FROM mentions WHERE entry_id IN (SELECT value FROM json_each(?))'],
  [
    'entry_identities',
    'SELECT * FROM entry_identities WHERE seq IN (SELECT seq FROM entries WHERE id IN (SELECT value FROM json_each(?)))',
    'DELETE FROM entry_identities WHERE seq IN (SELECT seq FROM entries WHERE id IN (SELECT value FROM json_each(?)))',
  ],
  ['entry_refs', 'SELECT * FROM entry_refs WHERE entry_id IN (SELECT value FROM json_each(?))', 'DELETE FROM entry_refs WHERE entry_id IN (SELECT value FROM json_each(?))'],
  [
    'sync_changes',
    // not written again raw: the entries' insert trigger records the change (migration 0016), as in the product
    '',
    `DELETE FROM sync_changes WHERE kind = 'entry' AND record_id IN (SELECT value FROM json_each(?))`,
  ],
  ['entry_versions', 'SELECT * FROM entry_versions WHERE entry_id IN (SELECT value FROM json_each(?))', 'DELETE FROM entry_versions WHERE entry_id IN (SELECT value FROM json_each(?))'],
  ['entry_states', '', 'DELETE FROM entry_states WHERE entry_id IN (SELECT value FROM json_each(?))'],
  // Append-only: its rows stay, and the floor appends the same ones again (new seq, same hash).
  [
    'audit_log',
    `SELECT company_id, at, via, actor_id, actor_name, operation, actor, action, target_kind, target_id, detail, hash FROM audit_log
     WHERE target_kind = 'entry' AND target_id IN (SELECT value FROM json_each(?))`,
    '',
  ],
];

/** One round: import `batch` (timed in two parts), take what it wrote out again, write the same rows raw (timed). */
export async function importCostRound(service: Service, companyId: string, batch: BenchEntry[]): Promise<ImportCost> {
  const db = service.db.sqlite!;
  const ctx: Ctx = { service, caller: await ownerOfCompany(service.db, companyId) };

  const t0 = cpuMs();
  const prepared: PreparedItem[] = [];
  for (const [index, e] of batch.entries()) {
    try {
      prepared.push({ index, p: await prepareNewEntry(ctx, e.id, { data: e.data }) });
    } catch (err) {
      prepared.push({ index, error: toApiError(err).toBody() });
    }
  }
  const t1 = cpuMs();
  const results = await service.db.tx(() => commitSlice(ctx, prepared, 'store', new Map()), { origin: 'local' });
  const t2 = cpuMs();
  const failed = results.filter((r) => r.status !== 'created');
  if (failed.length > 0) throw new Error(`${failed.length} entries not created: ${JSON.stringify(failed[0])}`);

  // What was written, then out again (not timed).
  const ids = JSON.stringify(batch.map((e) => e.id));
  const rows = new Map<string, Row[]>();
  for (const [table, select] of CAPTURED) if (select) rows.set(table, db.prepare(select).all(ids) as Row[]);
  const bySeq = new Map(prepared.map((p) => [p.p!.id, p.p!]));
  const search = rows.get('entries')!.map((e) => [e.seq, ...searchRowOf(bySeq.get(String(e.id))!.doc, JSON.parse(String(e.tags))), companyToken(companyId)]);
  // Raw writes to synced tables run inside a write scope with its origin, as any transaction must (write-scopes.ts):
  // the data layer's transaction opens it; the statements in it are raw and synchronous.
  const raw = (fn: () => void) => service.db.tx(async () => fn(), { origin: 'local' });
  await raw(() => {
    for (const e of rows.get('entries')!) db.prepare('DELETE FROM entries_fts WHERE rowid = ?').run(e.seq);
    for (const [, , remove] of CAPTURED) if (remove) db.prepare(remove).run(ids);
  });

  const statements = [...rows].filter(([, list]) => list.length > 0).map(([table, list]) => ({ list, stmt: db.prepare(insertSql(table, list[0])) }));
  const fts = db.prepare('INSERT INTO entries_fts (rowid, title, body, company) VALUES (?, ?, ?, ?)');
  const t3 = cpuMs();
  await raw(() => {
    for (const { list, stmt } of statements) for (const r of list) stmt.run(Object.values(r));
    for (const r of search) fts.run(r);
  });
  const t4 = cpuMs();
  return { entries: batch.length, goblMs: t1 - t0, writeMs: t2 - t1, floorMs: t4 - t3 };
}
