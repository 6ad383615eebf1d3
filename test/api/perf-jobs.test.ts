import { join } from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineProvider, type Provider, type StepContext } from '../../src-main/core/transform/provider.ts';
import { providers } from '../../src-main/core/transform/providers/index.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The job engine runs the steps of a job that answer at once back to back, in one
 * transaction (runner.ts), hands them one parsed envelope so GOBL checks it once
 * (checked-document.ts), and stores the envelope silo.close sealed from the stored one
 * without checking it again (step-context.ts). None of that may change what a job does:
 * the same workflows run one step at a time, each step in a transaction of its own and
 * checking for itself, as the engine ran every step before, must store and answer the same.
 */

// GOBL's checks and signature verifications, counted where the service calls them.
const counts = vi.hoisted(() => ({ checks: 0, verifies: 0 }));
vi.mock('../../src-main/core/gobl/engine/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src-main/core/gobl/engine/index.ts')>();
  return {
    ...real,
    checkDocument: (...args: Parameters<typeof real.checkDocument>) => {
      counts.checks++;
      return real.checkDocument(...args);
    },
  };
});
vi.mock('../../src-main/core/gobl/sign/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src-main/core/gobl/sign/index.ts')>();
  return {
    ...real,
    verifyEnvelopeSigs: (...args: Parameters<typeof real.verifyEnvelopeSigs>) => {
      counts.verifies++;
      return real.verifyEnvelopeSigs(...args);
    },
  };
});

/** The built-in providers as the engine ran them before rounds: each step alone, and none sealing through its context. */
const oneAtATime: Provider<any>[] = providers
  .filter((p) => p.inline)
  .map((p) => ({ ...p, inline: false, run: (ctx: StepContext, config: unknown) => p.run({ ...ctx, seal: undefined }, config) }));

/**
 * A step that reaches outside the database, as a webhook does: it looks at the entry and the
 * job's intents through a connection of its own, which sees only what was committed (on
 * SQLite a connection to the file; on PostgreSQL any pooled one, outside every transaction).
 */
const seen: Array<{ state: string; outcomes: string[] }> = [];
const ENTRY_STATE = 'SELECT state FROM entries WHERE company_id = ? AND id = ?';
const INTENT_EVENTS = 'SELECT events FROM intents WHERE company_id = ? AND job_id = ? ORDER BY seq';
async function committed(ctx: StepContext): Promise<{ entry: { state: string }; intents: Array<{ events: string }> }> {
  const args = { entry: [ctx.owner.companyKey, ctx.job.silo_entry_id], intents: [ctx.owner.companyKey, ctx.job.id] };
  if (ctx.service.db.dialect === 'postgres') {
    // A step that runs alone runs outside every transaction: each statement takes a pooled connection.
    const { db } = ctx.service;
    return { entry: (await db.sqlFirst<{ state: string }>(ENTRY_STATE, args.entry))!, intents: await db.sql<{ events: string }>(INTENT_EVENTS, args.intents) };
  }
  const db = new Database(join(ctx.service.dataDir, 'silodesk.db'), { readonly: true });
  try {
    return {
      entry: db.prepare(ENTRY_STATE).get(...args.entry) as { state: string },
      intents: db.prepare(INTENT_EVENTS).all(...args.intents) as Array<{ events: string }>,
    };
  } finally {
    db.close();
  }
}
const observer = defineProvider({
  id: 'test.observer',
  description: 'reads what is committed, as anything outside the database would see it',
  config: z.object({}),
  run: async (ctx) => {
    const { entry, intents } = await committed(ctx);
    seen.push({ state: entry.state, outcomes: intents.flatMap((i) => (JSON.parse(i.events) as Array<{ status: string }>).map((e) => e.status)) });
    return { status: 'OK' };
  },
});

let rounds: TestServer;
let alone: TestServer;
beforeAll(async () => {
  // A round never stops at its time limit here, so what one job costs is the same however busy the machine is.
  rounds = await startTestServer({ runner: { retryBaseMs: 20, roundMs: 60_000 }, extraProviders: [observer] });
  alone = await startTestServer({ extraProviders: oneAtATime });
});
afterAll(async () => {
  await rounds?.close();
  await alone?.close();
});

/** A complete, valid invoice of its own (GOBL wants a uuid with a time in it). */
function invoice(code: string, mutate?: (doc: any) => void): Record<string, unknown> {
  const { doc } = loadEnvelope('es-invoice-es-es.json');
  doc.uuid = uuidv7();
  doc.code = code;
  mutate?.(doc);
  return doc;
}

