import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { newUuidV7 as uuidv7 } from './new-uuid.ts';
import { backupScheduler } from './backup/scheduler.ts';
import { openSqlite } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Db } from './db/engine.ts';
import { sqliteDb } from './db/sqlite-db.ts';
import { BlobStore } from './files/blob-store.ts';
import { securePrivateDataDir } from './files/private-data-dir.ts';
import { InstanceKeys, type KeySealer } from './keys/instance-keys.ts';
import type { Provider } from './transform/provider.ts';
import type { JobRunner, RunnerOptions } from './transform/runner.ts';
import type { SyncController } from './sync/controller.ts';
import { detachRunner } from './silo/audit-actor.ts';
import { recordKeeping } from './silo/record-keeping.ts';
import type { SyncOptions } from './sync/run-context.ts';

/** Deployment choices that are not data: who may be called, where files may go. */
export interface ServiceConfig {
  /** hosts (besides loopback) the webhook provider may call, e.g. `erp.example.com:8443` */
  webhookAllowedHosts: string[];
  /** folders the export.folder provider may write under (default: DIR/exports) */
  exportRoots: string[];
  /** job engine tuning (tests shorten the retry delay) */
  runner: Partial<RunnerOptions>;
  /** false: jobs are queued but not run (tools that only read) */
  runJobs: boolean;
  /** step providers added to the built-in ones (an embedding app's own steps) */
  extraProviders: Provider<any>[];
  /** sync tuning (tests shorten retries and the timer) */
  sync: Partial<SyncOptions>;
  /** false: no automatic sync every N minutes (sync still runs when asked) */
  autoSync: boolean;
}

/** Where the service keeps its records: the data dir's SQLite file (the default), or a PostgreSQL database. */
export interface DatabaseChoice {
  /** `postgres://…`: a firm's shared remote on a database server; files and keys stay in the data dir */
  databaseUrl?: string;
}

/** The whole service of one data dir: database, files and instance identity. */
export interface Service {
  dataDir: string;
  config: ServiceConfig;
  /** the database: SQLite in the data dir, or a PostgreSQL server's */
  db: Db;
  blobs: BlobStore;
  instanceId: string;
  /** signs list cursors */
  cursorSecret: Buffer;
  /** the instance's ES256 signing keys (series entries, envelopes); JWKS for verifiers */
  keys: InstanceKeys;
  /** the workflow job engine (from startService on) */
  jobs: JobRunner;
  /** sync with a remote instance: settings, runs, status (from startService on) */
  sync: SyncController;
  /** step providers by id: the built-in ones plus `config.extraProviders` (filled by startService) */
  providers: Map<string, Provider<any>>;
  /**
   * Settles when startService has put the job engine, sync and the providers in place (at once
   * for a service from openService). Nothing may use them before: the HTTP API waits for it.
   */
  started: Promise<void>;
  /** operational messages (never secrets or document data) */
  log?: (line: string) => void;
  /** stops the job engine (waiting for steps under way) and closes the database */
  close(): Promise<void>;
}

/** `protectKey` encrypts the private signing keys at rest (the desktop app passes safeStorage). */
export interface ServiceSecrets {
  protectKey?: KeySealer;
}

/** Opens the service of a data dir, whole: its database, files and keys, the job engine, sync and the timers. */
export async function openService(
  dataDir: string,
  config: Partial<ServiceConfig> & ServiceSecrets & DatabaseChoice & { log?: (line: string) => void } = {},
): Promise<Service> {
  const service = await openServiceCore(dataDir, config);
  await startService(service);
  return service;
}

/** startService's work under way (or done), by service. */
const starts = new WeakMap<Service, { done?: Promise<void>; settle(done: Promise<void>): void; stop?: () => Promise<void> }>();

/**
 * The first half of openService: the database (migrated), files, instance identity and keys,
 * which is all that opening costs at a million entries (7–16 ms). The job engine, sync, the
 * step providers and the timers come with startService, whose modules are most of the
 * service's code: `serve` listens in between, and loads them while the port is already open.
 */
