import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from '../db/sqlite-driver-path.ts';

/**
 * The backup's work on the database, each on a connection of the thread's own:
 * - `copy`: one snapshot of the database written out whole (VACUUM INTO): consistent,
 *   compacted, and never touching the service's connection;
 * - `check`: the copy checked page by page (quick_check: 14 s at a million entries), its
 *   entries counted, and the hashes its attachments name looked for in the backup's files.
 */
const WORKER = `
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  if (workerData.task === 'copy') {
    db.prepare('VACUUM INTO ?').run(workerData.target);
    parentPort.postMessage({ ok: true });
  } else {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error('the database copy fails its check: ' + String(check));
    const entries = db.prepare('SELECT count(*) AS n FROM entries').get().n;
    let missing = 0;
    for (const hash of db.prepare('SELECT DISTINCT hash FROM attachments').pluck().iterate()) {
      if (!existsSync(join(workerData.filesDir, hash.slice(0, 2), hash))) missing++;
    }
    parentPort.postMessage({ ok: true, result: { entries, missing } });
  }
} catch (err) {
  parentPort.postMessage({ ok: false, message: String(err && err.message || err) });
} finally {
  db.close();
}
`;

type Task = { task: 'copy'; target: string } | { task: 'check'; filesDir: string };

function inThread<T>(file: string, task: Task, driver: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, file, ...task } });
    let answered = false;
    worker.once('message', (m: { ok: boolean; result?: T; message?: string }) => {
      answered = true;
      if (m.ok) resolve(m.result as T);
      else reject(new Error(m.message));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the backup thread ended (${code}) before its ${task.task} was done`));
    });
  });
}

/**
 * Copies the SQLite database at `file` to `target` as one consistent snapshot, on a thread of
 * its own. SQLite's online backup API on the service's own connection is not usable: a
 * transaction stays open on it across a turn of the event loop (group commit, sqlite-db.ts),
 * and a backup step taken then copies nothing; on another connection it starts over at every
 * write. The copy's reads neither wait for the service's writes nor hold them up (WAL), and
 * its work never blocks the event loop.
 */
export function copySnapshot(file: string, target: string, driver = sqliteDriverPath()): Promise<void> {
  return inThread<void>(file, { task: 'copy', target }, driver);
}

/**
 * Checks the database copy at `file` on a thread of its own (it throws when the copy fails
 * SQLite's check): how many entries it holds, and how many of the files its attachments name
 * are not in `filesDir` (purged between the snapshot and the copy of the files).
 */
export function checkCopy(file: string, filesDir: string, driver = sqliteDriverPath()): Promise<{ entries: number; missing: number }> {
  return inThread(file, { task: 'check', filesDir }, driver);
}
