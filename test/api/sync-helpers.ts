import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type Database from 'better-sqlite3';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterEach, expect } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import type { ApiClient } from '../../src-main/core/api/client/client.ts';
import type { Ctx } from '../../src-main/core/api/handler.ts';
import type { CompanyKey } from '../../src-main/core/access/company-key.ts';
import type { Db } from '../../src-main/core/db/engine.ts';
import type { SyncStatus } from '../../src-main/core/api/contract/sync.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import type { SyncOptions } from '../../src-main/core/sync/run-context.ts';
import { startHttpServer, type RunningServer } from '../../src-main/http/server.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { postgresBinDir } from '../../scripts/pg-cluster.ts';
import { serverDatabase } from '../support/server-database.ts';
import { typedClient } from './harness.ts';
import { documentText, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';

/** Retries short enough for tests, long enough to outlast a restart of the remote. */
export const FAST_SYNC: Partial<SyncOptions> = {
  retry: { baseMs: 20, maxMs: 300, maxAttempts: 6, maxRetryAfterMs: 5_000, timeoutMs: 15_000 },
};

export interface Instance {
  service: Service;
  url: string;
  port: number;
  token: string;
  /** the default company's public id (what the API shows) */
  companyId: string;
  /** the key its rows are stored under (what SQL binds) */
  companyKey: CompanyKey;
  ctx: Ctx;
  dataDir: string;
  server: RunningServer;
  /** every request served: `METHOD /path STATUS` */
  requests: string[];
  /** the typed client (as the renderer and sync use it) with the owner token; errors throw ApiClientError */
  api: ApiClient;
  /** a raw request, for what the typed client would not send (bad input, another token) */
  call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any; headers: Headers }>;
  /** stops serving HTTP (the data stays); `listen` serves again on the same port */
  stopServing(): Promise<void>;
  listen(): Promise<void>;
  /** closes and reopens the service on the same data dir and port; `backup` (from `backupOf`) replaces its database first */
  restart(backup?: string): Promise<void>;
  /** the PostgreSQL database it runs on (a remote in the postgres project); undefined on SQLite */
  readonly databaseUrl: string | undefined;
  close(): Promise<void>;
}

export interface InstanceOptions {
  sync?: Partial<SyncOptions>;
  rateLimit?: { perSecond: number; burst: number; exemptLocalOwner?: boolean };
  dataDir?: string;
  /**
   * The firm's shared remote: in the postgres project (test/support/server-database.ts)
   * it keeps its records on a PostgreSQL database of its own, dropped when it is closed
   * (a restart reopens the same one). Laptops stay on SQLite.
   */
  remote?: boolean;
}

