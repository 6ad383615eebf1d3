import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { openSqlite } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Store } from './db/store.ts';
import { BlobStore } from './files/blob-store.ts';

/** The whole service of one data dir: database, files and instance identity. */
export interface Service {
  dataDir: string;
  store: Store;
  blobs: BlobStore;
  instanceId: string;
  /** signs list cursors */
  cursorSecret: Buffer;
  close(): void;
}

export async function openService(dataDir: string): Promise<Service> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sqlite = openSqlite(join(dataDir, 'silodesk.db'));
  const store = new Store(sqlite);
  await migrateToLatest(sqlite, store.q, join(dataDir, 'backups'));

  const blobs = new BlobStore(join(dataDir, 'files'));
  blobs.sweepTemp();

  const instanceId = setting(store, 'instance_id', () => uuidv7());
  const cursorSecret = Buffer.from(setting(store, 'cursor_secret', () => randomBytes(32).toString('hex')), 'hex');

  return {
    dataDir,
    store,
    blobs,
    instanceId,
    cursorSecret,
    close: () => sqlite.close(),
  };
}

function setting(store: Store, key: string, make: () => string): string {
  const row = store.first(store.q.selectFrom('settings').select('value').where('key', '=', key));
  if (row) return row.value;
  const value = make();
  store.run(store.q.insertInto('settings').values({ key, value }).onConflict((oc) => oc.doNothing()));
  return store.first(store.q.selectFrom('settings').select('value').where('key', '=', key))!.value;
}
