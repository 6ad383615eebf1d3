import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterEach, expect } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import type { ApiClient } from '../../src-main/core/api/client/client.ts';
import type { Ctx } from '../../src-main/core/api/handler.ts';
import type { SyncStatus } from '../../src-main/core/api/contract/sync.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import type { SyncOptions } from '../../src-main/core/sync/run-context.ts';
import { startHttpServer, type RunningServer } from '../../src-main/http/server.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { typedClient } from './harness.ts';

/** Retries short enough for tests, long enough to outlast a restart of the remote. */
export const FAST_SYNC: Partial<SyncOptions> = {
  retry: { baseMs: 20, maxMs: 300, maxAttempts: 6, maxRetryAfterMs: 5_000, timeoutMs: 15_000 },
};

export interface Instance {
  service: Service;
  url: string;
  port: number;
  token: string;
  companyId: string;
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
  /** closes and reopens the service on the same data dir and port; `database` replaces silodesk.db first */
  restart(database?: string): Promise<void>;
  close(): Promise<void>;
}

/** A real service on a temp data dir (or `dataDir`), served on 127.0.0.1, rate limit out of the way unless asked. */
export async function startInstance(
  opts: { sync?: Partial<SyncOptions>; rateLimit?: { perSecond: number; burst: number; exemptLocalOwner?: boolean }; dataDir?: string } = {},
): Promise<Instance> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'silodesk-sync-'));
  const open = () => openService(dataDir, { runner: { retryBaseMs: 20 }, sync: { ...FAST_SYNC, ...opts.sync }, autoSync: false });
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
    get ctx() {
      return { service, caller: { companyId: company.id, kind: 'owner' as const } };
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
    async restart(database?: string) {
      await server.close();
      await service.close();
      if (database) {
        for (const suffix of ['-wal', '-shm']) rmSync(join(dataDir, `silodesk.db${suffix}`), { force: true });
        copyFileSync(database, join(dataDir, 'silodesk.db'));
      }
      service = await open();
      server = await startHttpServer(service, { host: '127.0.0.1', port, rateLimit, log });
      // let the client notice its kept-alive sockets to the old server are closed
      await new Promise((r) => setTimeout(r, 50));
    },
    async close() {
      await server.close().catch(() => undefined);
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return instance;
}

/** `local` syncs with `remote` (owner token of the remote's default company). */
/**
 * The instances a test file starts, each closed after the test that started it: call it
 * once at the top of the file, then `instances(n)` starts n at once.
 */
export function instancesClosedAfterEach(): (n: number) => Promise<Instance[]> {
  let open: Instance[] = [];
  afterEach(async () => {
    const closing = open;
    open = [];
    await Promise.all(closing.map((t) => t.close()));
  });
  return async (n) => {
    const list = await Promise.all(Array.from({ length: n }, () => startInstance()));
    open.push(...list);
    return list;
  };
}

export async function connect(local: Instance, remote: Instance, token = remote.token): Promise<void> {
  await local.api.putSyncSettings({ body: { remote_url: remote.url, token, interval_minutes: 0 } });
}

/** Syncs and expects it to end well. */
export async function sync(local: Instance, opts: { allowMassDeletion?: boolean } = {}): Promise<SyncStatus> {
  const status = await local.service.sync.syncNow(local.companyId, opts);
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

/**
 * Everything two instances must agree on after a sync, read straight from the
 * database (entries outside the conflicts folder, with their document digest and
 * labels; attachments with the hash of the stored bytes; meta; current workflow
 * definitions; series and their entries).
 */
export function snapshot(t: Instance) {
  return snapshotOf(t.service.db.sqlite!, t.companyId, (hash) => t.service.blobs.pathOf(hash));
}

/** The same, from any Silodesk database (e.g. one a killed child process left behind). */
export function snapshotOf(db: Database.Database, c: string, blobPath: (hash: string) => string) {
  const entries = db
    .prepare(`SELECT id, key, folder, state, tags, digest_val, data FROM entries WHERE company_id = ? AND folder != 'conflicts' ORDER BY id`)
    .all(c) as any[];
  const attachments = (
    db
      .prepare(
        `SELECT a.entry_id, a.id, a.name, a.hash, a.size FROM attachments a JOIN entries e ON e.company_id = a.company_id AND e.id = a.entry_id
         WHERE e.company_id = ? AND e.folder != 'conflicts' ORDER BY a.entry_id, a.id`,
      )
      .all(c) as any[]
  ).map((a) => ({ ...a, bytes: sha256(readFileSync(blobPath(a.hash))) }));
  const meta = db
    .prepare(
      `SELECT m.entry_id, m.src, m.key, m.value, m.ref FROM entry_meta m JOIN entries e ON e.company_id = m.company_id AND e.id = m.entry_id
       WHERE e.company_id = ? AND e.folder != 'conflicts' ORDER BY m.entry_id, m.src, m.key`,
    )
    .all(c);
  const workflows = (
    db
      .prepare(
        `SELECT w.id, v.definition FROM workflows w JOIN workflow_versions v ON v.company_id = w.company_id AND v.workflow_id = w.id AND v.version = w.version
         WHERE w.company_id = ? ORDER BY w.id`,
      )
      .all(c) as any[]
  ).map((w) => ({ id: w.id, definition: JSON.parse(w.definition) }));
  const series = db
    .prepare(`SELECT id, name, code, prefix, padding, start, issuer, last_index, last_entry_id, sigs FROM series WHERE company_id = ? ORDER BY id`)
    .all(c);
  const seriesEntries = db
    .prepare(
      `SELECT e.id, e.series_id, e.idx, e.code, e.meta, e.previous_id, e.sigs, e.created_at FROM series_entries e
       JOIN series s ON s.company_id = e.company_id AND s.id = e.series_id WHERE s.company_id = ? ORDER BY e.series_id, e.idx`,
    )
    .all(c);
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
