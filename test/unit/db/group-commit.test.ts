import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Sqlite } from '../../../src-main/core/db/connection.ts';
import type { Db } from '../../../src-main/core/db/engine.ts';
import { sqliteDb } from '../../../src-main/core/db/sqlite-db.ts';

/**
 * Transactions begun in the same turn of the event loop (requests that arrived
 * together) commit with one COMMIT (sqlite-db.ts #commitGroup), and each still acts
 * as a transaction of its own.
 */
let dir: string;
let sqlite: Sqlite;
let db: Db;
let commits: number;
let failCommit: boolean;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-group-commit-'));
  sqlite = openSqlite(join(dir, 'test.db'));
  sqlite.exec('CREATE TABLE t (n INTEGER NOT NULL, who TEXT NOT NULL)');
  const exec = sqlite.exec.bind(sqlite);
  commits = 0;
  failCommit = false;
  sqlite.exec = (text: string) => {
    if (text === 'COMMIT') {
      commits++;
      if (failCommit) throw new Error('disk full');
    }
    return exec(text);
  };
  db = sqliteDb(sqlite);
});

afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Another connection to the file: it sees only what was committed. */
const committedRows = () => {
  const other = new Database(join(dir, 'test.db'), { readonly: true });
  try {
    return (other.prepare('SELECT n, who FROM t ORDER BY n').all() as Array<{ n: number; who: string }>).map((r) => `${r.n}:${r.who}`);
  } finally {
    other.close();
  }
};

/** Inserts the next number: a transaction that reads what the ones before it wrote. */
const insertNext = (who: string) => async () => {
  const { n } = (await db.sqlFirst<{ n: number }>('SELECT count(*) + 1 AS n FROM t'))!;
  await db.sqlRun('INSERT INTO t (n, who) VALUES (?, ?)', [n, who]);
  return n;
};

describe('group commit (SQLite)', () => {
  it('commits transactions begun together with one COMMIT; each reads the writes of those before it, and answers once they are committed', async () => {
    const seenCommitted: string[][] = [];
    const results = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((who) =>
        db.tx(insertNext(who), { origin: 'local' }).then((n) => {
          seenCommitted.push(committedRows());
          return n;
        }),
      ),
    );
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(commits).toBe(1);
    for (const rows of seenCommitted) expect(rows).toEqual(['1:a', '2:b', '3:c', '4:d', '5:e']);
  });

  it('a transaction begun alone commits at once, one COMMIT each', async () => {
    expect(await db.tx(insertNext('a'), { origin: 'local' })).toBe(1);
    expect(committedRows()).toEqual(['1:a']);
    expect(await db.tx(insertNext('b'), { origin: 'local' })).toBe(2);
    expect(commits).toBe(2);
  });

  it('a member that fails leaves nothing and fails alone', async () => {
    const outcomes = await Promise.allSettled([
      db.tx(insertNext('a'), { origin: 'local' }),
      db.tx(async () => {
        await insertNext('bad')();
        throw new Error('refused');
      }, { origin: 'local' }),
      db.tx(insertNext('c'), { origin: 'local' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused');
    expect(committedRows()).toEqual(['1:a', '2:c']);
    expect(commits).toBe(1);
  });

  it('the first member runs in the transaction itself: failing, it is rolled back whole and those after it still commit', async () => {
    const savepoints: string[] = [];
    const exec = sqlite.exec;
    sqlite.exec = (text: string) => {
      if (text.startsWith('SAVEPOINT')) savepoints.push(text);
      return exec(text);
    };
    const nested = async () => {
      await insertNext('first')();
      // Its own nested transaction still has a savepoint of its own, undone with it.
      await db.tx(insertNext('nested'), { origin: 'local' });
      throw new Error('refused');
    };
    const outcomes = await Promise.allSettled([
      db.tx(nested, { origin: 'local' }),
      db.tx(insertNext('b'), { origin: 'local' }),
      db.tx(insertNext('c'), { origin: 'local' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(committedRows()).toEqual(['1:b', '2:c']);
    expect(commits).toBe(1);
    // The nested one's, and one each for the second and third members: none for the first.
    expect(savepoints).toEqual(['SAVEPOINT sp2', 'SAVEPOINT sp1', 'SAVEPOINT sp1']);
  });

  it('the members after a failed first one fail when the transaction cannot begin again, and nothing is half-written', async () => {
    const exec = sqlite.exec;
    let begins = 0;
    sqlite.exec = (text: string) => {
      if (text === 'BEGIN IMMEDIATE' && ++begins === 2) throw new Error('database is locked');
      return exec(text);
    };
    const outcomes = await Promise.allSettled([
      db.tx(async () => {
        await insertNext('a')();
        throw new Error('refused');
      }, { origin: 'local' }),
      db.tx(insertNext('b'), { origin: 'local' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('database is locked');
    expect(sqlite.inTransaction).toBe(false);
    expect(committedRows()).toEqual([]);
    sqlite.exec = exec;
    expect(await db.tx(insertNext('d'), { origin: 'local' })).toBe(1);
  });

  it('a COMMIT that fails fails every member, and nothing of theirs is kept', async () => {
    failCommit = true;
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((who) => db.tx(insertNext(who), { origin: 'local' })));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(sqlite.inTransaction).toBe(false);
    failCommit = false;
    expect(committedRows()).toEqual([]);
    expect(await db.tx(insertNext('d'), { origin: 'local' })).toBe(1);
  });

  it('a read from outside waits for the group and sees it committed, never half of it', async () => {
    const writes = ['a', 'b', 'c'].map((who) => db.tx(insertNext(who), { origin: 'local' }));
    const read = db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM t');
    expect((await read)!.n).toBe(3);
    await Promise.all(writes);
  });
});
