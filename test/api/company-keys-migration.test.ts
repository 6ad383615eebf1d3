import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { Migrator } from 'kysely/migration';
import { describe, expect, inject, it } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import type { Sqlite } from '../../src-main/core/db/connection.ts';
import { pgMigrations } from '../../src-main/core/db/pg/migrate.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import { IMPLIED_CREATED_VERSION } from '../../src-main/core/silo/implied-created-version.ts';
import { startHttpServer, type RunningServer } from '../../src-main/http/server.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { oneLineInvoice } from './gobl-helpers.ts';

/**
 * Migration 0031 (PostgreSQL 0013): an install's rows move from each company's public id
 * to a short key (access/company-key.ts). An install made today is taken back to how the
 * rows stood before (every company_id the public id again, no `uuid` column, 0031 and
 * the migrations after it not applied), opened again, and must answer every read as it
 * did: lists, entries, search, counts, series, tokens, the audit log (its chain still
 * verifies) and the sync feed (a cursor handed out before still works, and nothing was
 * logged as changed).
 */

type Call = (token: string, method: string, path: string, body?: unknown) => Promise<any>;

async function serve(dir: string): Promise<{ service: Service; server: RunningServer; call: Call }> {
  const service = await openService(dir, { runJobs: false, autoSync: false });
  const server = await startHttpServer(service, { host: '127.0.0.1', port: 0 });
  const call: Call = async (token, method, path, body) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  return { service, server, call };
}

/** Every read the test compares, for one company's owner token. */
async function reads(call: Call, token: string, entryIds: string[], seriesId: string) {
  return {
    entries: await call(token, 'GET', '/silo/v1/entries?limit=50'),
    byDate: await call(token, 'GET', '/silo/v1/entries?limit=10&sort=issue_date'),
    one: await Promise.all(entryIds.map((id) => call(token, 'GET', `/silo/v1/entries/${id}`))),
    search: await call(token, 'GET', '/silo/v1/search?q=KEYS'),
    folders: await call(token, 'GET', '/silo/v1/folders'),
    series: await call(token, 'GET', `/sequence/v1/series/${seriesId}/entries`),
    tokens: await call(token, 'GET', '/access/v1/tokens'),
    session: await call(token, 'GET', '/access/v1/session'),
    workspace: await call(token, 'GET', '/access/v1/workspace'),
    orgs: await call(token, 'GET', '/access/v1/orgs'),
    companies: await call(token, 'GET', '/access/v1/companies'),
    enrollments: await call(token, 'GET', '/access/v1/enrollments'),
    audit: await call(token, 'GET', '/silo/v1/audit?limit=100'),
    verified: await call(token, 'GET', '/silo/v1/audit/verify'),
    feed: await call(token, 'GET', '/sync/v1/changes?limit=100'),
  };
}

/** The rows as they stood before 0031: every company_id the company's public id, and the companies keyed by it. */
function backToPublicIds(sqlite: Sqlite): void {
  sqlite.pragma('foreign_keys = OFF');
  sqlite.unsafeMode(true);
  // The triggers to make again, but for the actors table's and the sums' move: 0038 and 0040 make them anew (below).
  const triggers = sqlite.prepare(`SELECT name, sql, tbl_name FROM sqlite_master WHERE type = 'trigger'`).all() as Array<{ name: string; sql: string; tbl_name: string }>;
  for (const t of triggers) sqlite.exec(`DROP TRIGGER "${t.name}"`);
  const tables = sqlite
    .prepare(`SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'company_id')`)
    .pluck()
    .all() as string[];
  for (const table of tables) sqlite.exec(`UPDATE "${table}" SET company_id = (SELECT uuid FROM companies c WHERE c.id = "${table}".company_id)`);
  sqlite.exec(`CREATE TABLE companies_old (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL) STRICT`);
  sqlite.exec(`INSERT INTO companies_old SELECT uuid, name, created_at, updated_at FROM companies`);
  sqlite.exec('DROP TABLE companies');
  sqlite.exec('ALTER TABLE companies_old RENAME TO companies');
  // And the identities as they were keyed before 0033 (by company and entry id).
  sqlite.exec(`CREATE TABLE entry_identities_old (
      entry_id TEXT NOT NULL, company_id TEXT NOT NULL, type TEXT, uuid TEXT, series TEXT, code TEXT, issue_date TEXT,
      PRIMARY KEY (company_id, entry_id), FOREIGN KEY (company_id, entry_id) REFERENCES entries(company_id, id) ON DELETE CASCADE
    ) STRICT, WITHOUT ROWID`);
  sqlite.exec(`INSERT INTO entry_identities_old SELECT e.id, i.company_id, i.type, NULL, i.series, i.code, i.issue_date
    FROM entry_identities i JOIN entries e ON e.seq = i.seq`);
  sqlite.exec('DROP TABLE entry_identities');
  sqlite.exec('ALTER TABLE entry_identities_old RENAME TO entry_identities');
  sqlite.exec('CREATE INDEX entry_identities_code ON entry_identities(company_id, code) WHERE code IS NOT NULL');
  // The log's actors in its rows, as before 0038, which runs again.
  sqlite.exec(`UPDATE audit_log SET actor_id = a.actor_id, actor_name = a.actor_name, operation = nullif(a.operation, '')
    FROM audit_actors a WHERE a.key = audit_log.actor`);
  sqlite.exec('ALTER TABLE audit_log DROP COLUMN actor');
  sqlite.exec('DROP TABLE audit_actors');
  for (const t of triggers) {
    if (t.tbl_name === 'audit_actors') continue;
    // 0040, which runs again, makes the sums' move trigger
    if (t.name === 'entries_sums_move') continue;
    sqlite.exec(t.name === 'entries_keep_created' ? IMPLIED_CREATED_VERSION[0] : t.sql);
  }
  // The change rows' time, which 0035 drops when it runs again (0036 and 0037 only make indexes anew).
  sqlite.exec(`ALTER TABLE sync_changes ADD COLUMN at TEXT NOT NULL DEFAULT ''`);
  sqlite.exec(`DELETE FROM kysely_migration WHERE name >= '0031'`);
  sqlite.unsafeMode(false);
  sqlite.pragma('foreign_keys = ON');
}

