import { ApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncStatus } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import type { Service } from '../service.ts';
import { MAX_ATTACHMENT_BYTES } from '../silo/attachments.ts';
import { DEFAULT_RETRY } from './backoff.ts';
import { RemoteError, RemoteTimedOut, RemoteTooLarge, RemoteUnreachable, SyncCancelled } from './remote-client.ts';
import { runSync } from './run.ts';
import { MassDeletionRefused, type Progress, type SyncOptions } from './run-context.ts';
import { forgetSettings, loadConfig, saveOutcome, saveSettings, settingsView, type SettingsInput } from './settings.ts';
import { syncStatus } from './status.ts';
import { companyIdOf, ownerOf, type CompanyKey } from '../access/company-key.ts';

export const DEFAULT_SYNC_OPTIONS: SyncOptions = {
  tickMs: 30_000,
  retry: DEFAULT_RETRY,
  // A page or batch of 200 is applied in about a fifth of a second on the other
  // side: big enough that round trips do not dominate, small enough not to hold
  // the event loop (the window, in the desktop app) for long.
  pageSize: 200,
  batchSize: 200,
  batchBytes: 4 * 1024 * 1024,
  blobBatchBytes: 8 * 1024 * 1024,
  maxBlobBytes: MAX_ATTACHMENT_BYTES,
  feedPageMs: 10,
};

interface ActiveRun {
  abort: AbortController;
  done: Promise<SyncStatus>;
}

/**
 * Sync for every company of the service: one run at a time per company, started
 * by hand (`syncNow`) or by the timer every `interval_minutes` while not paused.
 * A run's failure is never thrown at the caller: it is recorded (kind, message,
 * time) and shown by `status`, and the next run starts over from the saved
 * cursors and the outbox.
 */
export class SyncController {
  readonly #service: Service;
  readonly options: SyncOptions;
  readonly #runs = new Map<string, ActiveRun>();
  readonly #progress = new Map<string, Progress>();
  /** when each company's last run started, on the monotonic clock (wall-clock changes do not move it) */
  readonly #startedAt = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  /** starts still reading a company's settings: their run is not in #runs yet, and stop waits for them */
  readonly #starting = new Set<Promise<unknown>>();

  constructor(service: Service, options: Partial<SyncOptions> = {}) {
    this.#service = service;
    this.options = { ...DEFAULT_SYNC_OPTIONS, ...options, retry: { ...DEFAULT_RETRY, ...options.retry } };
  }

  /** Starts automatic sync. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      void this.#tick().catch((err: unknown) => this.#service.log?.(`sync: the timer could not look for companies due: ${(err as Error)?.message ?? err}`));
    }, this.options.tickMs);
    this.#timer.unref();
  }

  /** Stops the timer, cancels runs under way and waits for them to settle (their progress is saved per page). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    // A start still reading its settings puts its run in #runs as soon as it has them: it is cancelled with the others.
    await Promise.allSettled([...this.#starting]);
    const runs = [...this.#runs.values()];
    for (const run of runs) run.abort.abort();
    await Promise.all(runs.map((r) => r.done));
  }

  async configure(companyKey: CompanyKey, input: SettingsInput) {
    return settingsView(await saveSettings(this.#service.db, companyKey, input));
  }

  async forget(companyKey: CompanyKey) {
    this.cancel(companyKey);
    await forgetSettings(this.#service.db, companyKey);
    return settingsView(undefined);
  }

  async settings(companyKey: CompanyKey) {
    return settingsView(await loadConfig(this.#service.db, companyKey));
  }

  isRunning(companyKey: CompanyKey): boolean {
    return this.#runs.has(companyKey);
  }

  /** Starts a sync (or joins the one under way); resolves with the status once it has ended. */
  async syncNow(companyKey: CompanyKey, opts: { allowMassDeletion?: boolean } = {}): Promise<SyncStatus> {
    return (await this.begin(companyKey, opts)).done;
  }

