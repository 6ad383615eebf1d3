import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src-main/core/api/client/client.ts';
import { ApiClientError } from '../../../src-main/core/api/client/errors.ts';
import type { KeySealer } from '../../../src-main/core/keys/key-files.ts';
import { ServiceSupervisor } from '../../../src-main/desktop/service-supervisor.ts';
import { unsealSigningKeys } from '../../../src-main/service-process/handed-keys.ts';
import { SERVICE_V8_FLAGS } from '../../../src-main/service-process/heap.ts';
import type { ServiceNotice } from '../../../src-main/service-process/host.ts';
import { fromProcessChannel } from '../../../src-main/service-process/ports.ts';
import { relayTransport } from '../../../src-main/service-process/relay-transport.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

/**
 * The service in a child process, started the way the desktop shell starts it
 * (ServiceSupervisor, the same entry file, a structured-clone channel), with
 * child_process.fork standing in for Electron's utilityProcess.fork: from its sources,
 * and as the desktop build bundles it (out/main/service.js, made here by `npm run build`'s
 * electron-vite), where what a bundle can lose shows (GOBL's data, PDFKit's fonts).
 */
const ENTRIES = [
  { name: 'from its sources', entry: resolve('src-main/service-process/entry.ts'), build: false },
  { name: 'as the desktop build runs it', entry: resolve('out/main/service.js'), build: true },
];

