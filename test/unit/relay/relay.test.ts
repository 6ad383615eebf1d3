import { describe, expect, it } from 'vitest';
import { createClient } from '../../../src-main/core/api/client/client.ts';
import { ApiClientError } from '../../../src-main/core/api/client/errors.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createRelayClient, serveRelay, type RelayHandler, type RelayPort } from '../../../src-main/service-process/relay.ts';
import { relayTransport } from '../../../src-main/service-process/relay-transport.ts';
import { memoryPortPair } from './memory-ports.ts';

const DESKTOP = { kind: 'desktop' } as const;
const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

/** A relay whose service end runs `handler`; `closedWith` collects onClosed codes, `logs` what it logged. */
function relayOver(handler: Partial<RelayHandler> & { open?: () => Promise<RelayHandler> }) {
  const [shellEnd, serviceEnd] = memoryPortPair();
  const closedWith: number[] = [];
  const logs: string[] = [];
  const notices: unknown[] = [];
  serveRelay<{ who: string }, { hello: string }>(
    serviceEnd,
    async (config, notify) => {
      notify({ hello: config.who });
      if (handler.open) return handler.open();
      return { call: async () => null, close: async () => undefined, ...handler };
    },
    { onClosed: (code) => closedWith.push(code), log: (line) => logs.push(line) },
  );
  const relay = createRelayClient<{ who: string }, { hello: string }>(shellEnd, { onNotice: (n) => notices.push(n) });
  return { relay, closedWith, logs, notices, shellEnd, serviceEnd };
}

