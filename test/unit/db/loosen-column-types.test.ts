import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src-main/core/db/connection.ts';
import { loosenedTableSql, PACKED_DOCUMENT_COLUMNS } from '../../../src-main/core/db/loosen-column-types.ts';
import { migrateToLatest } from '../../../src-main/core/db/migrate.ts';
import { migrations } from '../../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../../src-main/core/db/sqlite-db.ts';

describe('loosening a column of a STRICT table to ANY', () => {
  it('changes that one declaration and nothing else', () => {
    const table = 'CREATE TABLE t (\n  id TEXT NOT NULL,\n  metadata TEXT,\n  data TEXT NOT NULL,\n  data_note TEXT\n) STRICT';
    expect(loosenedTableSql('t', 'data', table)).toBe(table.replace('  data TEXT NOT NULL', '  data ANY NOT NULL'));
    expect(loosenedTableSql('t', 'data', 'CREATE TABLE t (data TEXT, x TEXT) STRICT, WITHOUT ROWID')).toBe('CREATE TABLE t (data ANY, x TEXT) STRICT, WITHOUT ROWID');
  });

  it('refuses a table that is not STRICT (ANY would change what its rows read back), or a column not declared TEXT once', () => {
    expect(() => loosenedTableSql('t', 'data', 'CREATE TABLE t (data TEXT)')).toThrow(/not a STRICT table/);
    expect(() => loosenedTableSql('t', 'data', 'CREATE TABLE t (data BLOB) STRICT')).toThrow(/found 0/);
    expect(() => loosenedTableSql('t', 'data', 'CREATE TABLE t (metadata TEXT) STRICT')).toThrow(/found 0/);
  });

  it('leaves a migrated database whole, with the three columns loosened and defensive mode back on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-loosen-'));
    const sqlite = openSqlite(join(dir, 'silodesk.db'));
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0022'));
    await migrateToLatest(sqlite, sqliteDb(sqlite).q, join(dir, 'backups'), before);
    const declared = (db: ReturnType<typeof openSqlite>, table: string) => db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(table) as string;
    for (const [table, column] of PACKED_DOCUMENT_COLUMNS) expect(declared(sqlite, table)).toMatch(new RegExp(`\\b${column} TEXT\\b`));
    sqlite.close();

    const reopened = openSqlite(join(dir, 'silodesk.db'));
    const through0022 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0023'));
    const { applied } = await migrateToLatest(reopened, sqliteDb(reopened).q, join(dir, 'backups'), through0022);
    expect(applied).toEqual(['0022_packed_documents']);
    for (const [table, column] of PACKED_DOCUMENT_COLUMNS) {
      const text = declared(reopened, table);
      expect(text).toMatch(new RegExp(`\\b${column} ANY\\b`));
      expect(text).toMatch(/STRICT/);
    }
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(reopened.pragma('writable_schema', { simple: true })).toBe(0);
    // Defensive mode is back on once migrated: the schema's text cannot be written.
    expect(() => reopened.exec(`PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = sql WHERE name = 'entries'`)).toThrow();
    reopened.close();
  });
});
