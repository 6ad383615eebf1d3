// Where, how often and how many backups: install-wide (the data folder holds every company),
// kept in the settings table with the outcome of the last run.
import type { Store } from '../db/store.ts';

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

function readJson<T>(store: Store, key: string): T | undefined {
  const row = store.first(store.q.selectFrom('settings').select('value').where('key', '=', key));
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return undefined;
  }
}

function writeJson(store: Store, key: string, value: unknown): void {
  const text = JSON.stringify(value);
  store.run(store.q.insertInto('settings').values({ key, value: text }).onConflict((oc) => oc.column('key').doUpdateSet({ value: text })));
}

export function readBackupSettings(store: Store): BackupSettings {
  return { ...DEFAULT_SETTINGS, ...readJson<Partial<BackupSettings>>(store, SETTINGS_KEY) };
}

export const writeBackupSettings = (store: Store, settings: BackupSettings): void => writeJson(store, SETTINGS_KEY, settings);

export const readLastOutcome = (store: Store): BackupOutcome | undefined => readJson<BackupOutcome>(store, LAST_KEY);

export const writeLastOutcome = (store: Store, outcome: BackupOutcome): void => writeJson(store, LAST_KEY, outcome);
