// How backups are named and described on disk.

export const BACKUP_PREFIX = 'silodesk-backup-';
export const MANIFEST = 'manifest.json';

export interface BackupManifest {
  format: 'silodesk-backup/1';
  created_at: string;
  instance_id: string;
  entries: number;
  files: number;
  missing_files: number;
  bytes: number;
}

/** "silodesk-backup-2026-03-02T10-30-00-123Z": sortable, and without ":" (Windows refuses it in names). */
export const backupName = (at: Date): string => `${BACKUP_PREFIX}${at.toISOString().replace(/:/g, '-').replace('.', '-')}`;

export const isBackupName = (name: string): boolean => /^silodesk-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.test(name);
