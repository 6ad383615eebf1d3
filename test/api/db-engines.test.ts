import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { numberedPlaceholders, type Db } from '../../src-main/core/db/engine.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migratePostgres } from '../../src-main/core/db/pg/migrate.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { Store } from '../../src-main/core/db/store.ts';
import { freshDatabase } from '../support/pg-database.ts';

/**
 * The data layer's one interface, the same checks on each engine: transactions and
 * savepoints, numbering under concurrent writers, and the schema's triggers.
 */
interface Engine {
  db: Db;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-engine-'));
  const sqlite = openSqlite(join(dir, 'silodesk.db'));
  const store = new Store(sqlite);
  await migrateToLatest(sqlite, store.q, join(dir, 'backups'));
  const db = sqliteDb(store);
  return {
    db,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresEngine(): Promise<Engine> {
  const database = await freshDatabase(inject('pgUrl'));
  const db = pgDb(database.url);
  await migratePostgres(db.q);
  return {
    db,
    async close() {
      await db.close();
      await database.drop();
    },
  };
}

const AT = '2026-01-01T00:00:00.000Z';
const engines = [['sqlite', sqliteEngine] as const, ...(inject('pgUrl') ? [['postgres', postgresEngine] as const] : [])];

describe.each(engines)('on %s', (_name, open) => {
  let engine: Engine;
  let db: Db;
  beforeAll(async () => {
    engine = await open();
    db = engine.db;
    await db.tx(async (tx) => {
      await tx.sql(`INSERT INTO companies (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, ['c1', 'Acme', AT, AT]);
      await tx.sql(
        `INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, sigs, request_hash, created_at, updated_at)
         VALUES ('s1', 'c1', 'Sales', '', 'FA', 'FA-', 4, '', 1, 'me', 0, '[]', '', ?, ?)`,
        [AT, AT],
      );
    }, { origin: 'local' });
  });
  afterAll(() => engine.close());

  const entry = (tx: Db, id: string, folder: string, tags: string[]) =>
    tx.run(
      tx.q.insertInto('entries').values({
        id, company_id: 'c1', key: null, folder, state: 'draft', context: '', draft: 1, invalid: 0, signed: 0, doc_schema: 'x', doc_uuid: null,
        env_schema: 'x', digest_alg: 'sha256', digest_val: id, snippet: '{}', tags: JSON.stringify(tags), faults: '[]', data: '{}', request_hash: '',
        version: 1, created_at: AT, updated_at: AT,
      } as never),
    );
  const counts = async () => ({
    folders: await db.sql(`SELECT folder, count FROM entry_folder_counts WHERE company_id = ? ORDER BY folder`, ['c1']),
    tags: await db.sql(`SELECT tag, count FROM entry_tag_counts WHERE company_id = ? ORDER BY tag`, ['c1']),
  });

  it('commits a transaction whole, and rolls one back whole when it throws', async () => {
    await db.tx((tx) => entry(tx, 'e1', 'sales', ['a']), { origin: 'local' });
    await expect(
      db.tx(async (tx) => {
        await entry(tx, 'e2', 'sales', []);
        throw new Error('half-way');
      }, { origin: 'local' }),
    ).rejects.toThrow('half-way');
    expect((await db.sql<{ id: string }>(`SELECT id FROM entries ORDER BY id`)).map((r) => r.id)).toEqual(['e1']);
  });

  it('undoes a failed savepoint only, and the outer transaction goes on', async () => {
    await db.tx(async (tx) => {
      await entry(tx, 'e3', 'sales', []);
      await expect(tx.tx(async (inner) => {
        await entry(inner, 'e4', 'sales', []);
        await entry(inner, 'e4', 'sales', []); // the same id twice: the savepoint fails
      }, { origin: 'peer' })).rejects.toThrow();
      expect(tx.origin).toBe('local');
    }, { origin: 'local' });
    expect((await db.sql<{ id: string }>(`SELECT id FROM entries ORDER BY id`)).map((r) => r.id)).toEqual(['e1', 'e3']);
  });

  it('hands out gapless numbers to concurrent writers', async () => {
    const issued = await Promise.all(
      Array.from({ length: 40 }, () =>
        db.tx(async (tx) => {
          const [row] = await tx.sql<{ last_index: number }>(
            `UPDATE series SET last_index = last_index + 1 WHERE company_id = ? AND id = ? RETURNING last_index`,
            ['c1', 's1'],
          );
          return row.last_index;
        }, { origin: 'local' }),
      ),
    );
    expect([...issued].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('keeps the live counts per folder and tag through moves, trash and deletes (the schema’s triggers)', async () => {
    await db.tx(async (tx) => {
      await entry(tx, 'e5', 'purchases', ['a', 'b']);
      await tx.sql(`UPDATE entries SET folder = 'purchases', tags = ? WHERE company_id = 'c1' AND id = 'e3'`, [JSON.stringify(['b'])]);
      await tx.sql(`UPDATE entries SET trashed_at = ? WHERE company_id = 'c1' AND id = 'e1'`, [AT]);
    }, { origin: 'local' });
    expect(await counts()).toEqual({ folders: [{ folder: 'purchases', count: 2 }], tags: [{ tag: 'a', count: 1 }, { tag: 'b', count: 2 }] });
    // A write to a synced table names its origin, or is refused (change-triggers.ts).
    await db.tx((tx) => tx.sql(`DELETE FROM entries WHERE company_id = 'c1' AND id = 'e5'`), { origin: 'local' });
    expect(await counts()).toEqual({ folders: [{ folder: 'purchases', count: 1 }], tags: [{ tag: 'b', count: 1 }] });
    // each entry got its first state
    expect(await db.sql(`SELECT entry_id, key FROM entry_states ORDER BY entry_id`)).toEqual([
      { entry_id: 'e1', key: 'draft' },
      { entry_id: 'e3', key: 'draft' },
    ]);
  });

  it('refuses to change or delete the audit log', async () => {
    await db.sql(
      `INSERT INTO audit_log (company_id, at, via, actor_id, actor_name, operation, action, target_kind, target_id, detail, hash)
       VALUES ('c1', ?, 'api', 'a', 'A', NULL, 'x', 'entry', 'e1', '{}', 'h')`,
      [AT],
    );
    await expect(db.sql(`UPDATE audit_log SET action = 'y'`)).rejects.toThrow(/append-only/);
    await expect(db.sql(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
  });
});

describe('placeholders', () => {
  it("numbers `?` for PostgreSQL, leaving quoted text alone", () => {
    expect(numberedPlaceholders(`SELECT '?' AS q, "a?" FROM t WHERE a = ? AND b IN (?, ?)`)).toBe(`SELECT '?' AS q, "a?" FROM t WHERE a = $1 AND b IN ($2, $3)`);
  });
});