export async function openServiceCore(
  dataDir: string,
  config: Partial<ServiceConfig> & ServiceSecrets & DatabaseChoice & { log?: (line: string) => void } = {},
): Promise<Service> {
  securePrivateDataDir(dataDir, { sqlite: !config.databaseUrl });
  const db = await openDatabase(dataDir, config.databaseUrl);

  const blobs = new BlobStore(join(dataDir, 'files'));
  blobs.sweepTemp();

  const instanceId = await setting(db, 'instance_id', () => uuidv7());
  const cursorSecret = Buffer.from(await setting(db, 'cursor_secret', () => randomBytes(32).toString('hex')), 'hex');
  const keys = await InstanceKeys.load(join(dataDir, 'keys'), config.protectKey);
  // again, for the folders made since (files, backups, keys)
  securePrivateDataDir(dataDir, { sqlite: !config.databaseUrl });

  let settle!: (done: Promise<void>) => void;
  const started = new Promise<void>((resolve, reject) => {
    settle = (done) => {
      done.then(resolve, reject);
    };
  });
  // A failed start is reported to whoever started it; the promise itself must not also crash the process.
  started.catch(() => undefined);
  const service: Service = {
    dataDir,
    config: {
      webhookAllowedHosts: config.webhookAllowedHosts ?? [],
      exportRoots: config.exportRoots ?? [join(dataDir, 'exports')],
      runner: config.runner ?? {},
      runJobs: config.runJobs ?? true,
      extraProviders: config.extraProviders ?? [],
      sync: config.sync ?? {},
      autoSync: config.autoSync ?? true,
    },
    db,
    blobs,
    instanceId,
    cursorSecret,
    keys,
    jobs: undefined as unknown as JobRunner,
    sync: undefined as unknown as SyncController,
    providers: new Map(),
    started,
    log: config.log,
    async close() {
      const start = starts.get(service);
      await start?.done?.catch(() => undefined);
      await start?.stop?.();
      await db.close();
    },
  };
  starts.set(service, { settle });
  return service;
}

/**
 * The second half of openService: the job engine (resuming unfinished jobs), sync and its
 * timer, the step providers, the scheduled backup and the trash's retention purge. Their
 * modules are loaded here, on first use. Starting again answers the same promise.
 */
export function startService(service: Service): Promise<void> {
  const start = starts.get(service);
  if (!start) throw new Error('startService takes a service from openServiceCore');
  if (!start.done) {
    start.done = startParts(service).then((stop) => {
      start.stop = stop;
    });
    start.settle(start.done);
  }
  return start.done;
}

async function startParts(service: Service): Promise<() => Promise<void>> {
  const [{ JobRunner }, { SyncController }, { trashPurger }, { providers: builtinProviders }] = await Promise.all([
    import('./transform/runner.ts'),
    import('./sync/controller.ts'),
    import('./silo/trash-purge.ts'),
    import('./transform/providers/index.ts'),
  ]);
  for (const p of [...builtinProviders, ...service.config.extraProviders]) service.providers.set(p.id, p);
  service.jobs = new JobRunner(service, service.config.runner);
  // Jobs run detached from the request that queued them: a step's changes are the workflow's (audit-actor.ts).
  detachRunner(service.jobs);
  service.sync = new SyncController(service, service.config.sync);
  if (service.config.autoSync) service.sync.start();
  // The scheduled backup of the data folder (off until the owner sets a folder).
  await backupScheduler(service).start();
  // What has waited in the trash past its retention goes now, then daily.
  trashPurger(service).start();
  // Unfinished jobs from before a crash or a quit are due again: they resume here.
  if (service.config.runJobs) service.jobs.start();
  // GOBL compiled before the first document comes, not while it holds every request up.
  import('./gobl/warm-up.ts')
    .then(({ warmUpGobl }) => warmUpGobl())
    .catch((err: unknown) => service.log?.(`GOBL warm-up: ${(err as Error)?.message ?? err}`));
  return async () => {
    trashPurger(service).stop();
    await backupScheduler(service).stop();
    await service.sync.stop();
    await service.jobs.stop();
  };
}

/** The database, migrated to the latest schema. */
async function openDatabase(dataDir: string, databaseUrl: string | undefined): Promise<Db> {
  if (databaseUrl) {
    // Loaded only for a remote that uses it: the desktop never pays for pg.
    const [{ pgDb }, { migratePostgres }] = await Promise.all([import('./db/pg/pg-db.ts'), import('./db/pg/migrate.ts')]);
    const db = pgDb(databaseUrl, { hooks: recordKeeping });
    try {
      await migratePostgres(db.q);
    } catch (err) {
      await db.close();
      throw err;
    }
    return db;
  }
  const sqlite = openSqlite(join(dataDir, 'silodesk.db'));
  const db = sqliteDb(sqlite, recordKeeping);
  await migrateToLatest(sqlite, db.q, join(dataDir, 'backups'));
  return db;
}

async function setting(db: Db, key: string, make: () => string): Promise<string> {
  const row = await db.first(db.q.selectFrom('settings').select('value').where('key', '=', key));
  if (row) return row.value;
  const value = make();
  // Two instances starting on one database at once: the first value written is everyone's.
  await db.run(db.q.insertInto('settings').values({ key, value }).onConflict((oc) => oc.doNothing()));
  return (await db.first(db.q.selectFrom('settings').select('value').where('key', '=', key)))!.value;
}
