// Where, how often and how many backups: install-wide (the data folder holds every company),
// kept in the settings table with the outcome of the last run.
import type { Db } from '../db/engine.ts';

export interface BackupSettings {
  folder: string;
  every_hours: number;
  keep: number;
  enabled: boolean;
}

export interface BackupOutcome {
  at: string;
  ok: boolean;
  name?: string;
  error?: string;
  missing_files?: number;
}

export const DEFAULT_SETTINGS: BackupSettings = { folder: '', every_hours: 24, keep: 7, enabled: false };

const SETTINGS_KEY = 'backup.settings';
const LAST_KEY = 'backup.last';

async function readJson<T>(db: Db, key: string): Promise<T | undefined> {
  const row = await db.first(db.q.selectFrom('settings').select('value').where('key', '=', key));
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return undefined;
  }
}

async function writeJson(db: Db, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  await db.run(db.q.insertInto('settings').values({ key, value: text }).onConflict((oc) => oc.column('key').doUpdateSet({ value: text })));
}

export async function readBackupSettings(db: Db): Promise<BackupSettings> {
  return { ...DEFAULT_SETTINGS, ...(await readJson<Partial<BackupSettings>>(db, SETTINGS_KEY)) };
}

export const writeBackupSettings = (db: Db, settings: BackupSettings): Promise<void> => writeJson(db, SETTINGS_KEY, settings);

export const readLastOutcome = (db: Db): Promise<BackupOutcome | undefined> => readJson<BackupOutcome>(db, LAST_KEY);

export const writeLastOutcome = (db: Db, outcome: BackupOutcome): Promise<void> => writeJson(db, LAST_KEY, outcome);
