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
import type { WriteHooks } from '../../src-main/core/db/write-scopes.ts';
import { NO_ORIGIN } from '../../src-main/core/db/change-triggers.ts';
import { freshDatabase } from '../support/pg-database.ts';

/**
 * The data layer's one interface, the same checks on each engine: transactions and
 * savepoints, numbering under concurrent writers, and the schema's triggers.
 */
interface Engine {
  db: Db;
  close(): Promise<void>;
}

/** What the engines hand the service to put on record as a transaction ends (the service's is record-keeping.ts). */
const kept: Array<{ origin: string; records: Array<{ record_id: string; deleted: boolean; context: unknown; keptInside?: true }> }> = [];
let writing = 'nobody';
const hooks = (): WriteHooks<string> => ({
  context: () => writing,
  async keep(records, origin) {
    kept.push({ origin, records: records.map((r) => ({ record_id: r.record_id, deleted: r.deleted, context: r.context, ...(r.keptInside ? { keptInside: true as const } : {}) })) });
  },
});

async function sqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-engine-'));
  const sqlite = openSqlite(join(dir, 'silodesk.db'));
  const db = sqliteDb(sqlite, hooks);
  await migrateToLatest(sqlite, db.q, join(dir, 'backups'));
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
  const db = pgDb(database.url, { hooks });
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
    await db.tx(async () => {
      await db.sql(`INSERT INTO companies (id, uuid, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, ['c1', '0190c1a0-0000-7000-8000-0000000000c1', 'Acme', AT, AT]);
      await db.sql(
        `INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, sigs, request_hash, created_at, updated_at)
         VALUES ('s1', 'c1', 'Sales', '', 'FA', 'FA-', 4, '', 1, 'me', 0, '[]', '', ?, ?)`,
        [AT, AT],
      );
    }, { origin: 'local' });
  });
  afterAll(() => engine.close());

  const entry = (tx: Db, id: string, folder: string, tags: string[]) =>
    db.run(
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
    await db.tx(() => entry(db, 'e1', 'sales', ['a']), { origin: 'local' });
    await expect(
      db.tx(async () => {
        await entry(db, 'e2', 'sales', []);
        throw new Error('half-way');
      }, { origin: 'local' }),
    ).rejects.toThrow('half-way');
    expect((await db.sql<{ id: string }>(`SELECT id FROM entries ORDER BY id`)).map((r) => r.id)).toEqual(['e1']);
  });

  it('undoes a failed savepoint only, and the outer transaction goes on', async () => {
    await db.tx(async () => {
      await entry(db, 'e3', 'sales', []);
      await expect(db.tx(async () => {
        await entry(db, 'e4', 'sales', []);
        await entry(db, 'e4', 'sales', []); // the same id twice: the savepoint fails
      }, { origin: 'peer' })).rejects.toThrow();
      expect(db.origin).toBe('local');
    }, { origin: 'local' });
    expect((await db.sql<{ id: string }>(`SELECT id FROM entries ORDER BY id`)).map((r) => r.id)).toEqual(['e1', 'e3']);
  });

  it('hands out gapless numbers to concurrent writers', async () => {
    const issued = await Promise.all(
      Array.from({ length: 40 }, () =>
        db.tx(async () => {
          const [row] = await db.sql<{ last_index: number }>(
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
    await db.tx(async () => {
      await entry(db, 'e5', 'purchases', ['a', 'b']);
      await db.sql(`UPDATE entries SET folder = 'purchases', tags = ? WHERE company_id = 'c1' AND id = 'e3'`, [JSON.stringify(['b'])]);
      await db.sql(`UPDATE entries SET trashed_at = ? WHERE company_id = 'c1' AND id = 'e1'`, [AT]);
    }, { origin: 'local' });
    expect(await counts()).toEqual({ folders: [{ folder: 'purchases', count: 2 }], tags: [{ tag: 'a', count: 1 }, { tag: 'b', count: 2 }] });
    // A write to a synced table names its origin, or is refused (change-triggers.ts).
    await db.tx(() => db.sql(`DELETE FROM entries WHERE company_id = 'c1' AND id = 'e5'`), { origin: 'local' });
    expect(await counts()).toEqual({ folders: [{ folder: 'purchases', count: 1 }], tags: [{ tag: 'b', count: 1 }] });
    // An entry's first state is implied (implied-first-state.ts): stored, with the new one, once its state changes.
    expect(await db.sql(`SELECT entry_id, key FROM entry_states ORDER BY entry_id`)).toEqual([]);
    await db.tx(() => db.sql(`UPDATE entries SET state = 'sent', updated_at = ? WHERE company_id = 'c1' AND id = 'e3'`, ['2026-02-01T00:00:00.000Z']), { origin: 'local' });
    const created = (await db.sql<{ created_at: string }>(`SELECT created_at FROM entries WHERE id = 'e3'`))[0].created_at;
    expect(await db.sql(`SELECT entry_id, key, at FROM entry_states ORDER BY seq`)).toEqual([
      { entry_id: 'e3', key: 'draft', at: created },
      { entry_id: 'e3', key: 'sent', at: '2026-02-01T00:00:00.000Z' },
    ]);
  });

  it('keeps a transaction to itself: a read from elsewhere waits for its commit, its own flow reads its writes', async () => {
    let insideSaw: unknown;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = db.tx(async () => {
      await entry(db, 'e6', 'sales', []);
      insideSaw = (await db.sql<{ id: string }>(`SELECT id FROM entries WHERE id = 'e6'`)).length;
      await held;
    }, { origin: 'local' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A read from outside: on SQLite it waits for the transaction; on PostgreSQL it does not see its rows.
    const outside = db.sql<{ id: string }>(`SELECT id FROM entries WHERE id = 'e6'`);
    const early = await Promise.race([outside.then((rows) => rows.length), new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))]);
    expect(db.origin).toBeUndefined();
    release();
    await writing;
    expect(insideSaw).toBe(1);
    expect(early === 'waiting' || early === 0).toBe(true);
    expect((await outside).length).toBe(db.dialect === 'sqlite' ? 1 : 0);
    await db.tx(() => db.sql(`DELETE FROM entries WHERE id = 'e6'`), { origin: 'local' });
  });

  it('runs work a transaction left scheduled outside it, once it has ended', async () => {
    let later!: Promise<string | undefined>;
    let go!: () => void;
    const ended = new Promise<void>((resolve) => (go = resolve));
    await db.tx(async () => {
      later = ended.then(() => db.origin);
    }, { origin: 'peer' });
    go();
    expect(await later).toBeUndefined();
  });

  const changeOf = async (id: string) =>
    (await db.sql<{ seq: number; version: number; deleted: number; origin: string }>(
      `SELECT seq, version, deleted, origin FROM sync_changes WHERE company_id = 'c1' AND kind = 'entry' AND record_id = ?`,
      [id],
    ))[0];

  it('records every write to a synced table with its transaction’s origin, and refuses one made outside a transaction', async () => {
    await expect(entry(db, 'r1', 'sales', [])).rejects.toThrow(NO_ORIGIN);
    expect(await changeOf('r1')).toBeUndefined();
    await db.tx(async () => {
      await entry(db, 'r1', 'sales', []);
      // written again by the same transaction: one change
      await db.sql(`UPDATE entries SET folder = 'other' WHERE company_id = 'c1' AND id = 'r1'`);
    }, { origin: 'peer' });
    const first = await changeOf('r1');
    expect(first).toMatchObject({ version: 1, deleted: 0, origin: 'peer' });
    await db.tx(() => db.sql(`UPDATE entries SET folder = 'sales' WHERE company_id = 'c1' AND id = 'r1'`), { origin: 'local' });
    const second = await changeOf('r1');
    expect(second).toMatchObject({ version: 2, origin: 'local' });
    expect(second.seq).toBeGreaterThan(first.seq);
    // a column the record does not carry is no change
    await db.tx(() => db.sql(`UPDATE entries SET updated_at = 'later' WHERE company_id = 'c1' AND id = 'r1'`), { origin: 'local' });
    expect(await changeOf('r1')).toEqual(second);
    // a savepoint with another origin is a write of its own, and so is the outer transaction's write after it
    await db.tx(async () => {
      await db.tx(() => db.sql(`UPDATE entries SET folder = 'x' WHERE company_id = 'c1' AND id = 'r1'`), { origin: 'peer' });
      expect(await changeOf('r1')).toMatchObject({ version: 3, origin: 'peer' });
      await db.sql(`UPDATE entries SET folder = 'y' WHERE company_id = 'c1' AND id = 'r1'`);
    }, { origin: 'local' });
    expect(await changeOf('r1')).toMatchObject({ version: 4, origin: 'local' });
  });

  it('hands what a transaction changed to be put on record before it commits, each record with the context of its write', async () => {
    kept.length = 0;
    await db.tx(async () => {
      writing = 'clerk';
      await entry(db, 'k1', 'sales', []);
      writing = 'workflow';
      await entry(db, 'k2', 'sales', []);
      await db.sql(`DELETE FROM entries WHERE company_id = 'c1' AND id = 'k1'`);
    }, { origin: 'local' });
    writing = 'nobody';
    expect(kept).toEqual([{
      origin: 'local',
      records: [
        { record_id: 'k2', deleted: false, context: 'workflow' },
        { record_id: 'k1', deleted: true, context: 'workflow' },
      ],
    }]);
    // a transaction that fails keeps nothing
    kept.length = 0;
    await expect(db.tx(async () => {
      await entry(db, 'k3', 'sales', []);
      throw new Error('half-way');
    }, { origin: 'local' })).rejects.toThrow('half-way');
    expect(kept).toEqual([]);
  });

  it('keeps what a transaction wrote before a savepoint and after it, as well as what the savepoint wrote', async () => {
    kept.length = 0;
    await db.tx(async () => {
      writing = 'before';
      await entry(db, 's0', 'sales', []);
      await entry(db, 's1', 'sales', []);
      await db.tx(async () => {
        writing = 'inside';
        await entry(db, 's2', 'sales', []);
      }, { origin: 'local' });
      writing = 'after';
      await entry(db, 's3', 'sales', []);
      // written before the savepoint and again after it: kept once, as it ended up
      await db.sql(`UPDATE entries SET folder = 'moved' WHERE company_id = 'c1' AND id = 's1'`);
    }, { origin: 'local' });
    writing = 'nobody';
    expect(kept).toEqual([
      { origin: 'local', records: [{ record_id: 's2', deleted: false, context: 'inside' }] },
      {
        origin: 'local',
        records: [
          { record_id: 's0', deleted: false, context: 'before' },
          { record_id: 's3', deleted: false, context: 'after' },
          { record_id: 's1', deleted: false, context: 'after' },
        ],
      },
    ]);
  });

  it('tells a scope which of its records a scope inside it put on record already, however deep', async () => {
    kept.length = 0;
    await db.tx(async () => {
      writing = 'outer';
      await entry(db, 'k0', 'sales', []);
      await entry(db, 'k1', 'sales', []);
      // A savepoint that writes nothing itself, around one that writes k0.
      await db.tx(() => db.tx(() => db.sql(`UPDATE entries SET folder = 'inner' WHERE company_id = 'c1' AND id = 'k0'`), { origin: 'local' }), { origin: 'local' });
    }, { origin: 'local' });
    writing = 'nobody';
    expect(kept).toEqual([
      { origin: 'local', records: [{ record_id: 'k0', deleted: false, context: 'outer' }] },
      {
        origin: 'local',
        records: [
          { record_id: 'k0', deleted: false, context: 'outer', keptInside: true },
          { record_id: 'k1', deleted: false, context: 'outer' },
        ],
      },
    ]);
  });

  it('commits synced writes in the order of their seqs, so a feed read by seq never passes one committed later', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = db.tx(async () => {
      await entry(db, 'o1', 'sales', []);
      await held;
    }, { origin: 'local' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    let secondDone = false;
    const second = db.tx(() => entry(db, 'o2', 'sales', []), { origin: 'local' }).then(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the second writer waits for the first to commit
    expect(secondDone).toBe(false);
    release();
    await Promise.all([first, second]);
    expect((await changeOf('o2')).seq).toBeGreaterThan((await changeOf('o1')).seq);
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
