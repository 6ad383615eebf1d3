import Database from 'better-sqlite3';

export type Sqlite = Database.Database;

/**
 * Opens the one SQLite file of a data dir. WAL lets the UI read while a job writes;
 * synchronous=NORMAL under WAL never corrupts the file, and at worst loses the last
 * commit on power loss (not on a crash of the app), which is the trade every
 * desktop app on SQLite makes for interactive write speed.
 */
export function openSqlite(file: string): Sqlite {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -32000');
  return db;
}