async function workflow(t: TestServer, steps: unknown[], rescue: unknown[] = []): Promise<string> {
  const res = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'the same either way', steps, rescue });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

/** Moments differ from run to run: they go. */
const MOMENTS = new Set(['at', 'created_at', 'updated_at', 'completed_at', 'issued_at']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `value` with its moments left out, its signatures counted (each holds its moment), and
 * every id named by where it first appears (the entry, the job, its workflow's steps, the
 * token), which is the same place in either run when the runs agree.
 */
function normalised(value: unknown, names: Map<string, string>): unknown {
  if (typeof value === 'string') {
    if (!names.has(value) && UUID.test(value)) names.set(value, `<id ${names.size + 1}>`);
    return names.get(value) ?? value;
  }
  if (Array.isArray(value)) return value.map((v) => normalised(v, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !MOMENTS.has(k))
      .map(([k, v]) => [k, k === 'sigs' && Array.isArray(v) ? v.length : normalised(v, names)]),
  );
}

/** What a job left, less what names it or its moment: its answer, its entry, and the entry's history. */
async function ranOn(t: TestServer, steps: unknown[], rescue: unknown[], data: Record<string, unknown>) {
  const workflowId = await workflow(t, steps, rescue);
  // Stored as given, faults and all: a step is to find them.
  const stored = await t.call('POST', '/silo/v1/entries', { data, allow_invalid: true });
  expect(stored.status, JSON.stringify(stored.body)).toBe(200);
  const entryId = stored.body.id;
  const job = await t.call('POST', '/transform/v1/jobs?wait=30', { workflow_id: workflowId, silo_entry_id: entryId });
  expect(job.status, JSON.stringify(job.body)).toBe(200);
  const entry = (await t.call('GET', `/silo/v1/entries/${entryId}`)).body;
  const history = (await t.call('GET', `/silo/v1/entries/${entryId}/versions?limit=100`)).body.list;
  const names = new Map<string, string>();
  return normalised({ job: job.body, entry, history }, names) as { job: any; entry: any; history: any[] };
}

/** The same workflow on the same document, run in rounds and one step at a time. */
async function bothWays(steps: unknown[], rescue: unknown[], data: Record<string, unknown>) {
  return { inRounds: await ranOn(rounds, steps, rescue, structuredClone(data)), oneByOne: await ranOn(alone, steps, rescue, structuredClone(data)) };
}

describe('jobs run in rounds', () => {
  it('store and answer what the same steps one at a time do: registered, checked and sealed', async () => {
    const steps = [{ provider: 'silo.state', config: { state: 'registered' } }, { provider: 'gobl.validate' }, { provider: 'silo.close' }];
    const { inRounds, oneByOne } = await bothWays(steps, [], invoice('ROUND-1'));
    expect(inRounds.job.status).toBe('OK');
    expect(inRounds.entry).toMatchObject({ state: 'registered', signed: true, faults: [] });
    // Sealing leaves the document as it was (its digest): the state is the one change history keeps.
    expect(inRounds.history.map((v: any) => [v.action, v.actor.via])).toEqual([['changed', 'workflow'], ['created', 'http']]);
    expect(inRounds).toEqual(oneByOne);
  });

  it('store and answer the same when a check fails: faults on the job and the entry, rescue steps run', async () => {
    const steps = [{ provider: 'silo.folder', config: { folder: 'checking' } }, { provider: 'gobl.validate' }, { provider: 'silo.close' }];
    const rescue = [{ provider: 'silo.tags', config: { add: ['needs-review'] } }];
    const miscalculated = invoice('ROUND-2', (doc) => (doc.totals.payable = '1.00'));
    const { inRounds, oneByOne } = await bothWays(steps, rescue, miscalculated);
    expect(inRounds.job.status).toBe('KO');
    expect(inRounds.job.faults.some((f: any) => f.provider === 'gobl.validate')).toBe(true);
    expect(inRounds.entry).toMatchObject({ folder: 'checking', tags: ['needs-review'], signed: false });
    expect(inRounds).toEqual(oneByOne);
  });

  it('store and answer the same when a step changes the document before it is checked and sealed', async () => {
    const steps = [
      { provider: 'silo.modify', config: { merge_patch: { doc: { code: 'ROUND-3-B' } } } },
      { provider: 'gobl.validate' },
      { provider: 'silo.if', config: { path: 'doc.code', equals: 'ROUND-3-B' } },
      { provider: 'silo.close' },
      { provider: 'silo.tags', config: { add: ['closed'] } },
    ];
    const { inRounds, oneByOne } = await bothWays(steps, [], invoice('ROUND-3-A'));
    expect(inRounds.job.status).toBe('OK');
    expect(inRounds.entry).toMatchObject({ signed: true, tags: ['closed'], data: { doc: { code: 'ROUND-3-B' }, sigs: 1 } });
    expect(inRounds.history.map((v: any) => v.changed)).toEqual([['tags'], ['document'], ['document', 'state', 'folder', 'tags']]);
    expect(inRounds).toEqual(oneByOne);
  });

  it('commit a round before a step that reaches outside the database starts: it sees the steps before it done', async () => {
    const steps = [
      { provider: 'silo.state', config: { state: 'registered' } },
      { provider: 'gobl.validate' },
      { provider: 'test.observer' },
      { provider: 'silo.tags', config: { add: ['seen'] } },
    ];
    seen.length = 0;
    const { job } = await ranOn(rounds, steps, [], invoice('ROUND-SEEN'));
    expect(job.status).toBe('OK');
    // Both steps before it were committed, outcomes and effects, when it looked. On PostgreSQL
    // its own RUN was too: the step is claimed, in a commit of its own, before it starts (job-claims.ts).
    const own = rounds.service.db.dialect === 'postgres' ? ['RUN'] : [];
    expect(seen).toEqual([{ state: 'registered', outcomes: ['RUN', 'OK', 'RUN', 'OK', ...own] }]);
    expect(job.intents.map((i: any) => i.events.map((e: any) => e.status))).toEqual([['RUN', 'OK'], ['RUN', 'OK'], ['RUN', 'OK'], ['RUN', 'OK']]);
  });

  it('run a three-step job in one transaction, check its document with GOBL once at most, and take the signature it made as made', async () => {
    const steps = [{ provider: 'silo.state', config: { state: 'registered' } }, { provider: 'gobl.validate' }, { provider: 'silo.close' }];
    const costOf = async (t: TestServer, verdict: 'kept' | 'unknown') => {
      const entry = await t.call('POST', '/silo/v1/entries', { data: invoice('ROUND-COST') });
      // Stored, the document carries GOBL's verdict on it (check-mark.ts); without it, the steps check it themselves.
      if (verdict === 'unknown') await t.service.db.sqlRun('UPDATE entries SET checked = NULL WHERE id = ?', [entry.body.id]);
      const workflowId = await workflow(t, steps);
      // Queued while the engine rests, so that only the job's own run is counted.
      await t.service.jobs.stop();
      const queued = await t.call('POST', '/transform/v1/jobs', { workflow_id: workflowId, silo_entry_id: entry.body.id });
      expect(queued.status, JSON.stringify(queued.body)).toBe(200);
      const seq = (await t.service.db.sqlFirst<{ seq: number }>('SELECT seq FROM jobs WHERE id = ?', [queued.body.id]))!.seq;

      const { db } = t.service;
      const tx = db.tx.bind(db);
      let transactions = 0;
      db.tx = ((...args: Parameters<typeof tx>) => {
        // Outside every transaction of its flow: one of its own, not a savepoint.
        if (db.origin === undefined) transactions++;
        return tx(...args);
      }) as typeof db.tx;
      counts.checks = 0;
      counts.verifies = 0;
      try {
        t.service.jobs.start();
        await t.service.jobs.waitFor(seq, 30_000);
      } finally {
        db.tx = tx;
      }
      const status = (await t.service.db.sqlFirst<{ status: string }>('SELECT status FROM jobs WHERE seq = ?', [seq]))?.status;
      return { status, transactions, checks: counts.checks, verifies: counts.verifies };
    };
    // One step at a time: two transactions per step (its RUN committed before it runs, its outcome after),
    // each step checking the document, the seal verified.
    expect(await costOf(alone, 'unknown')).toEqual({ status: 'OK', transactions: 6, checks: 3, verifies: 1 });
    expect(await costOf(rounds, 'unknown')).toEqual({ status: 'OK', transactions: 1, checks: 1, verifies: 0 });
    // The verdict the entry keeps: gobl.validate and silo.close take it; one step at a time, the signed document is checked as it is stored.
    expect(await costOf(alone, 'kept')).toEqual({ status: 'OK', transactions: 6, checks: 1, verifies: 1 });
    expect(await costOf(rounds, 'kept')).toEqual({ status: 'OK', transactions: 1, checks: 0, verifies: 0 });
  });
});
