import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src-main/core/db/checkpointer.ts';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { FREE, RESTARTING, STATE, writeGateOf } from '../../src-main/core/db/write-gate.ts';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';

/**
 * Checkpoints run on a thread of their own (checkpointer.ts), never inside a commit on
 * the event loop; the WAL is still folded back and reused, and a database closed is
 * one file again.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-ckpt-'));
  dirs.push(dir);
  return join(dir, 'test.db');
}
const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function writeRows(db: ReturnType<typeof openSqlite>, n: number): void {
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  for (let i = 0; i < n; i++) insert.run('x'.repeat(2_000));
}

describe('checkpoints off the event loop', () => {
  it('leaves the connection no checkpoint of its own, yet the WAL is folded back and reused', async () => {
    const file = scratch();
    const db = openSqlite(file);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    writeRows(db, 300); // 300 commits
    const grown = walBytes(file);
    expect(grown).toBeGreaterThan(300 * 2_000);
    // The thread checkpoints what was committed; a write after that starts the WAL again from its top
    // (the file keeps its size) instead of adding to its end.
    let reused = false;
    for (let i = 0; i < 30 && !reused; i++) {
      await sleep(100);
      const before = walBytes(file);
      writeRows(db, 1);
      reused = walBytes(file) === before;
    }
    writeRows(db, 300);
    expect(reused).toBe(true);
    expect(walBytes(file)).toBeLessThan(grown * 1.5);
    db.close();
    // Closed last, by the connection itself: the WAL is folded back into the file.
    expect(walBytes(file)).toBe(0);
    const again = openSqlite(file);
    expect((again.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBeGreaterThanOrEqual(601);
    again.close();
  });

  it('falls back to the connection’s own checkpoints when the thread cannot run', async () => {
    const file = scratch();
    const db = openSqlite(file);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const checkpointer = startCheckpointer(db, file, 321, {}, join(tmpdir(), 'no-such-driver.js'));
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    for (let i = 0; i < 50 && db.pragma('wal_autocheckpoint', { simple: true }) === 0; i++) await sleep(20);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(321);
    checkpointer.stop();
    db.close();
  });
});

describe('the WAL started over by the thread, between the service’s transactions', () => {
  const RESTART_BYTES = 512 * 1024;
  const ROW = 'y'.repeat(4_000);
  /** A service's transaction does work between its statements: about 8 MiB/s of rows, as a pull applies them. */
  const work = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  /** Back-to-back group transactions, 4 at a time, until `total` bytes went in; the largest WAL seen meanwhile. */
  async function writeSteadily(db: ReturnType<typeof sqliteDb>, file: string, total: number): Promise<number> {
    let written = 0;
    let largest = 0;
    const client = async () => {
      while (written < total) {
        written += 8 * ROW.length;
        await db.tx(async () => {
          for (let i = 0; i < 8; i++) {
            work(0.5);
            await db.sqlRun('INSERT INTO t (v) VALUES (?)', [ROW]);
          }
        }, { origin: LOCAL });
        largest = Math.max(largest, walBytes(file));
      }
    };
    await Promise.all([client(), client(), client(), client()]);
    return largest;
  }

  it('keeps the WAL near its restart size under a steady stream of writes, and loses none of them', async () => {
    const file = scratch();
    const sqlite = openSqlite(file, { everyMs: 10, restartBytes: RESTART_BYTES });
    const db = sqliteDb(sqlite);
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const total = 16 * RESTART_BYTES;
    const largest = await writeSteadily(db, file, total);
    // SQLite alone starts the WAL over only when a writer begins with all of it copied back, which a
    // steady stream hardly ever allows: it grew to most of the 8 MiB written.
    expect(largest).toBeLessThan(5 * RESTART_BYTES);
    const rows = (sqlite.prepare('SELECT count(*) AS n, sum(length(v)) AS bytes FROM t').get() as { n: number; bytes: number });
    expect(rows.bytes).toBe(rows.n * ROW.length);
    expect(rows.n * ROW.length).toBeGreaterThanOrEqual(total);
    await db.close();
  });

  /** A database whose checkpoint thread, as the test has it, holds the gate and then the write lock from a connection of its own. */
  function heldByTheThread(schema: string) {
    const file = scratch();
    const sqlite = openSqlite(file);
    const db = sqliteDb(sqlite);
    sqlite.exec(schema);
    const gate = writeGateOf(sqlite)!;
    expect(gate).toBeDefined();
    expect(Atomics.compareExchange(gate.cell, STATE, FREE, RESTARTING)).toBe(FREE);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const letGo = () => {
      other.exec('COMMIT');
      other.close();
      gate.leave();
    };
    return { sqlite, db, gate, letGo };
  }

  it('makes a transaction wait as a promise while the thread holds the write lock, not in SQLite’s busy handler', async () => {
    const { sqlite, db, gate, letGo } = heldByTheThread('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    let committed = false;
    const tx = db.tx(async () => db.sqlRun('INSERT INTO t (v) VALUES (?)', ['waited']), { origin: LOCAL }).then(() => (committed = true));
    // The event loop runs timers meanwhile (a busy handler would sleep through them, up to busy_timeout).
    const t0 = performance.now();
    await sleep(150);
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(committed).toBe(false);
    letGo();
    await tx;
    expect(committed).toBe(true);
    expect(Atomics.load(gate.cell, STATE)).toBe(FREE);
    expect(sqlite.prepare('SELECT v FROM t').pluck().all()).toEqual(['waited']);
    await db.close();
  });

  it('makes a write outside any transaction wait as a promise too', async () => {
    const { sqlite, db, gate, letGo } = heldByTheThread("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t (v) VALUES ('before')");
    const done: string[] = [];
    // Each way of writing without a transaction: a query, a statement, a statement that may read.
    const writes = [
      db.run(db.q.insertInto('t' as never).values({ v: 'query' } as never)).then(() => done.push('query')),
      db.sqlRun('INSERT INTO t (v) VALUES (?)', ['sqlRun']).then(() => done.push('sqlRun')),
      db.sql('INSERT INTO t (v) VALUES (?)', ['sql']).then(() => done.push('sql')),
    ];
    const t0 = performance.now();
    await sleep(150);
    // The loop ran its timers (a busy handler would have slept through them, up to busy_timeout), and nothing was written.
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(done).toEqual([]);
    letGo();
    await Promise.all(writes);
    expect(done.sort()).toEqual(['query', 'sql', 'sqlRun']);
    expect(Atomics.load(gate.cell, STATE)).toBe(FREE);
    expect(sqlite.prepare('SELECT v FROM t ORDER BY id').pluck().all()).toEqual(['before', 'query', 'sqlRun', 'sql']);
    await db.close();
  });
});
