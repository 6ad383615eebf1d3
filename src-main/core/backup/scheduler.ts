// Takes a backup every N hours while the service runs, one at a time; "back up now" joins a
// run under way instead of starting a second one.
import type { Service } from '../service.ts';
import { listBackups, pruneBackups } from './backup-list.ts';
import { destinationProblem } from './destination.ts';
import { readBackupSettings, readLastOutcome, writeLastOutcome, type BackupOutcome } from './settings.ts';
import { takeBackup } from './take-backup.ts';

const HOUR = 3_600_000;
/** Timers wait at most a day at a time (Node's timers cap near 24.8 days). */
const MAX_WAIT = 24 * HOUR;
/** After a start, give the app a minute before an overdue backup. */
const START_GRACE = 60_000;

export class BackupScheduler {
  readonly #service: Service;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<BackupOutcome> | undefined;
  #nextAt: number | undefined;
  #stopped = false;

  constructor(service: Service) {
    this.#service = service;
  }

  get running(): boolean {
    return this.#running !== undefined;
  }

  get nextAt(): number | undefined {
    return this.#nextAt;
  }

  /** (Re)plans the next backup from the settings and the last outcome. */
  start(): void {
    this.#stopped = false;
    this.#plan(Date.now() + START_GRACE);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextAt = undefined;
    await this.#running?.catch(() => {});
  }

  /** Settings changed: the plan follows them (a first backup a minute after backups are switched on). */
  replan(): void {
    if (!this.#stopped) this.#plan(Date.now() + START_GRACE);
  }

  #plan(earliest: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextAt = undefined;
    const settings = readBackupSettings(this.#service.store);
    if (!settings.enabled || settings.folder === '' || this.#stopped) return;
    const last = readLastOutcome(this.#service.store);
    const every = settings.every_hours * HOUR;
    // A failed run is tried again within the hour, not only at the next full interval.
    const since = last ? Date.parse(last.at) + (last.ok ? every : Math.min(every, HOUR)) : earliest;
    this.#nextAt = Math.max(since, earliest);
    this.#arm();
  }

  #arm(): void {
    const wait = Math.min(Math.max(0, (this.#nextAt ?? 0) - Date.now()), MAX_WAIT);
    this.#timer = setTimeout(() => {
      if (this.#nextAt !== undefined && Date.now() < this.#nextAt) return this.#arm();
      this.run().catch(() => {});
    }, wait);
    this.#timer.unref();
  }

  /** Takes a backup now (or joins the one under way); answers its outcome. */
  run(): Promise<BackupOutcome> {
    this.#running ??= this.#take().finally(() => {
      this.#running = undefined;
      if (!this.#stopped) this.#plan(Date.now());
    });
    return this.#running;
  }

  async #take(): Promise<BackupOutcome> {
    const { store } = this.#service;
    const settings = readBackupSettings(store);
    const at = new Date();
    let outcome: BackupOutcome;
    try {
      const problem = destinationProblem(settings.folder, this.#service.dataDir);
      if (problem) throw new Error(`the backup folder ${problem}`);
      const previous = listBackups(settings.folder)[0]?.name;
      const result = await takeBackup(this.#service, settings.folder, previous, at);
      await pruneBackups(settings.folder, settings.keep);
      outcome = { at: at.toISOString(), ok: true, name: result.name, ...(result.manifest.missing_files > 0 ? { missing_files: result.manifest.missing_files } : {}) };
      this.#service.log?.(`backup written: ${result.name}`);
    } catch (err) {
      outcome = { at: at.toISOString(), ok: false, error: (err as Error).message };
      this.#service.log?.(`backup failed: ${(err as Error).message}`);
    }
    writeLastOutcome(store, outcome);
    return outcome;
  }
}

const schedulers = new WeakMap<Service, BackupScheduler>();

/** The service's backup scheduler (made on first use; `startBackups` arms it when the service opens). */
export function backupScheduler(service: Service): BackupScheduler {
  let found = schedulers.get(service);
  if (!found) {
    found = new BackupScheduler(service);
    schedulers.set(service, found);
  }
  return found;
}
