import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookProvider } from '../../../src-main/core/transform/providers/webhook.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';
import { openProviderTestBed, type ProviderTestBed } from './provider-test-context.ts';

const TOKEN = 'sd-test-token-0123456789abcdef';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

let bed: ProviderTestBed;
let server: Server;
let base: string;
let received: Received[] = [];
// what the receiver does with the next requests: answer a status, or never answer
let behaviour: { status: number; location?: string } | 'hang' = { status: 200 };

beforeAll(async () => {
  bed = await openProviderTestBed();
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined });
      if (behaviour === 'hang') return;
      res.writeHead(behaviour.status, behaviour.location ? { location: behaviour.location } : {});
      // A body that mentions the token: it must not come back in a message.
      res.end(behaviour.status === 204 ? undefined : `echo ${req.headers.authorization ?? ''}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  received = [];
  behaviour = { status: 200 };
  vi.restoreAllMocks();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await bed.close();
});

async function run(config: Record<string, unknown>, options: Parameters<ProviderTestBed['stepContext']>[1] = {}, entryId?: string) {
  const id = entryId ?? await bed.entry(loadEnvelope('es-invoice-es-es.json'));
  return webhookProvider.run(bed.stepContext(id, options), webhookProvider.config.parse(config));
}

describe('webhook provider', () => {
  it('POSTs the step event as JSON with the bearer token, and 200 is OK', async () => {
    const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const jobId = '0196f2a0-0000-7000-8000-000000000001';
    const result = await run(
      { callback_url: `${base}/hooks/silodesk?x=1`, event: 'success', bearer_token: TOKEN },
      { jobId, stepId: 'step-1', args: { ledger: 'sales' }, key: 'inv-42' },
      entryId,
    );

    expect(result).toMatchObject({ status: 'OK', code: 'http-200' });
    expect(result.apply).toBeUndefined();
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/silodesk?x=1');
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'success',
      transform_job_id: jobId,
      silo_entry_id: entryId,
      owner_id: expect.any(String),
      key: 'inv-42',
      args: { ledger: 'sales' },
      faults: [],
    });
    expect(request.headers['idempotency-key']).toBe(request.body.id);
  });

  it('gives the same event id to every retry of a step, and another to another step', async () => {
    const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const jobId = '0196f2a0-0000-7000-8000-000000000002';
    await run({ url: base }, { jobId, stepId: 'step-a' }, entryId);
    await run({ url: base }, { jobId, stepId: 'step-a' }, entryId);
    await run({ url: base }, { jobId, stepId: 'step-b' }, entryId);
    const ids = received.map((r) => r.body.id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('sends no Authorization header without a token', async () => {
    await run({ url: base });
    expect(received[0].headers.authorization).toBeUndefined();
  });

  it("sends the entry's faults", async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.currency = 'not a currency';
    await run({ url: base }, {}, await bed.entry(envelope));
    expect(received[0].body.faults.length).toBeGreaterThan(0);
    expect(received[0].body.faults[0]).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it.each([
    [200, 'OK'],
    [204, 'OK'],
    [201, 'ERR'],
    [202, 'ERR'],
    [500, 'ERR'],
    [502, 'ERR'],
    [503, 'ERR'],
    [408, 'ERR'],
    [429, 'ERR'],
    [400, 'KO'],
    [401, 'KO'],
    [403, 'KO'],
    [404, 'KO'],
    [410, 'KO'],
    [422, 'KO'],
  ])('answers %i → %s', async (status, outcome) => {
    behaviour = { status };
    const result = await run({ url: base, bearer_token: TOKEN });
    expect(result).toMatchObject({ status: outcome, code: `http-${status}` });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('does not follow redirects: a 3xx is KO and the target is never called', async () => {
    behaviour = { status: 302, location: `${base}/elsewhere` };
    const result = await run({ url: `${base}/first`, bearer_token: TOKEN });
    expect(result).toMatchObject({ status: 'KO', code: 'http-302' });
    expect(received.map((r) => r.url)).toEqual(['/first']);
  });

  it('is ERR when the receiver does not answer before the step is aborted', async () => {
    behaviour = 'hang';
    const started = Date.now();
    const result = await run({ url: base, bearer_token: TOKEN }, { signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ status: 'ERR', code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(received).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('is ERR on a network error, without the token in the message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const result = await run({ url: `http://127.0.0.1:${port}/`, bearer_token: TOKEN });
    expect(result).toMatchObject({ status: 'ERR', code: 'network' });
    expect(result.message).toContain('ECONNREFUSED');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('refuses a host that is not allowed without making any request', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const result = await run({ url: 'https://example.invalid/hook', bearer_token: TOKEN });
    expect(result).toMatchObject({ status: 'KO', code: 'host-not-allowed' });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(received).toHaveLength(0);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it.each([
    'http://127.0.0.1.nip.io/',
    'http://localhost.evil.com/',
    `http://127.0.0.1@example.invalid/`,
    'http://169.254.169.254/latest/meta-data/',
  ])('refuses %s without a request', async (url) => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    expect(await run({ url })).toMatchObject({ status: 'KO', code: 'host-not-allowed' });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('calls a host on the allow list', async () => {
    const allowing = await openProviderTestBed({ webhookAllowedHosts: ['example.invalid'] });
    try {
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      const id = await allowing.entry(loadEnvelope('es-invoice-es-es.json'));
      const result = await webhookProvider.run(allowing.stepContext(id), { callback_url: 'http://example.invalid/hook' });
      // .invalid never resolves: the call was attempted and failed in the network.
      expect(fetchSpy).toHaveBeenCalledOnce();
      expect(result).toMatchObject({ status: 'ERR', code: 'network' });
    } finally {
      await allowing.close();
    }
  });

  it('validates its config', () => {
    const parse = (config: unknown) => webhookProvider.config.safeParse(config).success;
    expect(parse({ url: 'http://127.0.0.1/' })).toBe(true);
    expect(parse({ url: 'https://erp.example.com/x', bearer_token: 'abc.DEF-123_~+/=' })).toBe(true);
    expect(parse({ url: 'ftp://127.0.0.1/' })).toBe(false);
    expect(parse({ url: 'not a url' })).toBe(false);
    expect(parse({ url: 'http://127.0.0.1/', bearer_token: 'has space' })).toBe(false);
    expect(parse({ url: 'http://127.0.0.1/', bearer_token: 'line\nbreak' })).toBe(false);
    expect(parse({ url: 'http://127.0.0.1/', extra: 1 })).toBe(false);
  });

  it('takes the hosted callback_url + event, and url as the older name of callback_url', () => {
    const { config } = webhookProvider;
    expect(config.parse({ callback_url: 'http://127.0.0.1/a', event: 'error' })).toEqual({ callback_url: 'http://127.0.0.1/a', event: 'error' });
    expect(config.parse({ url: 'http://127.0.0.1/a' })).toEqual({ callback_url: 'http://127.0.0.1/a' });
    // both at once is ambiguous: refused
    expect(config.safeParse({ url: 'http://127.0.0.1/a', callback_url: 'http://127.0.0.1/b' }).success).toBe(false);
    expect(config.safeParse({ callback_url: 'http://127.0.0.1/a', event: 'bad\nevent' }).success).toBe(false);
  });
});
