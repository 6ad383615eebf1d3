import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { backupScheduler } from './backup/scheduler.ts';
import { openSqlite } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Store } from './db/store.ts';
import { BlobStore } from './files/blob-store.ts';
import { securePrivateDataDir } from './files/private-data-dir.ts';
import { InstanceKeys, type KeySealer } from './keys/instance-keys.ts';
import type { Provider } from './transform/provider.ts';
import { providers as builtinProviders } from './transform/providers/index.ts';
import { JobRunner, type RunnerOptions } from './transform/runner.ts';
import { SyncController } from './sync/controller.ts';
import { detachRunner } from './silo/audit-actor.ts';
import { trashPurger } from './silo/trash-purge.ts';
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

/** The whole service of one data dir: database, files and instance identity. */
export interface Service {
  dataDir: string;
  config: ServiceConfig;
  store: Store;
  blobs: BlobStore;
  instanceId: string;
  /** signs list cursors */
  cursorSecret: Buffer;
  /** the instance's ES256 signing keys (series entries, envelopes); JWKS for verifiers */
  keys: InstanceKeys;
  /** the workflow job engine */
  jobs: JobRunner;
  /** sync with a remote instance: settings, runs, status */
  sync: SyncController;
  /** step providers by id: the built-in ones plus `config.extraProviders` */
  providers: Map<string, Provider<any>>;
  /** operational messages (never secrets or document data) */
  log?: (line: string) => void;
  /** stops the job engine (waiting for steps under way) and closes the database */
  close(): Promise<void>;
}

/** `protectKey` encrypts the private signing keys at rest (the desktop app passes safeStorage). */
export interface ServiceSecrets {
  protectKey?: KeySealer;
}

export async function openService(
  dataDir: string,
  config: Partial<ServiceConfig> & ServiceSecrets & { log?: (line: string) => void } = {},
): Promise<Service> {
  securePrivateDataDir(dataDir);
  const sqlite = openSqlite(join(dataDir, 'silodesk.db'));
  const store = new Store(sqlite);
  await migrateToLatest(sqlite, store.q, join(dataDir, 'backups'));

  const blobs = new BlobStore(join(dataDir, 'files'));
  blobs.sweepTemp();

  const instanceId = setting(store, 'instance_id', () => uuidv7());
  const cursorSecret = Buffer.from(setting(store, 'cursor_secret', () => randomBytes(32).toString('hex')), 'hex');
  const keys = await InstanceKeys.load(join(dataDir, 'keys'), config.protectKey);
  // again, for the folders made since (files, backups, keys)
  securePrivateDataDir(dataDir);

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
    store,
    blobs,
    instanceId,
    cursorSecret,
    keys,
    jobs: undefined as unknown as JobRunner,
    sync: undefined as unknown as SyncController,
    providers: new Map([...builtinProviders, ...(config.extraProviders ?? [])].map((p) => [p.id, p])),
    log: config.log,
    async close() {
      trashPurger(service).stop();
      await backupScheduler(service).stop();
      await service.sync.stop();
      await service.jobs.stop();
      sqlite.close();
    },
  };
  service.jobs = new JobRunner(service, service.config.runner);
  // Jobs run detached from the request that queued them: a step's changes are the workflow's (audit-actor.ts).
  detachRunner(service.jobs);
  service.sync = new SyncController(service, service.config.sync);
  if (service.config.autoSync) service.sync.start();
  // The scheduled backup of the data folder (off until the owner sets a folder).
  backupScheduler(service).start();
  // What has waited in the trash past its retention goes now, then daily.
  trashPurger(service).start();
  // Unfinished jobs from before a crash or a quit are due again: they resume here.
  if (service.config.runJobs) service.jobs.start();
  return service;
}

function setting(store: Store, key: string, make: () => string): string {
  const row = store.first(store.q.selectFrom('settings').select('value').where('key', '=', key));
  if (row) return row.value;
  const value = make();
  store.run(store.q.insertInto('settings').values({ key, value }).onConflict((oc) => oc.doNothing()));
  return store.first(store.q.selectFrom('settings').select('value').where('key', '=', key))!.value;
}
