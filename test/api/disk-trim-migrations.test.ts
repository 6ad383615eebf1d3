import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely/migration';
import { describe, expect, inject, it } from 'vitest';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import type { Db } from '../../src-main/core/db/engine.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { pgMigrations } from '../../src-main/core/db/pg/migrate.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { freshDatabase } from '../support/pg-database.ts';

/**
 * Issue 13's migrations that make an entry smaller on disk, each from a database made
 * before it, on both engines. 0024 (PostgreSQL 0009): an entry's first state is implied
 * until its state changes (implied-first-state.ts); a database from before keeps the
 * states that say something and loses the rows the rule now implies, and entries after
 * it store none. 0025 (0010): the identities' uuid index, made again by mistake, goes.
 */
const CREATED = '2026-01-01T00:00:00.000Z';

interface Engine {
  db: Db;
  /** migrates to the latest, from wherever the database stands */
  migrateRest(): Promise<void>;
  close(): Promise<void>;
}

async function sqliteBefore0024(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-states-'));
  const sqlite = openSqlite(join(dir, 'silodesk.db'));
  const db = sqliteDb(sqlite);
  await migrateToLatest(sqlite, db.q, join(dir, 'backups'), Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0024')));
  return {
    db,
    migrateRest: async () => void (await migrateToLatest(sqlite, db.q, join(dir, 'backups'))),
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBefore0009(): Promise<Engine> {
  const database = await freshDatabase(inject('pgUrl'));
  const db = pgDb(database.url);
  const upTo = (last: string) => new Migrator({ db: db.q, provider: { getMigrations: async () => Object.fromEntries(Object.entries(pgMigrations).filter(([name]) => name <= last)) } });
  const migrate = async (last: string) => {
    const { error } = await upTo(last).migrateToLatest();
    if (error) throw error;
  };
  await migrate('0008');
  return {
    db,
    migrateRest: () => migrate('9999'),
    async close() {
      await db.close();
      await database.drop();
    },
  };
}

const insertEntry = (db: Db, id: string) =>
  db.tx(
    () =>
      db.sqlRun(
        `INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg,
           digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at)
         VALUES (?, 'c1', NULL, 'sales', 'draft', '', 1, 0, 0, 'x', NULL, 'x', 'sha256', ?, '{}', '[]', '[]', '{}', '', 1, ?, ?)`,
        [id, id, CREATED, CREATED],
      ),
    { origin: 'local' },
  );
const setState = (db: Db, id: string, state: string, at: string) =>
  db.tx(() => db.sqlRun(`UPDATE entries SET state = ?, updated_at = ? WHERE company_id = 'c1' AND id = ?`, [state, at, id]), { origin: 'local' });
const states = (db: Db) => db.sql<{ entry_id: string; key: string; at: string; src: string }>(`SELECT entry_id, key, at, src FROM entry_states ORDER BY entry_id, at, seq`);

describe.each([
  ['sqlite', sqliteBefore0024],
  ['postgres', postgresBefore0009],
])('an entry’s first state, implied, on %s', (_name, open) => {
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

      await insertEntry(db, 'e4');
      expect((await states(db)).filter((s) => s.entry_id === 'e4')).toEqual([]);
      await setState(db, 'e4', 'draft', '2026-01-03T00:00:00.000Z');
      expect((await states(db)).filter((s) => s.entry_id === 'e4')).toEqual([]);
      await setState(db, 'e4', 'paid', '2026-01-04T00:00:00.000Z');
      await setState(db, 'e4', 'archived', '2026-01-05T00:00:00.000Z');
      expect((await states(db)).filter((s) => s.entry_id === 'e4').map((s) => [s.key, s.at])).toEqual([
        ['draft', CREATED],
        ['paid', '2026-01-04T00:00:00.000Z'],
        ['archived', '2026-01-05T00:00:00.000Z'],
      ]);
    } finally {
      await engine.close();
    }
  });

  it('drops the identities’ uuid index 0015 made again, and finds a document by its uuid through the entries', async () => {
    const engine = await open();
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
