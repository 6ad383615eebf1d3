import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of a data dir that hold data (the OS user-data folder around it is not ours to change). */
const FOLDERS = ['files', 'keys', 'backups', 'exports'];
const DATABASE_FILES = ['silodesk.db', 'silodesk.db-wal', 'silodesk.db-shm'];

/**
 * The data dir is this user's alone: folders 0700, the database 0600, whether it
 * was just made or already there (a folder made by hand, by an older version, or
 * restored from a backup with looser modes). `mkdir`'s mode is ignored for a
 * folder that exists, and SQLite creates its files under the umask, so both are
 * set here. SQLite gives the -wal and -shm files the database file's mode, so a
 * new database is created 0600 before SQLite opens it. No-op on Windows, where
 * the user-data folder's ACL already keeps other users out.
 * `sqlite: false`: the records are elsewhere (PostgreSQL), so no database file is made.
 */
export function securePrivateDataDir(dataDir: string, opts: { sqlite?: boolean } = {}): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  chmodSync(dataDir, 0o700);
  for (const name of FOLDERS) {
    const path = join(dataDir, name);
    if (existsSync(path) && statSync(path).isDirectory()) chmodSync(path, 0o700);
  }
  const db = join(dataDir, 'silodesk.db');
  // A remote whose records are on PostgreSQL has no SQLite file here: an empty one would only mislead a backup.
  if (opts.sqlite !== false && !existsSync(db)) closeSync(openSync(db, 'a', 0o600));
  for (const name of DATABASE_FILES) {
    const path = join(dataDir, name);
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}