  /**
   * Starts a sync (or joins the one under way) and resolves once it is under way,
   * with `done`, which resolves with the status once it has ended. Refuses a company
   * whose sync is not configured, before any run starts.
   */
  async begin(companyKey: CompanyKey, opts: { allowMassDeletion?: boolean } = {}): Promise<{ done: Promise<SyncStatus> }> {
    const active = this.#runs.get(companyKey);
    if (active) return { done: active.done };
    const reading = loadConfig(this.#service.db, companyKey);
    this.#starting.add(reading);
    let config: Awaited<typeof reading>;
    try {
      config = await reading;
    } finally {
      this.#starting.delete(reading);
    }
    if (!config) throw new ApiError('conflict', 'sync is not configured for this company; set a remote first');
    // Another start may have begun a run while the settings were read: one run at a time, so join it.
    const started = this.#runs.get(companyKey);
    if (started) return { done: started.done };
    const abort = new AbortController();
    const progress: Progress = {
      phase: 'connect', started_at: nowIso(), pushed: 0, pulled: 0, bytes_sent: 0, bytes_received: 0,
      pending_at_start: 0, conflicts: 0, parked: 0,
    };
    this.#progress.set(companyKey, progress);
    this.#startedAt.set(companyKey, performance.now());
    const done = this.#execute(companyKey, abort.signal, progress, opts.allowMassDeletion ?? false).finally(() => this.#runs.delete(companyKey));
    // #execute never rejects; `done` hands the status to whoever waits
    const run: ActiveRun = { abort, done: done.then(() => this.status(companyKey)) };
    this.#runs.set(companyKey, run);
    return { done: run.done };
  }

  cancel(companyKey: CompanyKey): void {
    this.#runs.get(companyKey)?.abort.abort();
  }

  async status(companyKey: CompanyKey): Promise<SyncStatus> {
    const ctx: Ctx = { service: this.#service, caller: await ownerOf(this.#service.db, companyKey) };
    return syncStatus(ctx, this.#runs.has(companyKey), this.#progress.get(companyKey));
  }

  async #execute(companyKey: CompanyKey, signal: AbortSignal, progress: Progress, allowMassDeletion: boolean): Promise<void> {
    const { db, log } = this.#service;
    const attemptAt = nowIso();
    const started = performance.now();
    // One line per run for the operator: counts and time, never a token or a document.
    const summary = () =>
      `pushed ${progress.pushed}, pulled ${progress.pulled}, conflicts ${progress.conflicts}, parked ${progress.parked}, ` +
      `${progress.bytes_sent} B out, ${progress.bytes_received} B in, ${Math.round(performance.now() - started)} ms`;
    // The operator knows a company by its public id, never by the key its rows are stored under.
    const company = await companyIdOf(db, companyKey).catch(() => `(key ${companyKey})`);
    try {
      await runSync(this.#service, companyKey, this.options, signal, progress, allowMassDeletion);
      if (signal.aborted) throw new SyncCancelled();
      await saveOutcome(db, companyKey, { attemptAt, successAt: nowIso() });
      log?.(`sync ${company}: ok, ${summary()}`);
    } catch (err) {
      const error = classify(err);
      log?.(`sync ${company}: ${error.kind}: ${error.message}; ${summary()}`);
      if (error.kind === 'internal') log?.(`sync: internal error: ${(err as Error)?.stack ?? err}`);
      // a company deleted meanwhile, or a database closed under us, has nowhere to record this
      try {
        await saveOutcome(db, companyKey, { attemptAt, error });
      } catch {
        // nothing more to do
      }
    }
  }

  async #tick(): Promise<void> {
    const { db } = this.#service;
    const rows = await db.all(db.q.selectFrom('sync_config').selectAll().where('paused', '=', 0).where('interval_minutes', '>', 0));
    // stopped while the settings were read: start nothing more
    if (!this.#timer) return;
    for (const row of rows) {
      if (this.#runs.has(row.company_id)) continue;
      // Offline, it looks again every minute, so it syncs soon after the network is back.
      const minutes = row.last_error_kind === 'network' ? Math.min(1, row.interval_minutes) : row.interval_minutes;
      if (isDue(this.#startedAt.get(row.company_id), row.last_attempt_at, minutes * 60_000)) {
        void this.syncNow(row.company_id).catch(() => undefined);
      }
    }
  }
}

/**
 * Is a company due for its automatic sync: the interval has passed on the
 * monotonic clock since the last run this process started (a wall clock set back
 * cannot stop it), or by the stored time of the last attempt. A stored time in the
 * future means the clock was set back since it was written: due, not a year away.
 */
export function isDue(startedAtMono: number | undefined, lastAttemptAt: string | null, intervalMs: number, nowMono = performance.now(), now = Date.now()): boolean {
  if (startedAtMono !== undefined && nowMono - startedAtMono >= intervalMs) return true;
  const last = lastAttemptAt ? Date.parse(lastAttemptAt) : NaN;
  if (!Number.isFinite(last) || last > now) return true;
  return now - last >= intervalMs;
}

/** What went wrong, in words the badge and the settings screen can show (never the token). */
export function classify(err: unknown): { kind: string; message: string } {
  if (err instanceof SyncCancelled) return { kind: 'cancelled', message: 'cancelled; the next sync resumes where this one stopped' };
  if (err instanceof RemoteTimedOut) return { kind: 'timeout', message: err.message };
  if (err instanceof RemoteUnreachable) return { kind: 'network', message: `the remote cannot be reached: ${err.message}` };
  if (err instanceof RemoteTooLarge) return { kind: 'refused', message: err.message };
  if (err instanceof MassDeletionRefused) return { kind: 'refused', message: err.message };
  if (err instanceof RemoteError) {
    if (err.status === 401 || err.status === 403) return { kind: 'auth', message: `the remote refused the token: ${err.message}` };
    return { kind: 'remote', message: err.message };
  }
  if (err instanceof ApiError) return { kind: 'config', message: err.message };
  return { kind: 'internal', message: 'sync failed on an internal error; see the log' };
}