/** A real service on a temp data dir (or `dataDir`), served on 127.0.0.1, rate limit out of the way unless asked. */
export async function startInstance(opts: InstanceOptions = {}): Promise<Instance> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'silodesk-sync-'));
  let database = opts.remote ? await serverDatabase() : { databaseUrl: undefined, drop: async () => undefined };
  const open = () =>
    openService(dataDir, { runner: { retryBaseMs: 20 }, sync: { ...FAST_SYNC, ...opts.sync }, autoSync: false, databaseUrl: database.databaseUrl });
  let service = await open();
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
  const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
  const rateLimit = opts.rateLimit ?? { perSecond: 1e6, burst: 1e6 };
  const requests: string[] = [];
  const log = (line: string) => {
    if (line.startsWith('internal error')) console.error(line);
    else requests.push(line.replace(/ [\d.]+ms$/, ''));
  };
  let server = await startHttpServer(service, { host: '127.0.0.1', port: 0, rateLimit, log });
  const port = server.port;
  const instance: Instance = {
    get service() {
      return service;
    },
    url: server.url,
    port,
    token,
    companyId: company.id,
    companyKey: company.key,
    get ctx() {
      return { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' as const } };
    },
    requests,
    // the port survives restart(), so one client serves the instance's whole life
    api: typedClient(server.url, token),
    dataDir,
    get server() {
      return server;
    },
    async call(method, path, body, asToken = token) {
      const res = await fetch(instance.url + path, {
        method,
        headers: { authorization: `Bearer ${asToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // binary: keep the text
      }
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    async stopServing() {
      await server.close();
    },
    async listen() {
      server = await startHttpServer(service, { host: '127.0.0.1', port, rateLimit, log });
    },
    async restart(backup?: string) {
      await server.close();
      await service.close();
      if (backup && database.databaseUrl) {
        // PostgreSQL: the backup is restored into a new database, which takes the old one's place
        const restored = await serverDatabase();
        await pgTool('pg_restore', ['--no-owner', `--dbname=${restored.databaseUrl}`, backup]);
        await database.drop();
        database = restored;
      } else if (backup) {
        for (const suffix of ['-wal', '-shm']) rmSync(join(dataDir, `silodesk.db${suffix}`), { force: true });
        copyFileSync(backup, join(dataDir, 'silodesk.db'));
      }
      service = await open();
      server = await startHttpServer(service, { host: '127.0.0.1', port, rateLimit, log });
      // let the client notice its kept-alive sockets to the old server are closed
      await new Promise((r) => setTimeout(r, 50));
    },
    get databaseUrl() {
      return database.databaseUrl;
    },
    async close() {
      await server.close().catch(() => undefined);
      await service.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return instance;
}

const execFileAsync = promisify(execFile);

/** Runs one of PostgreSQL's client programs (pg_dump, pg_restore) of the installed version. */
async function pgTool(program: string, args: string[]): Promise<void> {
  const bin = postgresBinDir();
  await execFileAsync(bin ? join(bin, program) : program, args);
}

/**
 * A consistent backup of an instance's database, taken while it runs, as a file for
 * `restart(backup)`: SQLite's online backup, or pg_dump of its PostgreSQL database.
 */
export async function backupOf(t: Instance): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'silodesk-backup-')), 'silodesk.db');
  if (t.databaseUrl) await pgTool('pg_dump', ['--format=custom', `--file=${file}`, t.databaseUrl]);
  else await t.service.db.sqlite!.backup(file);
  return file;
}

/** What an instance stands for in a test: the firm's shared remote, or a laptop that syncs with it. */
export type Role = 'remote' | 'laptop';

/**
 * The instances a test file starts, each closed after the test that started it: call it
 * once at the top of the file, then `instances('remote', 'laptop')` starts them at once.
 */
export function instancesClosedAfterEach(): (...roles: Role[]) => Promise<Instance[]> {
  let open: Instance[] = [];
  afterEach(async () => {
    const closing = open;
    open = [];
    await Promise.all(closing.map((t) => t.close()));
  });
  return async (...roles) => {
    const list = await Promise.all(roles.map((role) => startInstance({ remote: role === 'remote' })));
    open.push(...list);
    return list;
  };
}

/** `local` syncs with `remote` (owner token of the remote's default company). */
export async function connect(local: Instance, remote: Instance, token = remote.token): Promise<void> {
  await local.api.putSyncSettings({ body: { remote_url: remote.url, token, interval_minutes: 0 } });
}

/** Syncs and expects it to end well. */
export async function sync(local: Instance, opts: { allowMassDeletion?: boolean } = {}): Promise<SyncStatus> {
  const status = await local.service.sync.syncNow(local.companyKey, opts);
  expect(status.last_error, JSON.stringify(status.last_error)).toBeUndefined();
  return status;
}

export function invoiceDoc(code: string): Record<string, any> {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;
  doc.uuid = uuidv7();
  doc.code = code;
  return doc;
}

// The helpers answer `any`: the tests read whatever they check, the typed client has checked the call.
export async function putEntry(t: Instance, body: Record<string, unknown> = {}, id = uuidv7()): Promise<any> {
  return t.api.putEntry({ params: { id }, body: { data: invoiceDoc(`INV-${id.slice(-6)}`), ...body } });
}

export async function patch(t: Instance, id: string, body: Record<string, unknown>): Promise<any> {
  return t.api.patchEntry({ params: { id }, body: body as never });
}

export async function attach(t: Instance, entryId: string, fileId: string, bytes: Buffer, name = `${fileId}.txt`): Promise<any> {
  return t.api.putAttachment({ params: { entry_id: entryId, id: fileId }, body: { name, data: bytes.toString('base64') } });
}

export async function putMeta(t: Instance, entryId: string, key: string, value: unknown): Promise<any> {
  return t.api.putMeta({ params: { entry_id: entryId, key }, body: { src: 'erp', value: value as never } });
}

export async function createSeries(t: Instance, code: string): Promise<any> {
  return t.api.putSeries({ params: { id: uuidv4() }, body: { name: `Series ${code}`, code, prefix: `${code}-`, padding: 4 } });
}

export async function issue(t: Instance, seriesId: string, meta: Record<string, string> = {}): Promise<any> {
  return t.api.putSeriesEntry({ params: { series_id: seriesId, id: uuidv4() }, body: { meta } });
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Runs one read with `?` placeholders: a Db's (either engine) or a raw SQLite connection's. */
type Reader = (sql: string, params: unknown[]) => Promise<any[]>;

/**
 * Everything two instances must agree on after a sync, read straight from the
 * database, on either engine (entries outside the conflicts folder, with their document
 * digest and labels; attachments with the hash of the stored bytes; meta; current
 * workflow definitions; series and their entries).
 */
export async function snapshot(t: Instance) {
  return snapshotFrom(t.service.db, t.companyKey, (hash) => t.service.blobs.pathOf(hash));
}

/** The same, through any Db (e.g. one on the PostgreSQL database a serve child process used). */
export async function snapshotFrom(db: Db, c: CompanyKey, blobPath: (hash: string) => string) {
  return snapshotWith((sql, params) => db.sql(sql, params), c, blobPath);
}

/** The same, from any Silodesk SQLite database (e.g. one a killed child process left behind). */
export async function snapshotOf(db: Database.Database, c: CompanyKey, blobPath: (hash: string) => string) {
  return snapshotWith(async (sql, params) => db.prepare(sql).all(...params), c, blobPath);
}

/** Rows in a fixed order, sorted here: the engines' collations need not agree on text. */
function ordered<T extends Record<string, unknown>>(rows: T[], ...by: Array<keyof T>): T[] {
  const key = (r: T) => by.map((k) => (typeof r[k] === 'number' ? String(r[k]).padStart(20, '0') : String(r[k])));
  return rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}

async function snapshotWith(read: Reader, c: CompanyKey, blobPath: (hash: string) => string) {
  const entries = ordered(
    await read(`SELECT id, key, folder, state, tags, digest_val, data FROM entries WHERE company_id = ? AND folder != 'conflicts'`, [c]),
    'id',
  ).map((e) => ({ ...e, data: documentText(e.data as StoredDocument, e.id as string) }));
  const attachments = ordered(
    await read(
      `SELECT a.entry_id, a.id, a.name, a.hash, a.size FROM attachments a JOIN entries e ON e.company_id = a.company_id AND e.id = a.entry_id
       WHERE e.company_id = ? AND e.folder != 'conflicts'`,
      [c],
    ),
    'entry_id',
    'id',
  ).map((a) => ({ ...a, bytes: sha256(readFileSync(blobPath(a.hash))) }));
  const meta = ordered(
    await read(
      `SELECT m.entry_id, m.src, m.key, m.value, m.ref FROM entry_meta m JOIN entries e ON e.company_id = m.company_id AND e.id = m.entry_id
       WHERE e.company_id = ? AND e.folder != 'conflicts'`,
      [c],
    ),
    'entry_id',
    'src',
    'key',
  );
  const workflows = ordered(
    await read(
      `SELECT w.id, v.definition FROM workflows w JOIN workflow_versions v ON v.company_id = w.company_id AND v.workflow_id = w.id AND v.version = w.version
       WHERE w.company_id = ?`,
      [c],
    ),
    'id',
  ).map((w) => ({ id: w.id, definition: JSON.parse(w.definition) }));
  const series = ordered(
    await read(`SELECT id, name, code, prefix, padding, start, issuer, last_index, last_entry_id, sigs FROM series WHERE company_id = ?`, [c]),
    'id',
  );
  const seriesEntries = ordered(
    await read(
      `SELECT e.id, e.series_id, e.idx, e.code, e.meta, e.previous_id, e.sigs, e.created_at FROM series_entries e
       JOIN series s ON s.company_id = e.company_id AND s.id = e.series_id WHERE s.company_id = ?`,
      [c],
    ),
    'series_id',
    'idx',
  );
  return { entries, attachments, meta, workflows, series, seriesEntries };
}

export async function verifySeries(t: Instance, seriesId: string) {
  return t.api.verifySeries({ params: { id: seriesId } });
}

/** An entry in the trash, whole (GET of the entry itself answers 404 while it waits there). */
export async function trashedEntry(t: Instance, id: string): Promise<any> {
  expect((await t.call('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
  const res = await t.call('GET', `/silo/v1/trash/entries/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function conflicts(t: Instance): Promise<any[]> {
  return (await t.api.listSyncConflicts()).list;
}

/**
 * A copy of an instance's whole data folder, as someone copying it to another
 * laptop makes: the database (a consistent online backup), the keys, the files
 * and the api-token. Answers the new folder.
 */
export async function copyDataDir(t: Instance): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-copy-'));
  await t.service.db.sqlite!.backup(join(dir, 'silodesk.db'));
  for (const part of ['keys', 'files']) cpSync(join(t.dataDir, part), join(dir, part), { recursive: true });
  copyFileSync(join(t.dataDir, 'api-token'), join(dir, 'api-token'));
  return dir;
}
