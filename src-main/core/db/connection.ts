import Database from 'better-sqlite3';
import { startCheckpointer, type CheckpointerOptions } from './checkpointer.ts';

export type Sqlite = Database.Database;

/**
 * Page size of a new database. An entry row (envelope JSON, snippet, ids) is about
 * 2.6 kB: on 4 KiB pages only one fits and each entry wastes 1.3 kB; on 8 KiB pages
 * three fit (0.45 kB wasted). 16 KiB pages waste less still (0.2 kB), but every
 * commit writes whole pages to the WAL, and a small transaction (a series entry, a job
 * step) then cost a quarter more. Only a database created from empty takes it (SQLite
 * cannot change the page size of a WAL database short of rewriting it).
 */
export const PAGE_SIZE = 8192;

/** After a checkpoint, the WAL file is cut back to this size: it stays bounded even after a long reader held it open. */
export const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * WAL pages between the connection's own checkpoints, used only when the checkpoint
 * thread (checkpointer.ts) cannot run: 4 MiB, so one such checkpoint (inside a commit,
 * on the event loop) stays short; at 16 MiB one took 100–400 ms.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 512;

/**
 * Opens the one SQLite file of a data dir. WAL lets the UI read while a job writes;
 * synchronous=NORMAL under WAL never corrupts the file, and at worst loses the last
 * commit on power loss (not on a crash of the app), which is the trade every
 * desktop app on SQLite makes for interactive write speed.
 */
export function openSqlite(file: string, checkpoints?: CheckpointerOptions): Sqlite {
  const db = new Database(file);
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -32000');
  db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  optimizeSqlite(db, true);
  if (file !== ':memory:' && file !== '') {
    // Checkpoints run off the event loop; closing lets go of the thread's connection first, so
    // this one stays the last to close and folds the WAL back into the file as before.
    const checkpointer = startCheckpointer(db, file, WAL_AUTOCHECKPOINT_PAGES, checkpoints);
    const close = db.close.bind(db);
    db.close = () => {
      checkpointer.stop();
      return close();
    };
  }
  return db;
}

/**
 * Keeps the query planner's statistics current, as SQLite advises for a long-lived
 * connection: at open (0x10002: also for tables never analysed, which a database made
 * before this had none of), and after a bulk write. `analysis_limit` makes ANALYZE
 * sample each index instead of reading it whole, so this takes milliseconds at a
 * million entries; without statistics SQLite once picked the digest index for a
 * join and scanned every entry of the company.
 */
export function optimizeSqlite(db: Sqlite, atOpen = false): void {
  db.pragma('analysis_limit = 400');
  db.pragma(atOpen ? 'optimize = 0x10002' : 'optimize');
}
