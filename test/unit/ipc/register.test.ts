import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src-main/core/access/tokens.ts';
import { createCompany } from '../../../src-main/core/access/companies.ts';
import { ownerOf } from '../../../src-main/core/access/company-key.ts';
import { openService, type Service } from '../../../src-main/core/service.ts';
import { IPC_CHANNEL, type IpcAnswer, type IpcBinary } from '../../../src-main/ipc/channel.ts';
import { registerIpcHandlers, type IpcEventLike, type IpcMainLike } from '../../../src-main/ipc/register.ts';
import { isTrustedSender } from '../../../src-main/ipc/sender.ts';
import { callService } from '../../../src-main/service-process/host.ts';
import { createRelayClient, serveRelay } from '../../../src-main/service-process/relay.ts';
import { memoryPortPair } from '../relay/memory-ports.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

type Listener = (event: IpcEventLike, ...args: unknown[]) => Promise<IpcAnswer>;

const TRUSTED = { senderFrame: { url: 'app://silodesk/index.html' } };

let dir: string;
let service: Service;
let caller: Caller;
let channels: Map<string, Listener>;

function call(name: unknown, input?: unknown, event: IpcEventLike = TRUSTED): Promise<IpcAnswer> {
  const listener = channels.get(IPC_CHANNEL);
  if (!listener) throw new Error('no handler registered on the IPC channel');
  return listener(event, { name, input });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-ipc-'));
  service = await openService(dir);
  caller = await ownerOf(service.db, (await createCompany(service.db, 'IPC test company')).key);
  channels = new Map();
  const fakeIpcMain: IpcMainLike = {
    handle(channel, listener) {
      if (channels.has(channel)) throw new Error(`second handler on ${channel}`);
      channels.set(channel, listener);
    },
  };
  // The bridge relays to the service's end of the relay, in this process (the child process is test/unit/relay/).
  const [shellEnd, serviceEnd] = memoryPortPair();
  serveRelay(serviceEnd, async () => ({ call: (name, input) => callService(service, caller, name, input), close: async () => {} }), {
    onClosed: () => undefined,
  });
  const relay = createRelayClient(shellEnd);
  await relay.start({});
  registerIpcHandlers(fakeIpcMain, {
    relay: (name, input, who) => relay.call(name, input, who),
    isTrusted: (url) => isTrustedSender(url, 'app://silodesk'),
  });
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('registerIpcHandlers', () => {
  it('registers exactly one channel', () => {
    expect([...channels.keys()]).toEqual([IPC_CHANNEL]);
  });

  it('answers ping from the app window', async () => {
    expect(await call('ping')).toEqual({ ok: true, data: { ping: 'pong' } });
  });

  it('lists, stores and reads entries for the selected company', async () => {
    const empty = await call('listEntries', { query: { limit: 10 } });
    expect(empty).toMatchObject({ ok: true, data: { list: [], limit: 10 } });

    const { envelope } = loadEnvelopes()[0];
    const id: string = envelope.head.uuid;
    const put = await call('putEntry', { params: { id }, body: { data: envelope, folder: 'Inbox' } });
    expect(put, JSON.stringify(put)).toMatchObject({ ok: true, data: { id, folder: 'Inbox' } });

    const listed = await call('listEntries', { query: { limit: 10, folder: 'Inbox' } });
    expect(listed.ok && (listed.data as { list: Array<{ id: string }> }).list.map((e) => e.id)).toEqual([id]);

    // Another company sees none of it: the caller decides the company, not the request.
    const other = caller;
    caller = await ownerOf(service.db, (await createCompany(service.db, 'Other company')).key);
    try {
      expect(await call('listEntries', {})).toMatchObject({ ok: true, data: { list: [] } });
    } finally {
      caller = other;
    }
  });

  it('answers a binary result with the bytes themselves', async () => {
    const { envelope } = loadEnvelopes()[1];
    envelope.head.uuid = uuidv7(); // GOBL wants a head uuid with a timestamp
    const created = await call('createEntry', { body: { data: envelope } });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const id = (created as { data: { id: string } }).data.id;
    const bytes = randomBytes(5000);
    const put = await call('putAttachment', {
      params: { entry_id: id, id: 'scan' },
      body: { name: 'scan.pdf', data: bytes.toString('base64') },
    });
    expect(put.ok, JSON.stringify(put)).toBe(true);

    const got = await call('getAttachment', { params: { entry_id: id, id: 'scan' } });
    expect(got.ok, JSON.stringify(got)).toBe(true);
    const file = (got as { data: IpcBinary }).data;
    expect(file).toMatchObject({ mime: 'application/pdf', name: 'scan.pdf', size: bytes.length });
    expect(file.bytes).toBeInstanceOf(Uint8Array);
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(sha(file.bytes)).toBe(sha(bytes));
    expect(Object.keys(file)).not.toContain('file'); // never a path on disk
  });

  it.each<[string, IpcEventLike]>([
    ['a remote page', { senderFrame: { url: 'https://evil.example/' } }],
    ['a file:// page', { senderFrame: { url: 'file:///tmp/index.html' } }],
    ['about:blank', { senderFrame: { url: 'about:blank' } }],
    ['a frame with no URL', { senderFrame: {} }],
    ['a destroyed frame', { senderFrame: null }],
    ['no frame at all', {}],
  ])('refuses %s with forbidden', async (_what, event) => {
    const answer = await call('ping', undefined, event);
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error).toMatchObject({ key: 'forbidden', code: 'forbidden' });
  });

  it('refuses an untrusted frame before looking at the operation', async () => {
    const answer = await call('listEntries', {}, { senderFrame: { url: 'http://evil.example/' } });
    expect(!answer.ok && answer.error.key).toBe('forbidden');
  });

  it.each<[string, unknown]>([
    ['an unknown name', 'dropDatabase'],
    ['an inherited property', 'toString'],
    ['a prototype key', '__proto__'],
    ['a non-string name', 42],
  ])('answers not-found for %s', async (_what, name) => {
    const answer = await call(name, {});
    expect(!answer.ok && answer.error).toMatchObject({ key: 'not-found', code: 'not-found' });
  });

  it('answers bad-request for a bad UUID, with the field', async () => {
    const answer = await call('getEntry', { params: { id: 'not-a-uuid' } });
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error).toMatchObject({ key: 'bad-request', fields: { id: expect.any(String) } });
  });

  it('answers bad-request for a request that is not {name, input}', async () => {
    const listener = channels.get(IPC_CHANNEL)!;
    const answer = await listener(TRUSTED, 'ping');
    expect(!answer.ok && answer.error.key).toBe('bad-request');
    const badInput = await call('ping', ['params']);
    expect(!badInput.ok && badInput.error.key).toBe('bad-request');
  });

  it('answers validation with fields by JSON path for a bad body', async () => {
    const answer = await call('createEntry', { body: { data: 'not an object' } });
    expect(!answer.ok && answer.error).toMatchObject({ key: 'validation', fields: { '$.data': expect.any(String) } });
  });

  it('answers not-found for a missing entry', async () => {
    const answer = await call('getEntry', { params: { id: '0190a4c2-0000-7000-8000-000000000000' } });
    expect(!answer.ok && answer.error.key).toBe('not-found');
  });
});
