// The backups a folder holds (complete ones only: a partial backup has no backup's name),
// and pruning to the newest K. Anything else in the folder is never touched.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isBackupName, MANIFEST, type BackupManifest } from './backup-names.ts';

export interface BackupRecord {
  name: string;
  path: string;
  created_at: string;
  bytes: number;
  files: number;
  entries: number;
}

/** Newest first. */
export function listBackups(folder: string): BackupRecord[] {
  if (!folder || !existsSync(folder) || !statSync(folder).isDirectory()) return [];
  const names = readdirSync(folder, { withFileTypes: true }).filter((d) => d.isDirectory() && isBackupName(d.name)).map((d) => d.name);
  return names
    .sort()
    .reverse()
    .map((name) => {
      const path = join(folder, name);
      let manifest: Partial<BackupManifest> = {};
      try {
        manifest = JSON.parse(readFileSync(join(path, MANIFEST), 'utf8')) as BackupManifest;
      } catch {
        // a backup folder without its manifest still counts, with what its name says
      }
      return {
        name,
        path,
        created_at: manifest.created_at ?? '',
        bytes: manifest.bytes ?? 0,
        files: manifest.files ?? 0,
        entries: manifest.entries ?? 0,
      };
    });
}

/** Deletes all but the newest `keep` backups, and the leftovers of backups a crash interrupted. */
export async function pruneBackups(folder: string, keep: number, writing?: string): Promise<void> {
  for (const old of listBackups(folder).slice(keep)) await rm(old.path, { recursive: true, force: true });
  for (const item of readdirSync(folder)) {
    if (/^\.silodesk-backup-.*\.partial$/.test(item) && item !== writing) await rm(join(folder, item), { recursive: true, force: true });
  }
}
