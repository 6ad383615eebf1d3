import { v1 as uuidv1, v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../src-main/core/service.ts';
import { defineProvider } from '../../src-main/core/transform/provider.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { serverDatabase, serverEngine } from '../support/server-database.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * A scripted step for exercising the engine: answers what its config says,
 * optionally after failing with ERR a number of times or sleeping.
 */
const tries = new Map<string, number>();
const scripted = defineProvider({
  id: 'test.scripted',
  description: 'answers a scripted outcome',
  config: z.object({
    status: z.enum(['OK', 'KO', 'SKIP', 'ERR']),
    code: z.string().optional(),
    err_times: z.number().int().optional(),
    sleep_ms: z.number().int().optional(),
  }),
  timeoutMs: 300,
  run: async (ctx, c) => {
    const key = `${ctx.job.id}:${ctx.step.id}`;
    const n = (tries.get(key) ?? 0) + 1;
    tries.set(key, n);
    if (c.sleep_ms) await new Promise((r) => setTimeout(r, c.sleep_ms));
    if (c.err_times && n <= c.err_times) return { status: 'ERR', code: 'flaky', message: `try ${n}` };
    return { status: c.status, code: c.code, message: `scripted ${c.status}` };
  },
});

let t: TestServer;
let entryId: string;

beforeAll(async () => {
  t = await startTestServer({ extraProviders: [scripted] });
  const envelope = loadEnvelope('es-invoice-es-es.json');
  entryId = envelope.head.uuid;
  expect((await t.call('PUT', `/silo/v1/entries/${entryId}`, { data: envelope })).status).toBe(200);
});
afterAll(() => t.close());

const ids = () => Array.from({ length: 8 }, () => uuidv4());

async function workflow(steps: unknown[], extra: Record<string, unknown> = {}) {
  const id = uuidv7();
  const res = await t.call('PUT', `/transform/v1/workflows/${id}`, { name: 'wf', steps, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function run(workflowId: string, body: Record<string, unknown> = {}, waitSeconds = 10) {
  const res = await t.call('POST', `/transform/v1/jobs?wait=${waitSeconds}`, { workflow_id: workflowId, silo_entry_id: entryId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('workflows', () => {
  it('creates idempotently, accepts `action` for `provider`, and refuses another body under the id', async () => {
    const id = uuidv7();
    const body = { name: 'Mark sent', steps: [{ action: 'silo.state', config: { state: 'sent' } }] };
    const a = await t.call('PUT', `/transform/v1/workflows/${id}`, body);
    expect(a.status).toBe(200);
    expect(a.body.steps[0].provider).toBe('silo.state');
    expect(a.body.version).toBe('1');
    const b = await t.call('PUT', `/transform/v1/workflows/${id}`, body);
    expect(b.body).toEqual(a.body);
    const c = await t.call('PUT', `/transform/v1/workflows/${id}`, { ...body, name: 'Other' });
    expect(c.status).toBe(409);
  });

  it('refuses a workflow with duplicate step ids, dangling routes, unknown providers or bad config, by path', async () => {
    const [s1, s2] = ids();
    const res = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, {
      name: 'bad',
      steps: [
        { id: s1, provider: 'silo.state', config: { state: 'Not A Label' }, next: [{ status: 'OK', step_id: s2 }] },
        { id: s1, provider: 'nope' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.key).toBe('validation');
    expect(Object.keys(res.body.fields).sort()).toEqual(
      ['$.steps[0].config.state', '$.steps[0].next[0].step_id', '$.steps[1].id', '$.steps[1].provider'].sort(),
    );
  });

  it('keeps every version: PATCH makes a new one, a job shows the version it ran', async () => {
    const wf = await workflow([{ provider: 'silo.tags', config: { add: ['v1'] } }]);
    const job1 = await run(wf.id);
    const patched = await t.call('PATCH', `/transform/v1/workflows/${wf.id}`, {
      steps: [{ provider: 'silo.tags', config: { add: ['v2'] } }],
    });
    expect(patched.body.version).toBe('2');
    const job2 = await run(wf.id);
    expect([job1.workflow_version, job2.workflow_version]).toEqual(['1', '2']);
    const v1 = await t.call('GET', `/transform/v1/workflows/${wf.id}?version=1`);
    expect(v1.body.steps[0].config).toEqual({ add: ['v1'] });
    const list = await t.call('GET', '/transform/v1/workflows?limit=100');
    expect(list.body.list.map((w: any) => w.id)).toContain(wf.id);
  });

  it('a disabled workflow takes no new jobs', async () => {
    const wf = await workflow([{ provider: 'silo.tags', config: { add: ['x'] } }], { disabled: true });
    const res = await t.call('POST', '/transform/v1/jobs', { workflow_id: wf.id, silo_entry_id: entryId });
    expect(res.status).toBe(409);
  });

  it('lists the providers with their config schemas', async () => {
    const res = await t.call('GET', '/transform/v1/providers');
    const state = res.body.list.find((p: any) => p.id === 'silo.state');
    expect(state.config_schema.properties.state).toBeTruthy();
    expect(state.config_schema.required).toEqual(['state']);
  });
});

describe('jobs', () => {
  it('runs steps in order, records intents with indexed events, and ends OK with the document', async () => {
    const wf = await workflow([
      { name: 'register', provider: 'silo.state', config: { state: 'registered' } },
      { name: 'file', provider: 'silo.folder', config: { folder: 'registered-2024' } },
      { name: 'tag', provider: 'silo.tags', config: { add: ['done'] } },
    ]);
    const job = await run(wf.id, { tags: ['batch-1'], args: { who: 'test' } });
    expect(job.status).toBe('OK');
    expect(job.completed_at).toBeTruthy();
    expect(job.tags).toEqual(['batch-1']);
    expect(job.args).toEqual({ who: 'test' });
    expect(job.intents.map((i: any) => [i.name, i.completed, i.events.map((e: any) => [e.index, e.status])])).toEqual([
      ['register', true, [[1, 'RUN'], [2, 'OK']]],
      ['file', true, [[1, 'RUN'], [2, 'OK']]],
      ['tag', true, [[1, 'RUN'], [2, 'OK']]],
    ]);
    for (const e of job.intents[0].events) expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(job.envelope.head.uuid).toBe(entryId);
    const entry = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(entry.body.state).toBe('registered');
    expect(entry.body.folder).toBe('registered-2024');
    expect(entry.body.tags).toContain('done');
  });

  it('routes by status and code: silo.if true/false, SKIP, stop', async () => {
    const [check, yes, no, end] = ids();
    const wf = await workflow([
      {
        id: check,
        provider: 'silo.if',
        config: { path: 'doc.currency', equals: 'EUR' },
        next: [
          { status: 'OK', code: 'true', step_id: yes },
          { status: 'OK', code: 'false', step_id: no },
        ],
      },
      { id: no, provider: 'silo.tags', config: { add: ['not-euro'] }, next: [{ stop: true }] },
      { id: yes, provider: 'silo.tags', config: { add: ['euro'] }, next: [{ step_id: end }] },
      { id: end, provider: 'test.scripted', config: { status: 'SKIP' }, next: [{ status: 'SKIP', stop: true }] },
    ]);
    const job = await run(wf.id);
    expect(job.status).toBe('OK');
    expect(job.intents.map((i: any) => i.step_id)).toEqual([check, yes, end]);
    expect(job.intents[0].events[1]).toMatchObject({ status: 'OK', code: 'true' });
    expect(job.intents[2].events[1].status).toBe('SKIP');
    const entry = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(entry.body.tags).toContain('euro');
    expect(entry.body.tags).not.toContain('not-euro');
  });

  it('a KO with no route runs the rescue steps, then ends KO', async () => {
    const wf = await workflow(
      [
        { name: 'fails', provider: 'test.scripted', config: { status: 'KO', code: 'bad' } },
        { name: 'never', provider: 'silo.tags', config: { add: ['never'] } },
      ],
      { rescue: [{ name: 'rescue', provider: 'silo.tags', config: { add: ['rescued'] } }] },
    );
    const job = await run(wf.id);
    expect(job.status).toBe('KO');
    expect(job.intents.map((i: any) => i.name)).toEqual(['fails', 'rescue']);
    const entry = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(entry.body.tags).toContain('rescued');
    expect(entry.body.tags).not.toContain('never');
  });

  it('a KO routed by code goes on; without rescue an unrouted KO ends the job', async () => {
    const [a, b] = ids();
    const routed = await workflow([
      { id: a, provider: 'test.scripted', config: { status: 'KO', code: 'soft' }, next: [{ status: 'KO', code: 'soft', step_id: b }] },
      { id: b, provider: 'test.scripted', config: { status: 'OK' } },
    ]);
    expect((await run(routed.id)).status).toBe('OK');
    const plain = await workflow([{ provider: 'test.scripted', config: { status: 'KO', code: 'hard' } }]);
    const job = await run(plain.id);
    expect(job.status).toBe('KO');
    expect(job.intents[0].events.map((e: any) => e.status)).toEqual(['RUN', 'KO']);
  });

  it('retries ERR with backoff, then succeeds; gives up after the limit as KO', async () => {
    const flaky = await workflow([{ provider: 'test.scripted', config: { status: 'OK', err_times: 2 } }]);
    const ok = await run(flaky.id, {}, 10);
    expect(ok.status).toBe('OK');
    expect(ok.intents[0].events.map((e: any) => e.status)).toEqual(['RUN', 'ERR', 'RUN', 'ERR', 'RUN', 'OK']);
    const events = ok.intents[0].events;
    const gap = (i: number) => Date.parse(events[i + 1].at) - Date.parse(events[i].at);
    expect(gap(3)).toBeGreaterThanOrEqual(gap(1)); // backoff grows

    const broken = await workflow([{ provider: 'test.scripted', config: { status: 'OK', err_times: 99 } }]);
    // Five attempts, 20, 40, 80 and 160 ms apart. Waits that long once took over 10 s: a retry
    // timer that fired a millisecond early found its job neither due nor due later, and set no
    // other (runner.ts #pump reads both at one moment now).
    const ko = await run(broken.id, {}, 10);
    expect(ko.status).toBe('KO');
    const last = ko.intents[0].events.at(-1);
    expect(last).toMatchObject({ status: 'KO', code: 'retries-exhausted' });
    expect(ko.intents[0].events.filter((e: any) => e.status === 'RUN')).toHaveLength(5);
  });

  it('a round whose transaction fails still wakes the engine for a job waiting on its retry', async () => {
    // Retries far enough apart that the engine can be stopped and started again before one comes due.
    const s = await startTestServer({ extraProviders: [scripted], runner: { retryBaseMs: 1500 } });
    try {
      const flaky = (await s.call('PUT', `/transform/v1/workflows/${uuidv7()}`, {
        name: 'flaky', steps: [{ provider: 'test.scripted', config: { status: 'OK', err_times: 1 } }],
      })).body;
      const plain = (await s.call('PUT', `/transform/v1/workflows/${uuidv7()}`, {
        name: 'plain', steps: [{ provider: 'silo.tags', config: { add: ['after-a-failed-round'] } }],
      })).body;
      const data = loadEnvelope('fr-invoice-fr-fr.json').doc;
      const statusOf = async (id: string) => (await s.service.db.sqlFirst<{ status: string }>('SELECT status FROM jobs WHERE id = ?', [id]))?.status;

      const waiting = (await s.call('POST', '/transform/v1/jobs', { workflow_id: flaky.id, data })).body;
      await vi.waitFor(async () => expect(await statusOf(waiting.id)).toBe('ERR'), { timeout: 5000 });
      // Rested and woken again: only the timer the next round arms can bring the retry.
      await s.service.jobs.stop();
      const due = (await s.call('POST', '/transform/v1/jobs', { workflow_id: plain.id, data })).body;
      const { db } = s.service;
      const tx = db.tx.bind(db);
      let failed = false;
      db.tx = ((...args: Parameters<typeof tx>) => {
        // The first transaction of its own the engine opens is the round: it fails whole.
        if (!failed && db.origin === undefined) {
          failed = true;
          return Promise.reject(new Error('the round cannot begin'));
        }
        return tx(...args);
      }) as typeof db.tx;
      try {
        s.service.jobs.start();
        const retried = (await s.call('GET', `/transform/v1/jobs/${waiting.id}?wait=20`)).body;
        expect(failed).toBe(true);
        expect(retried.status).toBe('OK');
        expect(retried.intents[0].events.map((e: any) => e.status)).toEqual(['RUN', 'ERR', 'RUN', 'OK']);
        // The job of the failed round was left due, and ran with the next one.
        expect((await s.call('GET', `/transform/v1/jobs/${due.id}?wait=20`)).body.status).toBe('OK');
      } finally {
        db.tx = tx;
      }
    } finally {
      await s.close();
    }
  });

  it('a step past its timeout is routed as TIMEOUT', async () => {
    const [slow, after] = ids();
    const wf = await workflow([
      { id: slow, provider: 'test.scripted', config: { status: 'OK', sleep_ms: 2000 }, next: [{ status: 'TIMEOUT', step_id: after }] },
      { id: after, provider: 'silo.tags', config: { add: ['timed-out'] } },
    ]);
    const job = await run(wf.id);
    expect(job.status).toBe('OK');
    expect(job.intents[0].events[1]).toMatchObject({ status: 'TIMEOUT', code: 'timeout' });
    expect(job.intents[1].step_id).toBe(after);
  });

  it('stops a looping workflow at the step cap', async () => {
    const [a] = ids();
    const wf = await workflow([{ id: a, provider: 'test.scripted', config: { status: 'OK' }, next: [{ step_id: a }] }]);
    const job = await run(wf.id);
    expect(job.status).toBe('KO');
    expect(job.faults.map((f: any) => f.code)).toContain('too-many-steps');
    expect(job.intents.length).toBeLessThanOrEqual(101);
  });

  it('wait returns at completion or when the wait runs out', async () => {
    const slow = await workflow([
      { provider: 'test.scripted', config: { status: 'OK', err_times: 1 } },
      { provider: 'test.scripted', config: { status: 'OK', sleep_ms: 250 } },
    ]);
    const started = Date.now();
    const unfinished = await t.call('POST', '/transform/v1/jobs', { workflow_id: slow.id, silo_entry_id: entryId });
    expect(unfinished.body.completed_at).toBeUndefined();
    expect(['QUEUED', 'RUN', 'ERR']).toContain(unfinished.body.status);
    const done = await t.call('GET', `/transform/v1/jobs/${unfinished.body.id}?wait=5`);
    expect(done.body.status).toBe('OK');
    expect(Date.now() - started).toBeLessThan(5000);

    // five tries of 280 ms each: well past the one-second wait
    const hang = await workflow([{ provider: 'test.scripted', config: { status: 'OK', err_times: 99, sleep_ms: 280 } }]);
    const t0 = Date.now();
    const timedOut = await t.call('POST', '/transform/v1/jobs?wait=1', { workflow_id: hang.id, silo_entry_id: entryId });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(timedOut.body.completed_at).toBeUndefined();
  });

  it('PUT is idempotent under a v1 id, refuses another body, and refuses ids that are not v1 or v7', async () => {
    const wf = await workflow([{ provider: 'silo.tags', config: { add: ['put'] } }]);
    const id = uuidv1();
    const body = { workflow_id: wf.id, silo_entry_id: entryId, key: `k-${id}` };
    const a = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, body);
    expect(a.status).toBe(200);
    expect(a.body.id).toBe(id);
    const b = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, body);
    expect(b.body.id).toBe(id);
    expect(b.body.intents).toEqual(a.body.intents);
    const stored = await t.service.db.sql('SELECT seq FROM jobs WHERE id = ?', [id]);
    expect(stored).toHaveLength(1);
    expect((await t.call('PUT', `/transform/v1/jobs/${id}`, { ...body, tags: ['other'] })).status).toBe(409);
    const v4 = await t.call('PUT', `/transform/v1/jobs/${uuidv4()}`, body);
    expect(v4.status).toBe(400);
    expect(v4.body.fields.id).toContain('version 1 or version 7');
    expect((await t.call('GET', `/transform/v1/jobs/key/k-${id}`)).body.id).toBe(id);
  });

  it('stores `data` as a new entry first, once, even when the PUT is replayed', async () => {
    const wf = await workflow([{ provider: 'silo.state', config: { state: 'registered' } }]);
    const doc = loadEnvelope('fr-invoice-fr-fr.json').doc;
    const id = uuidv1();
    const a = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, { workflow_id: wf.id, data: doc });
    const b = await t.call('PUT', `/transform/v1/jobs/${id}?wait=5`, { workflow_id: wf.id, data: doc });
    expect(a.body.silo_entry_id).toBe(b.body.silo_entry_id);
    const entry = await t.call('GET', `/silo/v1/entries/${a.body.silo_entry_id}`);
    expect(entry.body.state).toBe('registered');
    expect(entry.body.data.doc.code).toBe(doc.code);
  });

  it('cancels a job waiting for a retry: it ends KO with a CANCEL event', async () => {
    const wf = await workflow([{ provider: 'test.scripted', config: { status: 'OK', err_times: 99 } }]);
    const job = (await t.call('POST', '/transform/v1/jobs', { workflow_id: wf.id, silo_entry_id: entryId })).body;
    await new Promise((r) => setTimeout(r, 100));
    const cancelled = await t.call('POST', `/transform/v1/jobs/${job.id}/cancel`);
    const final = (await t.call('GET', `/transform/v1/jobs/${job.id}?wait=5`)).body;
    expect(cancelled.status).toBe(200);
    expect(final.status).toBe('KO');
    expect(final.completed_at).toBeTruthy();
    expect(final.intents[0].events.at(-1).status).toBe('CANCEL');
    expect(final.faults.map((f: any) => f.code)).toContain('cancelled');
  });

  it('a job cancelled after a round picked it up, before the round began, stays cancelled', async () => {
    const wf = await workflow([{ provider: 'silo.tags', config: { add: ['ran-after-cancel'] } }]);
    await t.service.jobs.stop();
    const job = (await t.call('POST', '/transform/v1/jobs', { workflow_id: wf.id, silo_entry_id: entryId })).body;
    const { db } = t.service;
    const tx = db.tx.bind(db);
    let cancelled = false;
    db.tx = ((...args: Parameters<typeof tx>) => {
      // The round has read its due jobs and is about to begin: the cancel comes in between.
      if (cancelled || db.origin !== undefined) return tx(...args);
      cancelled = true;
      return t.call('POST', `/transform/v1/jobs/${job.id}/cancel`).then(() => tx(...args));
    }) as typeof db.tx;
    try {
      t.service.jobs.start();
      await t.call('GET', `/transform/v1/jobs/${job.id}?wait=5`);
      // Stopping waits for the round under way: what it did, if anything, is done by then.
      await t.service.jobs.stop();
      const final = (await t.call('GET', `/transform/v1/jobs/${job.id}`)).body;
      expect(cancelled).toBe(true);
      expect(final.status).toBe('KO');
      expect(final.faults.map((f: any) => f.code)).toEqual(['cancelled']);
      expect(final.intents[0].events.map((e: any) => e.status)).toEqual(['CANCEL']);
      expect((await t.call('GET', `/silo/v1/entries/${entryId}`)).body.tags).not.toContain('ran-after-cancel');
    } finally {
      db.tx = tx;
      t.service.jobs.start();
    }
  });

  it('runs one round at a time: a notify during a round never starts a step twice', async () => {
    const inline = await workflow([{ provider: 'silo.tags', config: { add: ['round'] } }]);
    const [step] = ids();
    const alone = await workflow([{ id: step, provider: 'test.scripted', config: { status: 'OK', sleep_ms: 50 } }]);
    await t.service.jobs.stop();
    // One job for the round to work on (so that it opens a transaction), one whose step runs alone after it.
    const inRound = (await t.call('POST', '/transform/v1/jobs', { workflow_id: inline.id, silo_entry_id: entryId })).body;
    const launched = (await t.call('POST', '/transform/v1/jobs', { workflow_id: alone.id, silo_entry_id: entryId })).body;
    const { db } = t.service;
    const tx = db.tx.bind(db);
    let notified = false;
    db.tx = ((...args: Parameters<typeof tx>) => {
      if (notified || db.origin !== undefined) return tx(...args);
      // The round is about to begin: something else asks the engine for a turn meanwhile.
      notified = true;
      t.service.jobs.notify();
      return new Promise((resolve) => setTimeout(resolve, 50)).then(() => tx(...args));
    }) as typeof db.tx;
    try {
      t.service.jobs.start();
      const job = (await t.call('GET', `/transform/v1/jobs/${launched.id}?wait=5`)).body;
      await t.service.jobs.stop();
      expect(notified).toBe(true);
      expect(job.status).toBe('OK');
      expect(tries.get(`${launched.id}:${step}`)).toBe(1);
      expect(job.intents.map((i: any) => i.events.map((e: any) => e.status))).toEqual([['RUN', 'OK']]);
      expect((await t.call('GET', `/transform/v1/jobs/${inRound.id}`)).body.status).toBe('OK');
    } finally {
      db.tx = tx;
      t.service.jobs.start();
    }
  });

  it('lists jobs by status, workflow and entry with cursors', async () => {
    const wf = await workflow([{ provider: 'silo.tags', config: { add: ['listed'] } }]);
    for (let i = 0; i < 11; i++) await t.call('POST', '/transform/v1/jobs', { workflow_id: wf.id, silo_entry_id: entryId });
    const page = await t.call('GET', `/transform/v1/jobs?limit=10&workflow_id=${wf.id}&silo_entry_id=${entryId}`);
    expect(page.body.list).toHaveLength(10);
    expect(page.body.next_cursor).toBeTruthy();
    const next = await t.call('GET', `/transform/v1/jobs?limit=10&workflow_id=${wf.id}&silo_entry_id=${entryId}&cursor=${page.body.next_cursor}`);
    expect(next.body.list).toHaveLength(1);
    expect(next.body.next_cursor).toBeUndefined();
    expect(page.body.list.map((j: any) => j.id)).not.toContain(next.body.list[0].id);
    const ko = await t.call('GET', '/transform/v1/jobs?status=KO&limit=100');
    expect(ko.body.list.length).toBeGreaterThan(0);
    expect(ko.body.list.every((j: any) => j.status === 'KO')).toBe(true);
  });

  it('collects step faults on the job and on the entry', async () => {
    const bad = loadEnvelope('es-invoice-es-es.json').doc;
    const created = await t.call('POST', '/silo/v1/entries', { data: bad });
    const wf = await workflow([{ provider: 'silo.modify', config: { merge_patch: { doc: { currency: 'nope' } } } }]);
    const job = (await t.call('POST', '/transform/v1/jobs?wait=5', { workflow_id: wf.id, silo_entry_id: created.body.id })).body;
    expect(job.status).toBe('KO');
    expect(job.faults.flatMap((f: any) => f.paths)).toContain('$.doc.currency');
    const entry = await t.call('GET', `/silo/v1/entries/${created.body.id}`);
    expect(entry.body.faults.map((f: any) => f.provider)).toContain('silo.modify');
    expect(entry.body.data.doc.currency).toBe('EUR');
  });
});

describe('secrets in workflow config', () => {
  it('never shows a webhook bearer token, and a masked value sent back keeps the stored one', async () => {
    const stepId = uuidv4();
    const secret = 'very-secret-token-123';
    const wf = await workflow([{ id: stepId, provider: 'webhook', config: { url: 'http://127.0.0.1:9/hook', bearer_token: secret } }]);
    expect(JSON.stringify(wf)).not.toContain(secret);
    expect(wf.steps[0].config.bearer_token).toBe('********');
    const fetched = await t.call('GET', `/transform/v1/workflows/${wf.id}`);
    expect(JSON.stringify(fetched.body)).not.toContain(secret);

    // the UI sends the workflow back as shown: the secret stays what it was
    const renamed = await t.call('PATCH', `/transform/v1/workflows/${wf.id}`, { name: 'renamed', steps: fetched.body.steps });
    expect(renamed.status).toBe(200);
    const stored = await t.service.db.sqlFirst<{ definition: string }>(
      'SELECT definition FROM workflow_versions WHERE workflow_id = ? AND version = 2',
      [wf.id],
    );
    expect(JSON.parse(stored!.definition).steps[0].config.bearer_token).toBe(secret);
  });
});

/**
 * PostgreSQL only: there several `serve` processes may run on one database, each with a runner,
 * which SQLite's data folder (one process) never has; so this is registered on the postgres
 * project alone. Two services on one database stand for two processes.
 */
if (serverEngine === 'postgres') {
  describe('two runners on one PostgreSQL database (postgres only)', () => {
    it('run every step of every job exactly once, and each runs the jobs the other process queued while its runner rested', async () => {
      const shared = await serverDatabase();
      const runs = new Map<string, Service[]>();
      const counted = defineProvider({
        id: 'test.counted',
        description: 'counts its runs, as a webhook receiver would',
        config: z.object({}),
        run: async (ctx) => {
          const key = `${ctx.job.id}:${ctx.step.id}`;
          runs.set(key, [...(runs.get(key) ?? []), ctx.service]);
          await new Promise((r) => setTimeout(r, 5));
          return { status: 'OK' };
        },
      });
      const opts = { databaseUrl: shared.databaseUrl, extraProviders: [counted], runner: { retryBaseMs: 20, pollMs: 20 } };
      const a = await startTestServer(opts);
      const b = await startTestServer(opts);
      // Each start mints the install's file token anew (access/bootstrap.ts): the last one is the one in force.
      const as = (s: TestServer, method: string, path: string, body?: unknown) => s.call(method, path, body, { authorization: `Bearer ${b.token}` });
      try {
        const [one, two, three, four] = ids();
        const wf = (await as(a, 'PUT', `/transform/v1/workflows/${uuidv7()}`, {
          name: 'shared',
          steps: [
            { id: one, provider: 'silo.tags', config: { add: ['one'] } },
            { id: two, provider: 'test.counted' },
            { id: three, provider: 'silo.tags', config: { add: ['three'] } },
            { id: four, provider: 'test.counted' },
          ],
        })).body;
        const finished = async (s: TestServer, jobs: string[]) => {
          for (const id of jobs) {
            const job = (await as(s, 'GET', `/transform/v1/jobs/${id}?wait=20`)).body;
            expect(job.status, JSON.stringify(job)).toBe('OK');
            // One try of each step, recorded once: never a second RUN.
            expect(job.intents.map((i: any) => i.events.map((e: any) => e.status))).toEqual([['RUN', 'OK'], ['RUN', 'OK'], ['RUN', 'OK'], ['RUN', 'OK']]);
          }
        };
        const queue = async (s: TestServer) => {
          const { doc } = loadEnvelope('es-invoice-es-es.json');
          doc.uuid = uuidv7();
          const res = await as(s, 'POST', '/transform/v1/jobs', { workflow_id: wf.id, data: doc });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body.id as string;
        };
        // Queued on B while its runner rests: nobody notifies A of these, which finds them by itself.
        await b.service.jobs.stop();
        const bQueued = await Promise.all(Array.from({ length: 4 }, () => queue(b)));
        await finished(a, bQueued);
        b.service.jobs.start();
        // Queued on both at once, both runners running: each process is notified of its own, and both look.
        const both = await Promise.all(Array.from({ length: 16 }, (_, i) => queue(i % 2 === 0 ? a : b)));
        await finished(b, both);
        // And the other way round: queued on A while its runner rests, run by B.
        await a.service.jobs.stop();
        const aQueued = await Promise.all(Array.from({ length: 4 }, () => queue(a)));
        await finished(b, aQueued);

        for (const id of [...bQueued, ...both, ...aQueued]) {
          expect(runs.get(`${id}:${two}`)).toHaveLength(1);
          expect(runs.get(`${id}:${four}`)).toHaveLength(1);
        }
        const runner = (service: Service) => (service === a.service ? 'A' : service === b.service ? 'B' : 'other');
        const ranBy = [...runs.values()].flat().map(runner);
        expect(ranBy).toHaveLength(2 * 24);
        // What was queued on one process while its runner rested, the other ran.
        for (const id of bQueued) expect(runs.get(`${id}:${four}`)!.map(runner)).toEqual(['A']);
        for (const id of aQueued) expect(runs.get(`${id}:${four}`)!.map(runner)).toEqual(['B']);
      } finally {
        await a.close();
        await b.close();
        await shared.drop();
      }
    });
  });
}
