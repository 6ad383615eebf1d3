// A fresh instance to serve, on either engine: a data dir of its own (files, keys, the
// owner token) and its records in that dir's SQLite file or in a PostgreSQL database
// made for it alone on the benchmark's throwaway cluster. Comparisons between the two
// engines start every run from one of these, so neither side inherits the other's rows.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import { startCluster, type Cluster } from '../../scripts/pg-cluster.ts';
import { freshDatabase } from '../../test/support/pg-database.ts';
import { startServers, type Servers } from './servers.ts';

export type Engine = 'sqlite' | 'postgres';
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

export interface Instance {
  engine: Engine;
  dataDir: string;
  /** the PostgreSQL database, on that engine */
  databaseUrl?: string;
  token: string;
  companyId: string;
  /** the service in this process (setup, checks); close it before serving */
  open(): Promise<Service>;
  /** the HTTP API in a worker thread, as `serve` would run it (the job runner off unless asked) */
  serve(options?: { runJobs?: boolean }): Promise<Servers>;
  /** removes the data dir and drops the database */
  remove(): Promise<void>;
}

/** The PostgreSQL server of a benchmark run: a throwaway cluster, or why there is none. */
export interface PgServer {
  url?: string;
  /** why PostgreSQL cells cannot be measured here (not installed, failed to start) */
  unavailable?: string;
  stop(): void;
}

export async function startPgServer(): Promise<PgServer> {
  let cluster: Cluster;
  try {
    cluster = await startCluster();
  } catch (err) {
    return { unavailable: firstLine(err), stop: () => undefined };
  }
  return { url: cluster.url, stop: () => cluster.stop() };
}

/** `pg`: the PostgreSQL server, which only a postgres instance needs. */
export async function freshInstance(engine: Engine, pg?: PgServer): Promise<Instance> {
  if (engine === 'postgres' && !pg?.url) throw new Error(`no PostgreSQL: ${pg?.unavailable ?? 'not started'}`);
  const dataDir = mkdtempSync(join(tmpdir(), `silodesk-bench-${engine}-`));
  let database: { url: string; drop(): Promise<void> } | undefined;
  const remove = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  try {
    if (engine === 'postgres') database = await freshDatabase(pg!.url!);
    const databaseUrl = database?.url;
    const open = () => openService(dataDir, { runJobs: false, autoSync: false, databaseUrl });
    const setup = await open();
    let companyId: string;
    try {
      const company = await ensureDefaultCompany(setup.db);
      await ensureOwnerTokenFile(setup.db, company, join(dataDir, 'api-token'));
      companyId = company.id;
    } finally {
      await setup.close();
    }
    return {
      engine,
      dataDir,
      databaseUrl,
      token: readFileSync(join(dataDir, 'api-token'), 'utf8').trim(),
      companyId,
      open,
      serve: (options) => startServers(dataDir, { runJobs: options?.runJobs ?? false, databaseUrl }),
      remove,
    };
  } catch (err) {
    await remove().catch(() => undefined);
    throw err;
  }
}

/** An error's first line: what a table cell can hold. */
export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'failed';
}
