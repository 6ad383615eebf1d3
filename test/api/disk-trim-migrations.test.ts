import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely/migration';
import { describe, expect, inject, it } from 'vitest';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import type { Db } from '../../src-main/core/db/engine.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { pgMigrations } from '../../src-main/core/db/pg/migrate.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { numberKey } from '../../src-main/core/silo/sort-keys.ts';
import { storedSnippetText } from '../../src-main/core/silo/stored-snippet.ts';
import { freshDatabase } from '../support/pg-database.ts';

/**
 * Issue 13's migrations that make an entry smaller on disk, each from a database made
 * before it, on both engines. 0024 (PostgreSQL 0009): an entry's first state is implied
 * until its state changes (implied-first-state.ts); a database from before keeps the
 * states that say something and loses the rows the rule now implies, and entries after
 * it store none. 0025 (0010): the identities' uuid index, made again by mistake, goes.
 * 0026 (0011): likewise an entry's first version (implied-created-version.ts).
 */
const CREATED = '2026-01-01T00:00:00.000Z';

interface Engine {
  db: Db;
  /** migrates to the latest, from wherever the database stands */
  migrateRest(): Promise<void>;
  close(): Promise<void>;
}

async function sqliteBefore(cut: string): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-states-'));
  const sqlite = openSqlite(join(dir, 'silodesk.db'));
  const db = sqliteDb(sqlite);
  await migrateToLatest(sqlite, db.q, join(dir, 'backups'), Object.fromEntries(Object.entries(migrations).filter(([name]) => name < cut)));
  return {
    db,
    migrateRest: async () => void (await migrateToLatest(sqlite, db.q, join(dir, 'backups'))),
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBefore(cut: string): Promise<Engine> {
  const database = await freshDatabase(inject('pgUrl'));
  const db = pgDb(database.url);
  const upTo = (last: string) => new Migrator({ db: db.q, provider: { getMigrations: async () => Object.fromEntries(Object.entries(pgMigrations).filter(([name]) => name <= last)) } });
  const migrate = async (last: string) => {
    const { error } = await upTo(last).migrateToLatest();
    if (error) throw error;
  };
  await migrate(String(Number(cut) - 1).padStart(4, '0'));
  return {
    db,
    migrateRest: () => migrate('9999'),
    async close() {
      await db.close();
      await database.drop();
    },
  };
}

/**
 * Company c1's rows are stored under 'c1' until 0031_company_keys (PostgreSQL 0013), which every
 * migrateRest runs too: from then on under the key it gave the company whose public id is c1.
 */
const keyOfC1 = async (db: Db): Promise<string> => (await companyKeyOf(db, 'c1'))!;
const insertEntry = (db: Db, id: string, company = 'c1') =>
  db.tx(
    () =>
      db.sqlRun(
        `INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg,
           digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at)
         VALUES (?, ?, NULL, 'sales', 'draft', '', 1, 0, 0, 'x', NULL, 'x', 'sha256', ?, '{}', '[]', '[]', '{}', '', 1, ?, ?)`,
        [id, company, id, CREATED, CREATED],
      ),
    { origin: 'local' },
  );
const setState = (db: Db, id: string, state: string, at: string, company = 'c1') =>
  db.tx(() => db.sqlRun(`UPDATE entries SET state = ?, updated_at = ? WHERE company_id = ? AND id = ?`, [state, at, company, id]), { origin: 'local' });
const states = (db: Db) => db.sql<{ entry_id: string; key: string; at: string; src: string }>(`SELECT entry_id, key, at, src FROM entry_states ORDER BY entry_id, at, seq`);

/** Each engine, migrated up to (not including) the migration each names. */
const ENGINES: Array<[string, (cut: { sqlite: string; postgres: string }) => Promise<Engine>]> = [
  ['sqlite', (cut) => sqliteBefore(cut.sqlite)],
  ['postgres', (cut) => postgresBefore(cut.postgres)],
];

describe.each(ENGINES)('an entry’s first state and version, implied, on %s', (_name, before) => {
  const open = () => before({ sqlite: '0024', postgres: '0009' });
  it('goes from a database made before where nothing followed it, stays where something did, and is not stored for new entries', async () => {
    const engine = await open();
    const { db } = engine;
    try {
      await db.sql(`INSERT INTO companies (id, name, created_at, updated_at) VALUES ('c1', 'C', ?, ?)`, [CREATED, CREATED]);
      for (const id of ['e1', 'e2', 'e3']) await insertEntry(db, id);
      await setState(db, 'e2', 'sent', '2026-01-02T00:00:00.000Z');
      // A state recorded through the API, at the first state's own time and key: not the implied one.
      await db.tx(() => db.sqlRun(`INSERT INTO entry_states (entry_id, company_id, at, key, src, notes) VALUES ('e3', 'c1', ?, 'draft', 'api', 'seen')`, [CREATED]), { origin: 'local' });
      expect((await states(db)).map((s) => s.entry_id)).toEqual(['e1', 'e2', 'e2', 'e3', 'e3']);

      await engine.migrateRest();
      expect(await states(db)).toEqual([
        { entry_id: 'e2', key: 'draft', at: CREATED, src: 'silo' },
        { entry_id: 'e2', key: 'sent', at: '2026-01-02T00:00:00.000Z', src: 'silo' },
        { entry_id: 'e3', key: 'draft', at: CREATED, src: 'silo' },
        { entry_id: 'e3', key: 'draft', at: CREATED, src: 'api' },
      ]);

      const c1 = await keyOfC1(db);
      await insertEntry(db, 'e4', c1);
      expect((await states(db)).filter((s) => s.entry_id === 'e4')).toEqual([]);
      await setState(db, 'e4', 'draft', '2026-01-03T00:00:00.000Z', c1);
      expect((await states(db)).filter((s) => s.entry_id === 'e4')).toEqual([]);
      await setState(db, 'e4', 'paid', '2026-01-04T00:00:00.000Z', c1);
      await setState(db, 'e4', 'archived', '2026-01-05T00:00:00.000Z', c1);
      expect((await states(db)).filter((s) => s.entry_id === 'e4').map((s) => [s.key, s.at])).toEqual([
        ['draft', CREATED],
        ['paid', '2026-01-04T00:00:00.000Z'],
        ['archived', '2026-01-05T00:00:00.000Z'],
      ]);
    } finally {
      await engine.close();
    }
  });

  it('drops a first version the entry and the log imply, and keeps one that says more', async () => {
    const engine = await before({ sqlite: '0026', postgres: '0011' });
    const { db } = engine;
    const version = (id: string, v: number, action: string, state: string, actorId: string, data: string | null) =>
      db.sqlRun(
        `INSERT INTO entry_versions (entry_id, version, company_id, action, changed, state, folder, tags, key, digest, signed, invalid, trashed, data,
           reverted_from, via, actor_id, actor_name, at) VALUES (?, ?, 'c1', ?, '[]', ?, 'sales', '[]', NULL, ?, 0, 0, 0, ?, NULL, 'http', ?, 'clerk', ?)`,
        [id, v, action, state, id, data, actorId, CREATED],
      );
    const logged = (id: string, action: string, v: string) =>
      db.sqlRun(
        `INSERT INTO audit_log (company_id, at, via, actor_id, actor_name, operation, action, target_kind, target_id, detail, hash)
         VALUES ('c1', ?, 'http', 't1', 'clerk', NULL, ?, 'entry', ?, ?, 'h')`,
        [CREATED, action, id, JSON.stringify({ version: v })],
      );
    try {
      await db.sql(`INSERT INTO companies (id, name, created_at, updated_at) VALUES ('c1', 'C', ?, ?)`, [CREATED, CREATED]);
      for (const id of ['e1', 'e2', 'e3', 'e4']) await insertEntry(db, id);
      await db.tx(async () => {
        // e1: never changed; e2: changed since; e3: its row names another maker than the log; e4: the log's last word is a purge.
        await version('e1', 1, 'created', 'draft', 't1', null);
        await logged('e1', 'entry.created', '1');
        await version('e2', 1, 'created', 'draft', 't1', '{"old":true}');
        await version('e2', 2, 'changed', 'draft', 't1', null);
        await logged('e2', 'entry.created', '1');
        await version('e3', 1, 'created', 'draft', 't2', null);
        await logged('e3', 'entry.created', '1');
        await version('e4', 1, 'created', 'draft', 't1', null);
        await logged('e4', 'entry.created', '1');
        await logged('e4', 'entry.purged', '1');
      }, { origin: 'local' });
      await engine.migrateRest();
      const kept = await db.sql<{ entry_id: string; version: number }>(`SELECT entry_id, version FROM entry_versions ORDER BY entry_id, version`);
      expect(kept.map((r) => [r.entry_id, Number(r.version)])).toEqual([['e2', 1], ['e2', 2], ['e3', 1], ['e4', 1]]);

      // e1 changes: its first version is stored again from the entry as it was and the log's row, with the document it replaces.
      const c1 = await keyOfC1(db);
      await db.tx(() => db.sqlRun(`UPDATE entries SET folder = 'filed', data = '{"new":true}' WHERE company_id = ? AND id = 'e1'`, [c1]), { origin: 'local' });
      const first = await db.sql<Record<string, unknown>>(`SELECT version, action, folder, actor_id, data FROM entry_versions WHERE entry_id = 'e1'`);
      expect(first.map((r) => ({ ...r, version: Number(r.version), data: String(r.data) }))).toEqual([
        { version: 1, action: 'created', folder: 'sales', actor_id: 't1', data: '{}' },
      ]);
    } finally {
      await engine.close();
    }
  });

  it('drops the identities’ uuid index 0015 made again, and finds a document by its uuid through the entries', async () => {
    const engine = await before({ sqlite: '0025', postgres: '0010' });
    const { db } = engine;
    try {
      const indexes = async () =>
        (db.dialect === 'sqlite'
          ? await db.sql<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entry_identities' ORDER BY name`)
          : await db.sql<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'entry_identities' ORDER BY indexname`)
        ).map((r) => r.name);
      expect(await indexes()).toContain('entry_identities_uuid');
      await engine.migrateRest();
      expect(await indexes()).not.toContain('entry_identities_uuid');
      expect(await indexes()).toContain('entry_identities_code');
      const plan = db.dialect === 'sqlite' ? await db.sql<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT id FROM entries WHERE company_id = ? AND doc_uuid = ?`, ['c1', 'u']) : [];
      if (db.dialect === 'sqlite') expect(plan.map((p) => p.detail).join(' ')).toMatch(/entries_company_doc_uuid/);
    } finally {
      await engine.close();
    }
  });
});

describe.each(ENGINES)('identities keyed by their entry’s seq (0033), on %s', (_name, before) => {
  it('carries every identity over to its entry’s seq, finds it by code, and lets it go with its entry', async () => {
    const engine = await before({ sqlite: '0033', postgres: '0015' });
    const { db } = engine;
    try {
      // Rows are under company keys by then (0031): c1's is 1.
      await db.sql(`INSERT INTO companies (id, uuid, name, created_at, updated_at) VALUES ('1', 'c1', 'C', ?, ?)`, [CREATED, CREATED]);
      await insertEntry(db, 'e1', '1');
      await insertEntry(db, 'e2', '1');
      await db.tx(async () => {
        for (const [id, code] of [['e1', 'FV-1'], ['e2', null]]) {
          await db.sqlRun(
            `INSERT INTO entry_identities (entry_id, company_id, type, uuid, series, code, issue_date) VALUES (?, '1', 'bill/invoice', NULL, 'FV', ?, '2026-01-01')`,
            [id, code],
          );
        }
      }, { origin: 'local' });
      await engine.migrateRest();
      const company = await keyOfC1(db);
      const rows = await db.sql<Record<string, unknown>>(
        `SELECT e.id, i.company_id, i.type, i.series, i.code, i.issue_date FROM entry_identities i JOIN entries e ON e.seq = i.seq ORDER BY e.id`,
      );
      expect(rows).toEqual([
        { id: 'e1', company_id: company, type: 'bill/invoice', series: 'FV', code: 'FV-1', issue_date: '2026-01-01' },
        { id: 'e2', company_id: company, type: 'bill/invoice', series: 'FV', code: null, issue_date: '2026-01-01' },
      ]);
      const byCode = await db.sql<{ id: string }>(
        'SELECT e.id FROM entry_identities i JOIN entries e ON e.seq = i.seq WHERE i.company_id = ? AND i.code = ?',
        [company, 'FV-1'],
      );
      expect(byCode).toEqual([{ id: 'e1' }]);
      // an entry deleted takes its identity with it
      await db.tx(() => db.sqlRun(`DELETE FROM entries WHERE company_id = ? AND id = 'e1'`, [company]), { origin: 'local' });
      expect((await db.sql('SELECT seq FROM entry_identities')).length).toBe(1);
    } finally {
      await engine.close();
    }
  });
});

describe.each(ENGINES)('number keys with digit runs led by their length (0034), on %s', (_name, before) => {
  it('turns every padded key into the one the number now makes, a page at a time, recording no change', async () => {
    const engine = await before({ sqlite: '0034', postgres: '0016' });
    const { db } = engine;
    try {
      await db.sql(`INSERT INTO companies (id, uuid, name, created_at, updated_at) VALUES ('1', 'c1', 'C', ?, ?)`, [CREATED, CREATED]);
      // More than a page (2,000) of keys, as 0009–0033 padded them; one entry without a number.
      const numbers = Array.from({ length: 2300 }, (_, i) => `FV-${(i * 7919) % 2300}/2026`);
      const padded = (n: string) => n.toLowerCase().replace(/\d+/g, (run) => run.padStart(20, '0'));
      await db.tx(async () => {
        for (const [i, n] of numbers.entries()) {
          await db.sqlRun(
            `INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg,
               digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at, number_key)
             VALUES (?, '1', NULL, 'sales', 'draft', '', 1, 0, 0, 'x', NULL, 'x', 'sha256', 'd', '{}', '[]', '[]', '{}', '', 1, ?, ?, ?)`,
            [`e${i}`, CREATED, CREATED, padded(n)],
          );
        }
      }, { origin: 'local' });
      await insertEntry(db, 'none', '1');
      const changesBefore = (await db.sql('SELECT seq FROM sync_changes')).length;
      await engine.migrateRest();
      const rows = await db.sql<{ id: string; number_key: string | null }>(`SELECT id, number_key FROM entries`);
      const byId = new Map(rows.map((r) => [r.id, r.number_key]));
      for (const [i, n] of numbers.entries()) expect(byId.get(`e${i}`)).toBe(numberKey(n));
      expect(byId.get('none')).toBeNull();
      expect(byId.get('e1')).toBe('fv-041019/042026');
      // A derived column: no change is recorded for sync.
      expect((await db.sql('SELECT seq FROM sync_changes')).length).toBe(changesBefore);
    } finally {
      await engine.close();
    }
  });
});

describe.each(ENGINES)('change rows without their time (0035), on %s', (_name, before) => {
  it('drops the column and keeps every change, and the triggers go on recording them', async () => {
    const engine = await before({ sqlite: '0035', postgres: '0017' });
    const { db } = engine;
    const changes = async () =>
      (await db.sql<{ seq: number; record_id: string; version: number; deleted: number }>(`SELECT seq, record_id, version, deleted FROM sync_changes ORDER BY seq`))
        .map((r) => [r.record_id, Number(r.version), Number(r.deleted)]);
    const columns = async () =>
      db.dialect === 'sqlite'
        ? (await db.sql<{ name: string }>(`SELECT name FROM pragma_table_info('sync_changes')`)).map((r) => r.name)
        : (await db.sql<{ name: string }>(`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'sync_changes'`)).map((r) => r.name);
    try {
      await db.sql(`INSERT INTO companies (id, uuid, name, created_at, updated_at) VALUES ('1', 'c1', 'C', ?, ?)`, [CREATED, CREATED]);
      await insertEntry(db, 'e1', '1');
      await insertEntry(db, 'e2', '1');
      expect(await columns()).toContain('at');
      expect((await db.sql<{ at: string }>(`SELECT at FROM sync_changes`)).every((r) => typeof r.at === 'string' && r.at.length === 24)).toBe(true);

      await engine.migrateRest();
      expect(await columns()).not.toContain('at');
      expect(await changes()).toEqual([['e1', 1, 0], ['e2', 1, 0]]);
      // A later write moves the record to a new seq, one version up; two writes in one transaction are one change.
      await setState(db, 'e1', 'sent', '2026-01-02T00:00:00.000Z', '1');
      await db.tx(async () => {
        await db.sqlRun(`UPDATE entries SET folder = 'filed' WHERE id = 'e2'`);
        await db.sqlRun(`UPDATE entries SET state = 'paid' WHERE id = 'e2'`);
      }, { origin: 'local' });
      await insertEntry(db, 'e3', '1');
      await db.tx(() => db.sqlRun(`DELETE FROM entries WHERE id = 'e3'`), { origin: 'local' });
      expect(await changes()).toEqual([['e1', 2, 0], ['e2', 2, 0], ['e3', 2, 1]]);
      // No origin in force: refused, as before.
      await expect(db.sqlRun(`UPDATE entries SET folder = 'x' WHERE id = 'e1'`)).rejects.toThrow(/outside a transaction with an origin/);
    } finally {
      await engine.close();
    }
  });
});

describe('snippets stored packed (0029), on sqlite', () => {
  const sums = (db: Db, company = 'c1') => db.sql<{ state: string; entries: number; net_e4: number; total_e4: number; net_s2: number }>(
    `SELECT state, entries, net_e4, total_e4, net_s2 FROM entry_sums WHERE company_id = ? ORDER BY state`,
    [company],
  );
  const withSnippet = (db: Db, id: string, snippet: string, company = 'c1') =>
    db.tx(async () => {
      await insertEntry(db, id, company);
      await db.sqlRun(`UPDATE entries SET snippet = ? WHERE company_id = ? AND id = ?`, [snippet, company, id]);
    }, { origin: 'local' });
  const members = { title: 'Invoice A-1', type: 'standard', code: 'A-1', currency: 'EUR', total: '12.10', sum: '10.00', net: '10.00', tax: '2.10', payable: '12.10' };

  it('keeps the sums of rows stored as objects before, and adds and moves packed ones alike', async () => {
    const engine = await sqliteBefore('0029');
    const { db } = engine;
    try {
      await db.sql(`INSERT INTO companies (id, name, created_at, updated_at) VALUES ('c1', 'C', ?, ?)`, [CREATED, CREATED]);
      await withSnippet(db, 'old', JSON.stringify(members));
      const before = await sums(db);
      expect(before).toEqual([{ state: 'draft', entries: 1, net_e4: 100_000, total_e4: 121_000, net_s2: 1 }]);

      await engine.migrateRest();
      const c1 = await keyOfC1(db);
      const packed = storedSnippetText(members, 'sqlite');
      expect(packed.startsWith('[1,')).toBe(true);
      // The same members, packed: the row's sums stay as they were.
      await db.tx(() => db.sqlRun(`UPDATE entries SET snippet = ? WHERE id = 'old'`, [packed]), { origin: 'local' });
      expect(await sums(db, c1)).toEqual(before);
      await withSnippet(db, 'new', packed, c1);
      expect(await sums(db, c1)).toEqual([{ state: 'draft', entries: 2, net_e4: 200_000, total_e4: 242_000, net_s2: 2 }]);
      await setState(db, 'new', 'sent', '2026-01-02T00:00:00.000Z', c1);
      expect(await sums(db, c1)).toEqual([...before, { state: 'sent', entries: 1, net_e4: 100_000, total_e4: 121_000, net_s2: 1 }]);
    } finally {
      await engine.close();
    }
  });
});
