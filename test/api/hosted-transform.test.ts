import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v1 as uuidv1, v4 as uuidv4, v6 as uuidv6, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The transform API as clients of the hosted service use it (issue 15): their
 * job ids, their paging loop, their limits, `wait=true`, key replays, workflows
 * copied from the hosted console, and the hosted webhook step.
 */
let t: TestServer;
let entryId: string;

beforeAll(async () => {
  t = await startTestServer();
  const envelope = loadEnvelope('es-invoice-es-es.json');
  entryId = envelope.head.uuid;
  expect((await t.call('PUT', `/silo/v1/entries/${entryId}`, { data: envelope })).status).toBe(200);
});
afterAll(() => t.close());

async function workflow(steps: unknown[], extra: Record<string, unknown> = {}) {
  const res = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'wf', steps, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const tagStep = [{ provider: 'silo.tags', config: { add: ['hosted'] } }];

describe('job ids', () => {
  it('PUT /transform/v1/jobs/{id} takes a UUID v1 or v7, and refuses v4 or v6 naming the rule', async () => {
    const wf = await workflow(tagStep);
    for (const id of [uuidv7(), uuidv1()]) {
      const res = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, { workflow_id: wf.id, silo_entry_id: entryId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ id, status: 'OK' });
    }
    for (const id of [uuidv4(), uuidv6()]) {
      const res = await t.call('PUT', `/transform/v1/jobs/${id}`, { workflow_id: wf.id, silo_entry_id: entryId });
      expect(res.status).toBe(400);
      expect(res.body.key).toBe('bad-request');
      expect(res.body.fields.id).toMatch(/version 1 or version 7/);
    }
  });
});

