import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Sqlite } from './connection.ts';

/**
 * Copies the WAL back into the database file on a thread of its own, with its own
 * connection. SQLite otherwise checkpoints inside the commit that crosses
 * wal_autocheckpoint, on the event loop: the copy and its two fsyncs held every
 * request up (100–400 ms at 16 MiB), and small transactions (a series entry, a job
 * step) paid for a checkpoint every few dozen commits. The thread looks every
 * CHECKPOINT_EVERY_MS whether anything was committed since its last look (SQLite's
 * data_version) and then runs a PASSIVE checkpoint, which never waits for a reader
 * or the writer; the writer cuts the WAL back to journal_size_limit when it next
 * starts from the top of it.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const done = new Int32Array(workerData.done);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 50');
db.pragma('cache_size = -2000');
let seen = -1;
const timer = setInterval(() => {
  try {
    const version = db.pragma('data_version', { simple: true });
    if (version === seen) return;
    seen = version;
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy: the next look takes it
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
  parentPort.close();
});
`;

export const CHECKPOINT_EVERY_MS = 200;
/** How long closing the database waits for the thread to let go of its connection. */
const STOP_WAIT_MS = 2_000;

export interface Checkpointer {
  /** Closes the thread's connection before returning, so the caller's close is the last one (and cleans the WAL up). */
  stop(): void;
}

/**
 * Starts the checkpoint thread for `db` (a file database in WAL mode) and turns the
 * connection's own checkpoints off. Should the thread fail (it cannot load the
 * driver, it dies), the connection checkpoints by itself again, every
 * `fallbackPages`, as SQLite does by default: the WAL is never left to grow.
 */
export function startCheckpointer(db: Sqlite, file: string, fallbackPages: number, driver = createRequire(import.meta.url).resolve('better-sqlite3')): Checkpointer {
  const done = new SharedArrayBuffer(4);
  let stopped = false;
  const fallBack = () => {
    if (stopped) return;
    stopped = true;
    if (db.open) db.pragma(`wal_autocheckpoint = ${fallbackPages}`);
  };
  let worker: Worker;
  try {
    worker = new Worker(WORKER, { eval: true, workerData: { driver, file, done, everyMs: CHECKPOINT_EVERY_MS } });
  } catch {
    fallBack();
    return { stop: () => {} };
  }
  worker.unref();
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  db.pragma('wal_autocheckpoint = 0');
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
      Atomics.wait(new Int32Array(done), 0, 0, STOP_WAIT_MS);
    },
  };
}
