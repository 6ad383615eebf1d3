// One backup of the data folder: the database as one consistent snapshot, written out by a
// thread of its own while the app keeps writing (snapshot-copy.ts), then the content-addressed
// files, then the keys. It is written under a hidden ".partial" name and renamed when whole, so
// a folder named as a backup is always a complete one. Files every backup shares (same SHA-256,
// same bytes) are hard links to the previous backup's where the file system allows it, so
// frequent backups stay small.
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Service } from '../service.ts';
import { backupName, MANIFEST, type BackupManifest } from './backup-names.ts';
import { checkCopy, copySnapshot } from './snapshot-copy.ts';

export interface BackupResult {
  name: string;
  path: string;
  manifest: BackupManifest;
}

const RESTORE_NOTE = `This is a backup of a Silodesk data folder.

To restore it: quit Silodesk (or stop serve), move the data folder aside, and copy this
folder's silodesk.db, files/ and keys/ into an empty data folder. Start Silodesk: it opens
the database as it was when the backup was taken. See README, "Backups".
`;

async function copyTree(from: string, to: string, previous: string | undefined): Promise<number> {
  if (!existsSync(from)) return 0;
  await mkdir(to, { recursive: true, mode: 0o700 });
  let count = 0;
  for (const item of await readdir(from, { withFileTypes: true })) {
    const source = join(from, item.name);
    const target = join(to, item.name);
    if (item.isDirectory()) {
      count += await copyTree(source, target, previous && join(previous, item.name));
    } else if (item.isFile()) {
      const earlier = previous && join(previous, item.name);
      // Content-addressed: the same name is the same bytes, so the earlier backup's copy can be shared.
      if (!(earlier && (await linked(earlier, target)))) await copyFile(source, target);
      count += 1;
    }
  }
  return count;
}

async function linked(existing: string, target: string): Promise<boolean> {
  try {
    await link(existing, target);
    return true;
  } catch {
    return false;
  }
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const item of await readdir(path)) total += await sizeOf(join(path, item));
  return total;
}

/** Takes one backup of `service`'s data folder into `folder`; answers what was written. */
export async function takeBackup(service: Service, folder: string, previous?: string, now = new Date()): Promise<BackupResult> {
  // A copy of the SQLite file is SQLite's alone: a PostgreSQL remote is backed up by its database
  // server's own tools (pg_dump), which see the whole database consistently; there is no file here to copy.
  const sqlite = service.db.sqlite;
  if (!sqlite) {
    throw new Error("backups of a PostgreSQL database are the database server's own (pg_dump): Silodesk backs up a SQLite data folder only");
  }
  const name = backupName(now);
  const partial = join(folder, `.${name}.partial`);
  const final = join(folder, name);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true, mode: 0o700 });
  try {
    const dbCopy = join(partial, 'silodesk.db');
    // The snapshot first: every file it names was written before it was named (DESIGN §5), so it is on disk now.
    await copySnapshot(sqlite.name, dbCopy);
    const filesDir = join(partial, 'files');
    const previousFiles = previous ? join(folder, previous, 'files') : undefined;
    const files = await copyTreeSkipping(join(service.dataDir, 'files'), filesDir, previousFiles, 'tmp');
    await copyTree(join(service.dataDir, 'keys'), join(partial, 'keys'), undefined);
    const { missing, entries } = await checkCopy(dbCopy, filesDir);
    const manifest: BackupManifest = {
      format: 'silodesk-backup/1',
      created_at: now.toISOString(),
      instance_id: service.instanceId,
      entries,
      files,
      missing_files: missing,
      bytes: 0,
    };
    await writeFile(join(partial, 'RESTORE.txt'), RESTORE_NOTE, { mode: 0o600 });
    manifest.bytes = await sizeOf(partial);
    await writeFile(join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await rename(partial, final);
    return { name, path: final, manifest };
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

/** copyTree without one top-level folder (the blob store's temp files are nobody's data). */
async function copyTreeSkipping(from: string, to: string, previous: string | undefined, skip: string): Promise<number> {
  if (!existsSync(from)) return 0;
  await mkdir(to, { recursive: true, mode: 0o700 });
  let count = 0;
  for (const item of await readdir(from, { withFileTypes: true })) {
    if (item.name === skip || !item.isDirectory()) continue;
    count += await copyTree(join(from, item.name), join(to, item.name), previous && join(previous, item.name));
  }
  return count;
}