describe('workflow lists, paged the hosted way', () => {
  it('honour created_at and answer next_created_at, so the hosted loop walks every page exactly once', async () => {
    const made: string[] = [];
    for (let i = 0; i < 23; i++) made.push((await workflow(tagStep, { name: `wf ${i}` })).id);
    // Twelve made in one millisecond (a bulk import): more than a page of 10 shares a timestamp.
    const same = '2024-05-01T10:00:00.000Z';
    const { db } = t.service;
    await db.tx(async () => {
      const setAt = (at: string, id: string) => db.sqlRun('UPDATE workflows SET created_at = ? WHERE id = ?', [at, id]);
      for (const id of made.slice(0, 12)) await setAt(same, id);
      for (const id of made.slice(12, 15)) await setAt('2024-05-01T09:00:00.000Z', id);
    }, { origin: LOCAL });

    const seen: string[] = [];
    const sizes: number[] = [];
    let createdAt: string | undefined;
    let pages = 0;
    do {
      const query = `limit=10${createdAt ? `&created_at=${encodeURIComponent(createdAt)}` : ''}`;
      const page = await t.call('GET', `/transform/v1/workflows?${query}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.limit).toBe(10);
      expect(page.body).not.toHaveProperty('next_cursor');
      if (createdAt) expect(page.body.created_at).toBe(createdAt);
      seen.push(...page.body.list.map((w: any) => w.id));
      sizes.push(page.body.list.length);
      createdAt = page.body.next_created_at;
      pages++;
    } while (createdAt && pages < 20);
    // A page never splits one millisecond: it stops before the run, or takes a run longer than a page whole.
    expect(sizes.slice(-2)).toEqual([12, 3]);
    const all = (await db.sql<{ id: string }>('SELECT id FROM workflows')).map((r) => r.id);
    expect(seen.length).toBe(all.length);
    expect(new Set(seen)).toEqual(new Set(all));
    // newest first
    const times: string[] = [];
    for (const id of seen) times.push((await db.sqlFirst<{ created_at: string }>('SELECT created_at FROM workflows WHERE id = ?', [id]))!.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filter by schema and echo it', async () => {
    const wf = await workflow(tagStep, { schema: 'bill/payment' });
    const page = await t.call('GET', '/transform/v1/workflows?schema=bill/payment');
    expect(page.body).toMatchObject({ schema: 'bill/payment', limit: 20 });
    expect(page.body.list.map((w: any) => w.id)).toEqual([wf.id]);
  });

  it.each(['workflows', 'jobs'])('%s: a limit below 10 or above 100 is a 422 naming the bound, as hosted; not a number is a 400', async (list) => {
    const low = await t.call('GET', `/transform/v1/${list}?limit=9`);
    expect(low.status).toBe(422);
    expect(low.body).toMatchObject({ key: 'validation', fields: { limit: 'must be no less than 10' } });
    const high = await t.call('GET', `/transform/v1/${list}?limit=101`);
    expect(high.status).toBe(422);
    expect(high.body.fields.limit).toBe('must be no greater than 100');
    expect((await t.call('GET', `/transform/v1/${list}?limit=10`)).status).toBe(200);
    expect((await t.call('GET', `/transform/v1/${list}?limit=100`)).status).toBe(200);
    expect((await t.call('GET', `/transform/v1/${list}?limit=ten`)).status).toBe(400);
  });
});

describe('job lists', () => {
  it('honour created_at as the newest to show and echo it, and page on with cursors', async () => {
    const wf = await workflow(tagStep);
    const first = (await t.call('POST', '/transform/v1/jobs?wait=5', { workflow_id: wf.id, silo_entry_id: entryId })).body;
    await new Promise((r) => setTimeout(r, 5));
    await t.call('POST', '/transform/v1/jobs?wait=5', { workflow_id: wf.id, silo_entry_id: entryId });
    const all = await t.call('GET', `/transform/v1/jobs?workflow_id=${wf.id}`);
    expect(all.body.list).toHaveLength(2);
    const older = await t.call('GET', `/transform/v1/jobs?workflow_id=${wf.id}&created_at=${first.created_at}`);
    expect(older.body.created_at).toBe(first.created_at);
    expect(older.body.list.map((j: any) => j.id)).toEqual([first.id]);
  });
});

describe('wait', () => {
  it('wait=true on create and get holds the answer until the job completes; wait=false does not hold', async () => {
    const wf = await workflow([{ provider: 'pdf', config: {} }, ...tagStep]);
    const created = await t.call('POST', '/transform/v1/jobs?wait=true', { workflow_id: wf.id, silo_entry_id: entryId });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.status).toBe('OK');
    expect(created.body.completed_at).toBeTruthy();

    const put = await t.call('PUT', `/transform/v1/jobs/${uuidv7()}?wait=false`, { workflow_id: wf.id, silo_entry_id: entryId });
    expect(put.status).toBe(200);
    expect(put.body.completed_at).toBeUndefined();
    const got = await t.call('GET', `/transform/v1/jobs/${put.body.id}?wait=true`);
    expect(got.body.status).toBe('OK');
    expect((await t.call('GET', `/transform/v1/jobs/${put.body.id}?wait=maybe`)).status).toBe(400);
  });
});

describe('replays', () => {
  it('an identical POST with a key answers the same job, 200, as an identical PUT does; another body is a 409', async () => {
    const wf = await workflow(tagStep);
    const key = `invoice-${uuidv4()}`;
    const body = { workflow_id: wf.id, silo_entry_id: entryId, key };
    const a = await t.call('POST', '/transform/v1/jobs?wait=5', body);
    expect(a.status).toBe(200);
    const b = await t.call('POST', '/transform/v1/jobs?wait=5', body);
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.intents).toEqual(a.body.intents);
    const stored = await t.service.db.sql('SELECT seq FROM jobs WHERE key = ?', [key]);
    expect(stored).toHaveLength(1);
    const other = await t.call('POST', '/transform/v1/jobs', { ...body, tags: ['other'] });
    expect(other.status).toBe(409);
    // the key under another client-chosen id is not the same request
    expect((await t.call('PUT', `/transform/v1/jobs/${uuidv7()}`, body)).status).toBe(409);

    // the PUT side of the same rule
    const id = uuidv7();
    const putBody = { workflow_id: wf.id, silo_entry_id: entryId, key: `${key}-put` };
    const p1 = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, putBody);
    const p2 = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, putBody);
    expect([p1.status, p2.status]).toEqual([200, 200]);
    expect(p2.body.id).toBe(id);
    // and a POST replaying that PUT's request finds it by its key
    expect((await t.call('POST', '/transform/v1/jobs', putBody)).body.id).toBe(id);
  });

  it('a POST without a key is a new job every time', async () => {
    const wf = await workflow(tagStep);
    const body = { workflow_id: wf.id, silo_entry_id: entryId };
    const a = await t.call('POST', '/transform/v1/jobs', body);
    const b = await t.call('POST', '/transform/v1/jobs', body);
    expect(a.body.id).not.toBe(b.body.id);
  });
});

describe('hosted providers', () => {
  it('steps naming hosted providers are stored as written; when run they end KO hosted-only and rescue runs', async () => {
    const wf = await workflow(
      [
        { provider: 'silo.state', config: { state: 'processing' } },
        { name: 'Send to Peppol', provider: 'peppol.send', config: { network: 'test' } },
        { provider: 'silo.state', config: { state: 'sent' } },
      ],
      { rescue: [{ provider: 'silo.state', config: { state: 'error' } }] },
    );
    expect(wf.steps[1]).toMatchObject({ provider: 'peppol.send', config: { network: 'test' } });
    for (const name of ['gov-es.ticketbai.send', 'verifactu.send', 'sdi-it.send', 'gov-fr.reporting.send', 'nfe-br.send.nfe', 'email.send', 'ubl.generate']) {
      const res = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name, steps: [{ provider: name }] });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    }

    const job = (await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: wf.id, silo_entry_id: entryId })).body;
    expect(job.status).toBe('KO');
    const send = job.intents.find((i: any) => i.provider === 'peppol.send');
    expect(send.events.at(-1)).toMatchObject({ status: 'KO', code: 'hosted-only' });
    expect(send.events.at(-1).message).toContain('needs the hosted service');
    expect(job.faults).toContainEqual(expect.objectContaining({ code: 'hosted-only', provider: 'peppol.send' }));
    expect(job.intents.map((i: any) => i.provider)).toEqual(['silo.state', 'peppol.send', 'silo.state']);
    const entry = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(entry.body.state).toBe('error');
  });

  it('a name neither this desk nor the hosted service has is still refused at save time', async () => {
    for (const name of ['silo.stat', 'pefpol.send', 'nope']) {
      const res = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name, steps: [{ provider: name }] });
      expect(res.status, name).toBe(422);
      expect(res.body.fields['$.steps[0].provider']).toContain('neither this desk');
    }
  });
});

describe('webhook step, hosted config', () => {
  let server: Server;
  let hook: string;
  const received: Array<{ auth?: string; body: any }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => server.close());

  it('takes callback_url + event, and the payload event tells success from error as the hosted one does', async () => {
    received.length = 0;
    const wf = await workflow(
      [
        { provider: 'verifactu.send' },
        { provider: 'webhook', config: { callback_url: hook, event: 'success', bearer_token: 'hook-secret' } },
      ],
      { rescue: [{ provider: 'webhook', config: { callback_url: hook, event: 'error', bearer_token: 'hook-secret' } }] },
    );
    expect(wf.steps[1].config).toEqual({ callback_url: hook, event: 'success', bearer_token: '********' });
    const failing = (await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: wf.id, silo_entry_id: entryId, key: `k-${uuidv4()}` })).body;
    expect(failing.status).toBe('KO');

    const ok = await workflow([{ provider: 'webhook', config: { callback_url: hook, event: 'success' } }]);
    const passing = (await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: ok.id, silo_entry_id: entryId })).body;
    expect(passing.status).toBe('OK');

    expect(received.map((r) => [r.body.transform_job_id, r.body.event])).toEqual([
      [failing.id, 'error'],
      [passing.id, 'success'],
    ]);
    const [error, success] = received;
    expect(Object.keys(error.body).sort()).toEqual(['args', 'event', 'faults', 'id', 'key', 'owner_id', 'silo_entry_id', 'transform_job_id']);
    expect(error.auth).toBe('Bearer hook-secret');
    expect(error.body.faults).toContainEqual(expect.objectContaining({ code: 'hosted-only', provider: 'verifactu.send' }));
    expect(error.body.owner_id).toBe((await t.call('GET', '/access/v1/workspace')).body.id);
    expect(success.body.key).toBe('');
    expect(JSON.stringify(failing)).not.toContain('hook-secret');
  });

  it('keeps `url` as the older name of callback_url (stored as callback_url), and loopback-only destinations', async () => {
    received.length = 0;
    const wf = await workflow([{ provider: 'webhook', config: { url: hook } }]);
    expect(wf.steps[0].config).toEqual({ callback_url: hook });
    const job = (await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: wf.id, silo_entry_id: entryId })).body;
    expect(job.status).toBe('OK');
    expect(received[0].body.event).toBe('');

    const both = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, {
      name: 'both', steps: [{ provider: 'webhook', config: { url: hook, callback_url: hook } }],
    });
    expect(both.status).toBe(422);
    const away = await workflow([{ provider: 'webhook', config: { callback_url: 'https://example.invalid/hook', event: 'success' } }]);
    const refused = (await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: away.id, silo_entry_id: entryId })).body;
    expect(refused.intents[0].events.at(-1)).toMatchObject({ status: 'KO', code: 'host-not-allowed' });
  });
});