/** `electron-vite build`, as `npm run build` runs it: the shell, the service process, the preload and the window. */
function buildDesktop(): void {
  const cli = join(dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  const built = spawnSync(process.execPath, [cli, 'build', '--logLevel', 'warn'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (built.status !== 0) throw new Error(`electron-vite build failed (${built.status})`);
}

/** A stand-in for the OS keychain: reversible, and plainly not the key. */
const keychain: KeySealer = {
  encrypt: (plain) => Buffer.concat([Buffer.from('sealed:'), Buffer.from(plain.map((b) => b ^ 0x5a))]),
  decrypt: (sealed) => {
    if (!sealed.subarray(0, 7).equals(Buffer.from('sealed:'))) throw new Error('not sealed by this keychain');
    return Buffer.from(sealed.subarray(7).map((b) => b ^ 0x5a));
  },
};

let dataDir: string;
let children: ChildProcess[];
let notices: ServiceNotice[];
let gaveUp: string[];
let supervisor: ServiceSupervisor;

function startSupervisor(entry: string): ServiceSupervisor {
  return new ServiceSupervisor({
    fork: () => {
      const child = fork(entry, [], { serialization: 'advanced', execArgv: [...SERVICE_V8_FLAGS], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.on('exit', (code, signal) => code && signal !== 'SIGKILL' && console.error(`service process exited ${code}: ${stderr}`));
      children.push(child);
      return { port: fromProcessChannel(child), onExit: (listener) => void child.on('exit', listener), kill: () => void child.kill('SIGKILL') };
    },
    config: async () => ({
      dataDir,
      keys: await unsealSigningKeys(dataDir, keychain),
      localApi: { enabled: false, port: 4100 },
      tuning: { autoSync: false },
    }),
    onNotice: (notice) => notices.push(notice),
    onGiveUp: (why) => gaveUp.push(why),
    stopTimeoutMs: 10_000,
  });
}

const api = () => createClient(relayTransport(supervisor, { kind: 'desktop' }));

function invoice(code: string) {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = envelope.head.uuid;
  envelope.doc.code = code;
  return envelope;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

describe.each(ENTRIES)('the service process $name, driven through the relay', ({ entry, build }) => {
  beforeAll(async () => {
    if (build) buildDesktop();
    dataDir = mkdtempSync(join(tmpdir(), 'silodesk-service-process-'));
    children = [];
    notices = [];
    gaveUp = [];
    supervisor = startSupervisor(entry);
    await supervisor.start();
  }, 120_000);

  afterAll(async () => {
    await supervisor.stop();
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs in another process and answers typed operations', async () => {
    expect(children[0].pid).not.toBe(process.pid);
    const pong: { ping: string } = await api().ping();
    expect(pong).toEqual({ ping: 'pong' });
    const session = await api().getSession();
    expect(session.caller.kind).toBe('owner');
    expect(session.instance_id).toMatch(/^[0-9a-f-]{36}$/);

    const envelope = invoice('RELAY-1');
    const stored = await api().putEntry({ params: { id: envelope.head.uuid }, body: { data: envelope, folder: 'Inbox' } });
    expect(stored).toMatchObject({ id: envelope.head.uuid, folder: 'Inbox' });
    const read = await api().getEntry({ params: { id: envelope.head.uuid } });
    expect(read.id).toBe(envelope.head.uuid);
  });

  it('calculates with GOBL’s data and renders a PDF with PDFKit’s fonts', async () => {
    const envelope = invoice('RELAY-PDF');
    const { totals } = envelope.doc;
    delete envelope.doc.totals;
    const stored = await api().putEntry({ params: { id: envelope.head.uuid }, body: { data: envelope.doc } });
    expect((stored.data as { doc: { totals: unknown } }).doc.totals).toEqual(totals);
    const workflow = await api().putWorkflow({ params: { id: uuidv7() }, body: { name: 'Render', steps: [{ provider: 'pdf', config: {} }] } });
    const job = await api().createJob({ query: { wait: 30 }, body: { workflow_id: workflow.id, silo_entry_id: stored.id } });
    expect(job.status, JSON.stringify(job)).toBe('OK');
    const read = await api().getEntry({ params: { id: stored.id } });
    expect(read.attachments.find((a) => a.mime === 'application/pdf')?.size).toBeGreaterThan(10_000);
  });

  it('gets a 404 and a 422 back as the ApiError they were, fields included', async () => {
    const missing = await api().getEntry({ params: { id: '0190a4c2-0000-7000-8000-000000000000' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiClientError);
    expect(missing).toMatchObject({ key: 'not-found', code: 'not-found', status: 404 });

    const invalid = await api().createEntry({ body: { data: 'not an object' as never } }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiClientError);
    expect(invalid).toMatchObject({ key: 'validation', status: 422, fields: { '$.data': expect.any(String) } });

    const badId = await api().getEntry({ params: { id: 'not-a-uuid' } }).catch((e: unknown) => e);
    expect(badId).toMatchObject({ key: 'bad-request', status: 400, fields: { id: expect.any(String) } });
  });

  it('survives many concurrent calls, each answered with its own result', async () => {
    const envelopes = Array.from({ length: 30 }, (_, i) => invoice(`CONC-${i}`));
    const results = await Promise.allSettled([
      ...envelopes.map((e) => api().putEntry({ params: { id: e.head.uuid }, body: { data: e, folder: 'Concurrent' } })),
      ...Array.from({ length: 10 }, () => api().getEntry({ params: { id: '0190a4c2-0000-7000-8000-00000000ffff' } })),
      ...Array.from({ length: 10 }, () => api().ping()),
    ]);
    results.slice(0, 30).forEach((r, i) => expect(r.status === 'fulfilled' && (r.value as { id: string }).id).toBe(envelopes[i].head.uuid));
    results.slice(30, 40).forEach((r) => expect(r.status === 'rejected' && (r.reason as ApiClientError).key).toBe('not-found'));
    results.slice(40).forEach((r) => expect(r.status === 'fulfilled' && r.value).toEqual({ ping: 'pong' }));
    const listed = await api().listEntries({ query: { folder: 'Concurrent', limit: 100 } });
    expect(listed.list).toHaveLength(30);
  });

  it('signs with the key the shell unsealed, and no key file on disk is unsealed', async () => {
    const files = readdirSync(join(dataDir, 'keys')).filter((f) => f !== 'current');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/\.jwk\.sealed$/);
      expect(readFileSync(join(dataDir, 'keys', file), 'latin1')).not.toContain('"d"');
    }
    const jwks = await api().getKeys();
    expect(jwks.keys.map((k) => `${k.kid}.jwk.sealed`).sort()).toEqual(files.sort());
  });

  it('serves the localhost HTTP API from the service process, and the shell is told to save the setting', async () => {
    const port = await freePort();
    const state = await api().setLocalApi({ body: { enabled: true, port } });
    expect(state).toMatchObject({ enabled: true, running: true, url: `http://127.0.0.1:${port}` });
    expect(notices.at(-1)).toEqual({ kind: 'local-api-setting', setting: { enabled: true, port } });
    const token = 'sd_not-a-token';
    const res = await fetch(`http://127.0.0.1:${port}/utils/v1/ping`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    await api().setLocalApi({ body: { enabled: false, port } });
    await expect(fetch(`http://127.0.0.1:${port}/utils/v1/ping`)).rejects.toThrow();
  });

  it('is started again when its process dies, and carries on with the same data', async () => {
    const first = children.at(-1)!;
    const before = await api().listEntries({ query: { folder: 'Concurrent', limit: 100 } });
    first.kill('SIGKILL');
    await exited(first);
    // calls made while it comes back wait for it, then are answered
    const answered = await waitFor(async () => (await api().listEntries({ query: { folder: 'Concurrent', limit: 100 } })).list.length);
    expect(answered).toBe(before.list.length);
    expect(children.length).toBe(2);
    expect(children[1].pid).not.toBe(first.pid);
    expect(gaveUp).toEqual([]);
  });

  it('shuts down cleanly: calls under way are answered, the database is closed, later calls are refused', async () => {
    const child = children.at(-1)!;
    const envelopes = Array.from({ length: 10 }, (_, i) => invoice(`LAST-${i}`));
    const underWay = envelopes.map((e) => api().putEntry({ params: { id: e.head.uuid }, body: { data: e, folder: 'Last' } }));
    const stopped = supervisor.stop();
    expect((await Promise.all(underWay)).map((e) => e.id)).toEqual(envelopes.map((e) => e.head.uuid));
    await stopped;
    expect(await exited(child)).toBe(0);
    const refused = await api().ping().catch((e: unknown) => e);
    expect(refused).toMatchObject({ key: 'unavailable' });
    // closed, not cut off: the WAL has been checkpointed away and the data is all there
    expect(readdirSync(dataDir)).not.toContain('silodesk.db-wal');
    const db = new Database(join(dataDir, 'silodesk.db'), { readonly: true });
    try {
      const n = db.prepare(`SELECT count(*) AS n FROM entries WHERE folder IN ('Concurrent', 'Last')`).get() as { n: number };
      expect(n.n).toBe(40);
    } finally {
      db.close();
    }
  });
});

/** Retries `read` until it answers (the service is coming back), for up to 15 s. */
async function waitFor<T>(read: () => Promise<T>): Promise<T> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (Date.now() > until || !(err instanceof ApiClientError) || err.key !== 'unavailable') throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
