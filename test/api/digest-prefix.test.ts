import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { DIGEST_HOLDERS } from '../../src-main/core/silo/bulk-commit.ts';
import { digestHolderSql } from '../../src-main/core/silo/digest-prefix-index.ts';

/**
 * Twins are found along an index of their digests' prefixes (migration 0037: the bytes of
 * the first 12 digits), and told apart by the whole digest in the row: documents that share
 * a prefix are no twins, and a database indexed by 0030's text prefix is re-indexed.
 */
const CREATED = '2026-01-01T00:00:00.000Z';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function database(cut?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-digest-'));
  dirs.push(dir);
  const sqlite = openSqlite(join(dir, 'silodesk.db'));
  const db = sqliteDb(sqlite);
  const upTo = cut === undefined ? migrations : Object.fromEntries(Object.entries(migrations).filter(([name]) => name < cut));
  await migrateToLatest(sqlite, db.q, join(dir, 'backups'), upTo);
  await db.sql(`INSERT INTO companies (id, uuid, name, created_at, updated_at) VALUES ('1', 'c1', 'C', ?, ?)`, [CREATED, CREATED]);
  const insert = (id: string, digest: string) =>
    db.tx(
      () =>
        db.sqlRun(
          `INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg,
             digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at)
           VALUES (?, '1', NULL, 'sales', 'draft', '', 1, 0, 0, 'x', NULL, 'x', 'sha256', ?, '{}', '[]', '[]', '{}', '', 1, ?, ?)`,
          [id, digest, CREATED, CREATED],
        ),
      { origin: 'local' },
    );
  return { db, sqlite, insert, migrateRest: () => migrateToLatest(sqlite, db.q, join(dir, 'backups')) };
}

const shared = 'ab'.repeat(8);
const one = `${shared}${'1'.repeat(48)}`;
const other = `${shared}${'2'.repeat(48)}`;

describe('twins by digest along the prefix index', () => {
  it('finds the holder of the very digest, not one that shares its prefix, one at a time and a slice at once', async () => {
    const { db, insert } = await database();
    await insert('e1', one);
    await insert('e2', other);
    await insert('e3', 'not hex at all, from a peer that lies');
    const holder = async (digest: string, id: string) => (await db.sqlFirst<{ id: string }>(...digestHolderSql('sqlite', '1', digest, id)))?.id;
    expect(await holder(one, 'new')).toBe('e1');
    expect(await holder(other, 'new')).toBe('e2');
    expect(await holder(one, 'e1')).toBeUndefined();
    expect(await holder(`${shared}${'3'.repeat(48)}`, 'new')).toBeUndefined();
    expect(await holder('not hex at all, from a peer that lies', 'new')).toBeUndefined();
    const digests = JSON.stringify([one, other, `${shared}${'3'.repeat(48)}`]);
    const holders = await db.sql<{ digest_val: string; id: string }>(DIGEST_HOLDERS, ['1', digests, digests]);
    expect(holders.map((r) => [r.digest_val, r.id]).sort()).toEqual([[one, 'e1'], [other, 'e2']]);
  });

  it('re-indexes a database indexed by the text of the first 16 digits, and finds the twins stored before', async () => {
    const { db, sqlite, insert, migrateRest } = await database('0037');
    const definition = () => sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = 'entries_company_digest_prefix'`).pluck().get() as string;
    expect(definition()).toContain('substr(digest_val, 1, 16)');
    await insert('e1', one);
    await migrateRest();
    expect(definition()).toContain('unhex(substr(digest_val, 1, 12))');
    expect((await db.sqlFirst<{ id: string }>(...digestHolderSql('sqlite', '1', one, 'new')))?.id).toBe('e1');
    const bytes = sqlite.prepare(`SELECT typeof(unhex(substr(digest_val, 1, 12))) AS t, length(unhex(substr(digest_val, 1, 12))) AS n FROM entries`).get();
    expect(bytes).toEqual({ t: 'blob', n: 6 });
  });
});
