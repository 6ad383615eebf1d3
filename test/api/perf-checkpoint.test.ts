import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src-main/core/db/checkpointer.ts';
import { openSqlite } from '../../src-main/core/db/connection.ts';

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
    const checkpointer = startCheckpointer(db, file, 321, join(tmpdir(), 'no-such-driver.js'));
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    for (let i = 0; i < 50 && db.pragma('wal_autocheckpoint', { simple: true }) === 0; i++) await sleep(20);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(321);
    checkpointer.stop();
    db.close();
  });
});
