import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';

describe('migrations', () => {
  it('creates the schema on a new database without a backup, in WAL with foreign keys on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-mig-'));
    const sqlite = openSqlite(join(dir, 'db.sqlite'));
    const result = await migrateToLatest(sqlite, sqliteDb(sqlite).q, join(dir, 'backups'));
    expect(result.applied).toEqual(Object.keys(migrations));
    expect(result.backup).toBeUndefined();
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['entries', 'mentions', 'attachments', 'entry_meta', 'companies', 'tokens', 'entries_fts']));
    expect((await migrateToLatest(sqlite, sqliteDb(sqlite).q, join(dir, 'backups'))).applied).toEqual([]);
    sqlite.close();
  });

  it('takes an online backup holding the data before applying a new migration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-mig-'));
    const sqlite = openSqlite(join(dir, 'db.sqlite'));
    const store = sqliteDb(sqlite);
    await migrateToLatest(sqlite, store.q, join(dir, 'backups'));
    sqlite.prepare(`INSERT INTO companies (id, uuid, name, created_at, updated_at) VALUES ('1', 'c1', 'Acme', 'x', 'x')`).run();

    const next = {
      ...migrations,
      '0999_test': { up: async (db: any) => void (await sql`CREATE TABLE added_later (x INTEGER)`.execute(db)) },
    };
    const result = await migrateToLatest(sqlite, store.q, join(dir, 'backups'), next);
    expect(result.applied).toEqual(['0999_test']);
    expect(readdirSync(join(dir, 'backups'))).toHaveLength(1);

    const backup = new Database(result.backup!, { readonly: true });
    expect(backup.prepare('SELECT name FROM companies').pluck().all()).toEqual(['Acme']);
    expect(backup.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'added_later'`).pluck().get()).toBe(0);
    backup.close();
    expect(sqlite.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'added_later'`).pluck().get()).toBe(1);
    sqlite.close();
  });
});
