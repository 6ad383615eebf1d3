import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's own connection reads one snapshot of the database and writes it out whole
 * (VACUUM INTO): consistent, compacted, and never touching the service's connection.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.target);
  parentPort.postMessage({ ok: true });
} catch (err) {
  parentPort.postMessage({ ok: false, message: String(err && err.message || err) });
} finally {
  db.close();
}
`;

/**
 * Copies the SQLite database at `file` to `target` as one consistent snapshot, on a thread of
 * its own. SQLite's online backup API on the service's own connection is not usable: a
 * transaction stays open on it across a turn of the event loop (group commit, sqlite-db.ts),
 * and a backup step taken then copies nothing; on another connection it starts over at every
 * write. The copy's reads neither wait for the service's writes nor hold them up (WAL), and
 * its work never blocks the event loop.
 */
export function copySnapshot(file: string, target: string, driver = createRequire(import.meta.url).resolve('better-sqlite3')): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, file, target } });
    let answered = false;
    worker.once('message', (m: { ok: boolean; message?: string }) => {
      answered = true;
      if (m.ok) resolve();
      else reject(new Error(m.message));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the snapshot thread ended (${code}) before the copy was made`));
    });
  });
}
