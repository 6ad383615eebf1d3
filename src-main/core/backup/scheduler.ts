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
  /** counts plans: a plan that another started after it overtook while it read the settings arms nothing */
  #plans = 0;

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
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#plan(Date.now() + START_GRACE);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextAt = undefined;
    await this.#running?.catch(() => {});
  }

  /** Settings changed: the plan follows them (a first backup a minute after backups are switched on). */
  async replan(): Promise<void> {
    if (!this.#stopped) await this.#plan(Date.now() + START_GRACE);
  }

  async #plan(earliest: number): Promise<void> {
    const plan = ++this.#plans;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextAt = undefined;
    const settings = await readBackupSettings(this.#service.db);
    if (!settings.enabled || settings.folder === '' || this.#stopped) return;
    const last = await readLastOutcome(this.#service.db);
    // Reading the settings let other work run: only the latest plan arms (one timer, never two).
    if (plan !== this.#plans || this.#stopped) return;
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

  /** Takes a backup now (or joins the one under way); answers its outcome, once the next one is planned. */
  run(): Promise<BackupOutcome> {
    this.#running ??= this.#takeAndPlan();
    return this.#running;
  }

  async #takeAndPlan(): Promise<BackupOutcome> {
    try {
      return await this.#take();
    } finally {
      this.#running = undefined;
      if (!this.#stopped) await this.#plan(Date.now());
    }
  }

  async #take(): Promise<BackupOutcome> {
    const { db } = this.#service;
    const settings = await readBackupSettings(db);
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
    await writeLastOutcome(db, outcome);
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
