import { Worker } from 'node:worker_threads';
import type { Sqlite } from './connection.ts';
import { FREE, RESTARTING, setWriteGate, STATE, WANTED, WRITING, WriteGate } from './write-gate.ts';
import { sqliteDriverPath } from './sqlite-driver-path.ts';

/**
 * Copies the WAL back into the database file on a thread of its own, with its own
 * connection. SQLite otherwise checkpoints inside the commit that crosses
 * wal_autocheckpoint, on the event loop: the copy and its two fsyncs held every
 * request up (100–400 ms at 16 MiB), and small transactions (a series entry, a job
 * step) paid for a checkpoint every few dozen commits. The thread looks every
 * CHECKPOINT_EVERY_MS whether anything was committed since its last look (SQLite's
 * data_version) and then runs a PASSIVE checkpoint, which never waits for a reader
 * or the writer.
 *
 * The WAL starts over from the top only when a writer begins while all of it has been
 * copied back; under a steady stream of writes that moment rarely comes, and the file
 * grew to hundreds of MiB (a first pull of 10,000 entries). The writer then cut it back
 * to journal_size_limit inside a COMMIT, on the event loop: freeing 300 MiB took 50 ms
 * (ext4). So once the WAL passes `restartBytes`, the thread takes the write gate
 * (write-gate.ts) between two of the service's transactions and runs a RESTART
 * checkpoint itself: it copies the last frames back, syncs and has the next writer
 * start from the top, while the service's next transaction waits as a promise. The
 * file keeps its size, under journal_size_limit, so the writer has nothing to cut and
 * no blocks to allocate again (a TRUNCATE here cost series entries 13%).
 */
const WORKER = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const done = new Int32Array(workerData.done);
const gate = new Int32Array(workerData.gate);
const STATE = ${STATE}, WANTED = ${WANTED}, FREE = ${FREE}, WRITING = ${WRITING}, RESTARTING = ${RESTARTING};
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 50');
db.pragma('cache_size = -2000');
const walBytes = () => {
  try {
    return statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
};
// Between two of the service's transactions: say so, and wait for it to leave the gate, for a while.
const takeGate = () => {
  const until = Date.now() + workerData.gateWaitMs;
  Atomics.store(gate, WANTED, 1);
  try {
    for (;;) {
      if (Atomics.compareExchange(gate, STATE, FREE, RESTARTING) === FREE) return true;
      const left = until - Date.now();
      if (left <= 0) return false;
      Atomics.wait(gate, STATE, WRITING, left);
    }
  } finally {
    Atomics.store(gate, WANTED, 0);
    Atomics.notify(gate, WANTED);
  }
};
let seen = -1;
// A reader that holds an old snapshot (a backup, a long export) keeps the WAL from starting over: try again later.
let restartNotBefore = 0;
const timer = setInterval(() => {
  try {
    const version = db.pragma('data_version', { simple: true });
    if (version !== seen) {
      seen = version;
      db.pragma('wal_checkpoint(PASSIVE)');
    }
    if (walBytes() > workerData.restartBytes && Date.now() >= restartNotBefore && takeGate()) {
      let busy = 1;
      try {
        busy = db.pragma('wal_checkpoint(RESTART)')[0].busy;
      } finally {
        Atomics.store(gate, STATE, FREE);
        Atomics.notify(gate, STATE);
        if (busy) restartNotBefore = Date.now() + workerData.retryMs;
      }
    }
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
/**
 * The WAL size past which the thread starts it over itself (see above): under
 * journal_size_limit (64 MiB) by what a busy service writes between two looks, and
 * large enough that a restart (a sync, writers held for the last frames) is rare.
 */
export const WAL_RESTART_BYTES = 40 * 1024 * 1024;
/** How long the thread waits for a gap between the service's transactions before it tries again at its next look. */
const GATE_WAIT_MS = 100;
/** After a reader kept the WAL from starting over, the thread leaves the writer alone this long. */
const RESTART_RETRY_MS = 1_000;
/** How long closing the database waits for the thread to let go of its connection. */
const STOP_WAIT_MS = 2_000;

export interface CheckpointerOptions {
  everyMs?: number;
  restartBytes?: number;
}

export interface Checkpointer {
  /** Closes the thread's connection before returning, so the caller's close is the last one (and cleans the WAL up). */
  stop(): void;
}

/**
 * Starts the checkpoint thread for `db` (a file database in WAL mode), shares the
 * write gate with it and turns the connection's own checkpoints off. Should the thread
 * fail (it cannot load the driver, it dies), the gate goes and the connection
 * checkpoints by itself again, every `fallbackPages`, as SQLite does by default: the
 * WAL is never left to grow.
 */
export function startCheckpointer(
  db: Sqlite,
  file: string,
  fallbackPages: number,
  options: CheckpointerOptions = {},
  driver = sqliteDriverPath(),
): Checkpointer {
  const done = new SharedArrayBuffer(4);
  const gate = new WriteGate(new Int32Array(new SharedArrayBuffer(8)));
  let stopped = false;
  const fallBack = () => {
    if (stopped) return;
    stopped = true;
    setWriteGate(db, undefined);
    gate.threadGone();
    if (db.open) db.pragma(`wal_autocheckpoint = ${fallbackPages}`);
  };
  let worker: Worker;
  try {
    worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        driver,
        file,
        done,
        gate: gate.cell.buffer,
        everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS,
        restartBytes: options.restartBytes ?? WAL_RESTART_BYTES,
        gateWaitMs: GATE_WAIT_MS,
        retryMs: RESTART_RETRY_MS,
      },
    });
  } catch {
    fallBack();
    return { stop: () => {} };
  }
  worker.unref();
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  setWriteGate(db, gate);
  db.pragma('wal_autocheckpoint = 0');
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      setWriteGate(db, undefined);
      worker.postMessage('stop');
      Atomics.wait(new Int32Array(done), 0, 0, STOP_WAIT_MS);
    },
  };
}