describe('the relay', () => {
  it('starts the service with its config, passes notices back, and answers calls with their data', async () => {
    const seen: unknown[] = [];
    const { relay, notices } = relayOver({
      call: async (name, input, caller) => {
        seen.push({ name, input, caller });
        return { echo: input.body };
      },
    });
    await relay.start({ who: 'shell' });
    expect(notices).toEqual([{ hello: 'shell' }]);
    const input = { body: { n: 1 }, params: { id: 'x' }, headers: { 'if-match': '"3"' } };
    const answer = await relay.call('patchEntry', input, { kind: 'desktop', company_id: 'c1' });
    expect(answer).toEqual({ ok: true, data: { echo: { n: 1 } } });
    expect(seen).toEqual([{ name: 'patchEntry', input: { ...input, query: undefined }, caller: { kind: 'desktop', company_id: 'c1' } }]);
  });

  it('carries an ApiError as its JSON, fields included, and hides anything else behind a bare internal error', async () => {
    const { relay, logs } = relayOver({
      call: async (name) => {
        if (name === 'getEntry') throw new ApiError('not-found', 'entry x not found');
        if (name === 'createEntry') throw new ApiError('validation', 'request body is not valid', { '$.data': 'expected object' });
        throw new Error('SQLITE_CORRUPT: select * from secrets');
      },
    });
    await relay.start({ who: 'x' });
    expect(await relay.call('getEntry', {}, DESKTOP)).toEqual({
      ok: false,
      error: { key: 'not-found', code: 'not-found', message: 'entry x not found' },
    });
    expect(await relay.call('createEntry', {}, DESKTOP)).toEqual({
      ok: false,
      error: { key: 'validation', code: 'validation', message: 'request body is not valid', fields: { '$.data': 'expected object' } },
    });
    const internal = await relay.call('ping', {}, DESKTOP);
    expect(internal).toEqual({ ok: false, error: { key: 'internal', code: 'internal', message: 'internal error' } });
    expect(JSON.stringify(internal)).not.toContain('SQLITE');
    // …which the log keeps, for whoever runs the app
    expect(logs.some((l) => l.includes('internal error in ping') && l.includes('SQLITE_CORRUPT'))).toBe(true);
  });

  it('answers concurrent calls each with its own answer, in the order they finish', async () => {
    const { relay } = relayOver({
      call: async (_name, input) => {
        const n = (input.body as { n: number }).n;
        await tick((20 - n) * 2); // the first asked finishes last
        if (n % 7 === 3) throw new ApiError('conflict', `n ${n} conflicts`);
        return { n };
      },
    });
    await relay.start({ who: 'x' });
    const finished: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        relay.call('ping', { body: { n } }, DESKTOP).then((a) => {
          finished.push(n);
          return a;
        }),
      ),
    );
    answers.forEach((answer, n) => {
      if (n % 7 === 3) expect(answer).toMatchObject({ ok: false, error: { key: 'conflict', message: `n ${n} conflicts` } });
      else expect(answer).toEqual({ ok: true, data: { n } });
    });
    expect(finished[0]).toBeGreaterThan(finished[19]);
  });

  it('gives the typed client typed answers and ApiClientErrors with their status', async () => {
    const { relay } = relayOver({
      call: async (name) => {
        if (name === 'ping') return { ping: 'pong' };
        throw new ApiError('validation', 'bad', { '$.data': 'expected object' });
      },
    });
    await relay.start({ who: 'x' });
    const api = createClient(relayTransport(relay, DESKTOP));
    const pong: { ping: string } = await api.ping();
    expect(pong).toEqual({ ping: 'pong' });
    const err = await api.createEntry({ body: { data: {} } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({ key: 'validation', status: 422, fields: { '$.data': 'expected object' } });
  });

  it('waits for the service to open before running a call sent meanwhile', async () => {
    let open!: (h: RelayHandler) => void;
    const { relay } = relayOver({ open: () => new Promise<RelayHandler>((resolve) => (open = resolve)) });
    const started = relay.start({ who: 'x' });
    await tick();
    const early = relay.call('ping', {}, DESKTOP);
    await tick();
    open({ call: async () => 'opened', close: async () => undefined });
    await started;
    expect(await early).toEqual({ ok: true, data: 'opened' });
  });

  it('rejects start with the reason the service could not open, and the service end says it is done', async () => {
    const { relay, closedWith } = relayOver({
      open: async () => {
        throw new Error('signing key 1234 is encrypted by the desktop app; open this data dir there');
      },
    });
    await expect(relay.start({ who: 'x' })).rejects.toThrow(/encrypted by the desktop app/);
    expect(closedWith).toEqual([1]);
  });

  it('on shutdown finishes the calls under way, then closes, then refuses more', async () => {
    const order: string[] = [];
    const { relay, closedWith } = relayOver({
      call: async () => {
        await tick(30);
        order.push('call done');
        return 'ok';
      },
      close: async () => void order.push('closed'),
    });
    await relay.start({ who: 'x' });
    const underWay = relay.call('ping', {}, DESKTOP);
    await tick();
    const stopped = relay.shutdown();
    expect(await relay.call('ping', {}, DESKTOP)).toMatchObject({ ok: false, error: { key: 'unavailable' } });
    expect(await underWay).toEqual({ ok: true, data: 'ok' });
    await stopped;
    expect(order).toEqual(['call done', 'closed']);
    expect(closedWith).toEqual([0]);
    expect(await relay.call('ping', {}, DESKTOP)).toMatchObject({ ok: false, error: { key: 'unavailable' } });
  });

  it('answers the calls waiting on a service process that died with unavailable', async () => {
    const { relay } = relayOver({ call: () => new Promise(() => undefined) });
    await relay.start({ who: 'x' });
    const waiting = relay.call('ping', {}, DESKTOP);
    relay.lost('the service process stopped (exit code 9)');
    expect(await waiting).toEqual({
      ok: false,
      error: { key: 'unavailable', code: 'unavailable', message: 'the service process stopped (exit code 9)' },
    });
    expect(await relay.call('ping', {}, DESKTOP)).toMatchObject({ ok: false, error: { key: 'unavailable' } });
  });

  it('refuses what cannot cross a process boundary, either way, without hanging the call', async () => {
    const { relay, logs } = relayOver({ call: async () => ({ callback: () => 1 }) });
    await relay.start({ who: 'x' });
    expect(await relay.call('ping', { body: { fn: () => 1 } }, DESKTOP)).toMatchObject({ ok: false, error: { key: 'bad-request' } });
    expect(await relay.call('ping', {}, DESKTOP)).toEqual({ ok: false, error: { key: 'internal', code: 'internal', message: 'internal error' } });
    expect(logs.some((l) => l.includes('could not be sent'))).toBe(true);
  });

  it('checks every call message on the service side: a bad one is refused, one without an id is dropped', async () => {
    const [shellEnd, serviceEnd] = memoryPortPair();
    const calls: string[] = [];
    serveRelay(serviceEnd, async () => ({ call: async (name) => void calls.push(name), close: async () => undefined }), {
      onClosed: () => undefined,
    });
    const got: unknown[] = [];
    shellEnd.onMessage((m) => got.push(m));
    const send = (m: unknown) => shellEnd.postMessage(m);
    send({ type: 'start', config: {} });
    send({ type: 'call', id: 1, name: '', input: {}, caller: DESKTOP });
    send({ type: 'call', id: 2, name: 'ping', input: ['params'], caller: DESKTOP });
    send({ type: 'call', id: 3, name: 'ping', input: {}, caller: { kind: 'root' } });
    send({ type: 'call', id: 4, name: 'ping', input: {}, caller: { kind: 'desktop', company_id: 7 } });
    send({ type: 'call', id: -1, name: 'ping', input: {}, caller: DESKTOP });
    send({ type: 'call', name: 'ping', input: {}, caller: DESKTOP });
    send({ type: 'call', id: 5, name: 'ping', input: null, caller: DESKTOP });
    send('not an object');
    await tick(20);
    const answers = got.filter((m) => (m as { type: string }).type === 'answer') as Array<{ id: number; ok: boolean; error?: { key: string } }>;
    expect(answers.map((a) => [a.id, a.ok, a.error?.key])).toEqual([
      [1, false, 'bad-request'],
      [2, false, 'bad-request'],
      [3, false, 'bad-request'],
      [4, false, 'bad-request'],
      [5, true, undefined],
    ]);
    expect(calls).toEqual(['ping']);
  });

  it('ignores an answer to no call and a malformed error body becomes internal', async () => {
    const [shellEnd, serviceEnd] = memoryPortPair();
    const relay = createRelayClient(shellEnd);
    const fakeService: RelayPort = serviceEnd;
    fakeService.onMessage((m) => {
      const msg = m as { type: string; id?: number };
      if (msg.type === 'start') fakeService.postMessage({ type: 'ready' });
      if (msg.type === 'call') {
        fakeService.postMessage({ type: 'answer', id: 999, ok: true, data: 'stray' });
        fakeService.postMessage({ type: 'answer', id: msg.id, ok: false, error: { key: 'root', message: 1 } });
      }
    });
    await relay.start({});
    expect(await relay.call('ping', {}, DESKTOP)).toEqual({ ok: false, error: { key: 'internal', code: 'internal', message: 'internal error' } });
  });
});