describe('migration 0031_company_keys (SQLite)', () => {
  it('moves every row to its company key; every answer, the audit chain and the feed read as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-keys-'));
    try {
      // ── an install with two companies and some of everything
      let { service, server, call } = await serve(dir);
      const first = await ensureDefaultCompany(service.db);
      await ensureOwnerTokenFile(service.db, first, join(dir, 'api-token'));
      const ownerA = readFileSync(join(dir, 'api-token'), 'utf8').trim();
      const other = await call(ownerA, 'POST', '/access/v1/companies', { name: 'Client B' });
      const ownerB: string = other.owner_token;
      const ids = { A: [] as string[], B: [] as string[] };
      const series = { A: uuidv4(), B: uuidv4() };
      for (const [who, token] of [['A', ownerA], ['B', ownerB]] as const) {
        for (let i = 1; i <= 3; i++) ids[who].push((await call(token, 'POST', '/silo/v1/entries', { data: oneLineInvoice(`KEYS-${who}${i}`), tags: [`t${i}`] })).id);
        await call(token, 'PUT', `/sequence/v1/series/${series[who]}`, { name: `${who} sales`, code: who, prefix: `${who}-` });
        await call(token, 'PUT', `/sequence/v1/series/${series[who]}/entries/${uuidv4()}`, {});
        await call(token, 'POST', '/access/v1/tokens', { kind: 'user', name: `${who} clerk` });
      }
      const before = { A: await reads(call, ownerA, ids.A, series.A), B: await reads(call, ownerB, ids.B, series.B) };
      const cursor: string = before.A.feed.next_cursor;
      const sqlite = service.db.sqlite!;
      const changeLog = (db: Sqlite) => db.prepare('SELECT seq, kind, record_id, version, origin FROM sync_changes ORDER BY seq').all();
      const loggedBefore = changeLog(sqlite);
      expect(sqlite.prepare('SELECT DISTINCT company_id FROM entries ORDER BY 1').pluck().all()).toEqual(['1', '2']);

      // ── back to how the rows stood before keys, then opened again: 0031 runs
      await server.close();
      await service.close();
      const { openSqlite } = await import('../../src-main/core/db/connection.ts');
      const raw = openSqlite(join(dir, 'silodesk.db'));
      backToPublicIds(raw);
      expect(raw.prepare('SELECT DISTINCT company_id FROM entries ORDER BY 1').pluck().all()).toEqual([first.id, other.id].sort());
      raw.close();
      ({ service, server, call } = await serve(dir));
      const moved = service.db.sqlite!;

      expect(moved.prepare('SELECT id, uuid FROM companies ORDER BY id').all()).toEqual([
        { id: '1', uuid: first.id },
        { id: '2', uuid: other.id },
      ]);
      for (const table of ['entries', 'audit_log', 'sync_changes', 'tokens', 'series', 'series_entries', 'entry_identities']) {
        expect(moved.prepare(`SELECT DISTINCT company_id FROM ${table} ORDER BY 1`).pluck().all(), table).toEqual(['1', '2']);
      }
      expect(moved.pragma('foreign_key_check')).toEqual([]);
      // nothing was taken for a change: the change log is as it was
      expect(changeLog(moved)).toEqual(loggedBefore);

      const after = { A: await reads(call, ownerA, ids.A, series.A), B: await reads(call, ownerB, ids.B, series.B) };
      expect(after).toEqual(before);
      expect(after.A.verified).toMatchObject({ ok: true });
      expect(after.A.search.list.map((e: any) => e.id).sort()).toEqual([...ids.A].sort());

      // ── and the install goes on: a new entry is found, logged, chained and fed after the old cursor
      const added = (await call(ownerB, 'POST', '/silo/v1/entries', { data: oneLineInvoice('KEYS-B4') })).id;
      expect((await call(ownerB, 'GET', '/silo/v1/search?q=KEYS-B4')).list.map((e: any) => e.id)).toEqual([added]);
      expect((await call(ownerA, 'GET', '/silo/v1/search?q=KEYS-B4')).list).toEqual([]);
      expect(await call(ownerB, 'GET', '/silo/v1/audit/verify')).toMatchObject({ ok: true, count: before.B.verified.count + 1 });
      const addedA = (await call(ownerA, 'POST', '/silo/v1/entries', { data: oneLineInvoice('KEYS-A4') })).id;
      const next = await call(ownerA, 'GET', `/sync/v1/changes?cursor=${encodeURIComponent(cursor)}`);
      expect(next.company_id).toBe(first.id);
      expect(next.changes.map((c: any) => c.id)).toEqual([addedA]);
      expect(moved.prepare('SELECT company_id FROM entries WHERE id = ?').pluck().get(added)).toBe('2');
      await server.close();
      await service.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migration 0013_company_keys (PostgreSQL)', () => {
  it('moves every row to its company key, keeps every reference and trigger, and numbers new companies after', async () => {
    const database = await freshDatabase(inject('pgUrl'));
    const db = pgDb(database.url);
    try {
      const migrate = async (last: string) => {
        const provider = { getMigrations: async () => Object.fromEntries(Object.entries(pgMigrations).filter(([name]) => name <= last)) };
        const { error } = await new Migrator({ db: db.q, provider }).migrateToLatest();
        if (error) throw error;
      };
      await migrate('0012');
      const AT = '2026-01-01T00:00:00.000Z';
      const [a, b] = [uuidv4(), uuidv4()];
      await db.tx(async () => {
        for (const [id, name] of [[a, 'A'], [b, 'B']]) {
          await db.sqlRun('INSERT INTO companies (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, name, name === 'A' ? AT : '2026-01-02T00:00:00.000Z', AT]);
          await db.sqlRun(`INSERT INTO tokens (id, company_id, kind, name, hash, created_at) VALUES (?, ?, 'owner', 'o', ?, ?)`, [uuidv4(), id, `h${name}`, AT]);
          await db.sqlRun(
            `INSERT INTO audit_log (company_id, at, via, actor_id, actor_name, action, target_kind, target_id, detail, hash)
             VALUES (?, ?, 'http', 'x', 'X', 'token.created', 'token', 't', '{}', 'h')`,
            [id, AT],
          );
        }
      }, { origin: 'local' });
      await migrate('9999');

      expect(await db.sql('SELECT id, uuid FROM companies ORDER BY id')).toEqual([{ id: '1', uuid: a }, { id: '2', uuid: b }]);
      expect(await db.sql('SELECT company_id, hash FROM tokens ORDER BY company_id')).toEqual([{ company_id: '1', hash: 'hA' }, { company_id: '2', hash: 'hB' }]);
      expect((await db.sql('SELECT company_id FROM audit_log ORDER BY seq')).map((r) => r.company_id)).toEqual(['1', '2']);
      // the references are back: a token of no company is refused
      await expect(db.sqlRun(`INSERT INTO tokens (id, company_id, kind, name, hash, created_at) VALUES (?, '9', 'owner', 'o', 'h9', ?)`, [uuidv4(), AT])).rejects.toThrow(/foreign key/);
      // and so are the triggers: the audit log still refuses an update
      await expect(db.tx(() => db.sqlRun(`UPDATE audit_log SET detail = '{"x":1}'`), { origin: 'local' })).rejects.toThrow();
      const { createCompany } = await import('../../src-main/core/access/companies.ts');
      expect((await createCompany(db, 'C')).key).toBe('3');
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
