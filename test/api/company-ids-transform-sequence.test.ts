import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { v1 as uuidv1, v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { holdSeries } from '../../src-main/core/sequence/holds.ts';
import { oneLineInvoice } from './gobl-helpers.ts';
import { openCompany, startTestServer, type TestServer } from './harness.ts';

/**
 * Workflow, job, series and series entry ids are the company's own (issue 12): two
 * companies on one install may hold the same id, each with its own content, and
 * whatever one does under that id reads and changes only its own record. A job of
 * company B on entry X, which A holds too, works on B's X alone.
 */
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

let t: TestServer;
let A: Call;
let B: Call;
let companyA: string;
let companyB: string;

beforeAll(async () => {
  t = await startTestServer();
  companyA = (await t.call('GET', '/access/v1/companies')).body.list[0].id;
  const made = await openCompany(t);
  companyB = made.id;
  A = (method, path, body) => t.call(method, path, body);
  B = (method, path, body) => t.call(method, path, body, { authorization: `Bearer ${made.owner}` });
});
afterAll(() => t.close());

/** The same request must be answered 200 for each company: another company holding the id is no conflict. */
async function ok(call: Call, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** Entry `id` in both companies, each with its own document. */
async function entryInBoth(id: string, docA: unknown, docB: unknown): Promise<void> {
  await ok(A, 'PUT', `/silo/v1/entries/${id}`, { data: docA, allow_invalid: true });
  await ok(B, 'PUT', `/silo/v1/entries/${id}`, { data: docB });
}

/** Workflow `id` in both companies, each with its own steps. */
async function workflowInBoth(id: string, stepsA: unknown[], stepsB: unknown[]): Promise<void> {
  await ok(A, 'PUT', `/transform/v1/workflows/${id}`, { name: 'A flow', steps: stepsA });
  await ok(B, 'PUT', `/transform/v1/workflows/${id}`, { name: 'B flow', steps: stepsB });
}

/** PUTs job `jobId` and waits for it to end. */
async function runJob(call: Call, jobId: string, body: Record<string, unknown>): Promise<any> {
  const job = await ok(call, 'PUT', `/transform/v1/jobs/${jobId}?wait=20`, body);
  expect(job.completed_at, JSON.stringify(job)).toBeTruthy();
  return job;
}

/** An invoice whose payable says 9999.99 while its line makes 1210.00: stored flagged invalid. */
async function miscalculated(code: string): Promise<any> {
  const built = await ok(A, 'POST', '/silo/v1/gobl/build', { data: oneLineInvoice(code) });
  return { ...built.data, totals: { ...built.data.totals, payable: '9999.99' } };
}

describe('workflows under one id in two companies', () => {
  it('are created, read, replayed, patched, versioned and listed each on its own', async () => {
    const id = uuidv7();
    const step = uuidv4();
    const bodyA = { name: 'A flow', steps: [{ id: step, provider: 'silo.state', config: { state: 'sent' } }] };
    const bodyB = { name: 'B flow', steps: [{ id: step, provider: 'silo.tags', config: { add: ['from-b'] } }] };
    const a = await ok(A, 'PUT', `/transform/v1/workflows/${id}`, bodyA);
    const b = await ok(B, 'PUT', `/transform/v1/workflows/${id}`, bodyB);
    expect([a.name, b.name]).toEqual(['A flow', 'B flow']);

    // a retry is answered with the company's own workflow; another body is a conflict only with its own
    expect((await ok(B, 'PUT', `/transform/v1/workflows/${id}`, bodyB)).steps[0].provider).toBe('silo.tags');
    expect((await B('PUT', `/transform/v1/workflows/${id}`, bodyA)).status).toBe(409);
    expect((await ok(A, 'GET', `/transform/v1/workflows/${id}`)).steps[0].provider).toBe('silo.state');

    const patched = await ok(B, 'PATCH', `/transform/v1/workflows/${id}`, { name: 'B flow v2' });
    expect(patched.version).toBe('2');
    const ofA = await ok(A, 'GET', `/transform/v1/workflows/${id}`);
    expect([ofA.name, ofA.version]).toEqual(['A flow', '1']);
    expect((await A('GET', `/transform/v1/workflows/${id}?version=2`)).status).toBe(404);
    expect((await ok(B, 'GET', `/transform/v1/workflows/${id}?version=1`)).name).toBe('B flow');

    // A's own version 2 is A's change, not B's
    const a2 = await ok(A, 'PATCH', `/transform/v1/workflows/${id}`, { disabled: true });
    expect([a2.name, a2.version, a2.disabled]).toEqual(['A flow', '2', true]);
    expect((await ok(B, 'GET', `/transform/v1/workflows/${id}?version=2`)).name).toBe('B flow v2');

    const listA = (await ok(A, 'GET', '/transform/v1/workflows?limit=100')).list.filter((w: any) => w.id === id);
    const listB = (await ok(B, 'GET', '/transform/v1/workflows?limit=100')).list.filter((w: any) => w.id === id);
    expect(listA.map((w: any) => w.name)).toEqual(['A flow']);
    expect(listB.map((w: any) => w.name)).toEqual(['B flow v2']);

    // A's workflow is disabled, B's is not: each takes jobs by its own
    const entry = uuidv7();
    await entryInBoth(entry, oneLineInvoice('WF-A'), oneLineInvoice('WF-B'));
    expect((await A('POST', '/transform/v1/jobs', { workflow_id: id, silo_entry_id: entry })).status).toBe(409);
    expect((await runJob(B, uuidv7(), { workflow_id: id, silo_entry_id: entry })).status).toBe('OK');
  });
});

describe('jobs under one id in two companies', () => {
  const idMakers: Array<[string, () => string]> = [['v1', () => uuidv1()], ['v7', () => uuidv7()]];
  for (const [kind, makeId] of idMakers) {
    it(`a PUT job with a ${kind} id runs each company's workflow on its own entry`, async () => {
      const entry = uuidv7();
      const workflow = uuidv7();
      const jobId = makeId();
      await entryInBoth(entry, oneLineInvoice('JOB-A'), oneLineInvoice('JOB-B'));
      await workflowInBoth(
        workflow,
        [{ provider: 'silo.state', config: { state: 'sent' } }],
        [{ provider: 'silo.tags', config: { add: ['tagged-by-b'] } }],
      );
      const body = { workflow_id: workflow, silo_entry_id: entry };
      const jobA = await runJob(A, jobId, body);
      const jobB = await runJob(B, jobId, body);
      expect([jobA.status, jobB.status]).toEqual(['OK', 'OK']);
      expect(jobA.intents.map((i: any) => i.provider)).toEqual(['silo.state']);
      expect(jobB.intents.map((i: any) => i.provider)).toEqual(['silo.tags']);
      expect(jobA.envelope.doc.code).toBe('JOB-A');
      expect(jobB.envelope.doc.code).toBe('JOB-B');

      const entryA = await ok(A, 'GET', `/silo/v1/entries/${entry}`);
      const entryB = await ok(B, 'GET', `/silo/v1/entries/${entry}`);
      expect(entryA.state).toBe('sent');
      expect(entryA.tags).not.toContain('tagged-by-b');
      expect(entryB.state).not.toBe('sent');
      expect(entryB.tags).toContain('tagged-by-b');

      // the same request again is each company's own job; another body conflicts only with its own
      expect((await ok(A, 'PUT', `/transform/v1/jobs/${jobId}`, body)).created_at).toBe(jobA.created_at);
      expect((await ok(B, 'PUT', `/transform/v1/jobs/${jobId}`, body)).intents[0].provider).toBe('silo.tags');
      expect((await B('PUT', `/transform/v1/jobs/${jobId}`, { ...body, tags: ['other'] })).status).toBe(409);
      expect((await ok(A, 'GET', `/transform/v1/jobs/${jobId}`)).intents[0].provider).toBe('silo.state');

      for (const [call, provider] of [[A, 'silo.state'], [B, 'silo.tags']] as const) {
        const byEntry = await ok(call, 'GET', `/transform/v1/jobs?silo_entry_id=${entry}&limit=100`);
        expect(byEntry.list.map((j: any) => [j.id, j.intents[0].provider])).toEqual([[jobId, provider]]);
        const byWorkflow = await ok(call, 'GET', `/transform/v1/jobs?workflow_id=${workflow}&limit=100`);
        expect(byWorkflow.list.map((j: any) => j.id)).toEqual([jobId]);
      }
    });
  }

  it('a POST with the same key in both companies makes one job in each', async () => {
    const entry = uuidv7();
    const workflow = uuidv7();
    const key = `order-${uuidv4()}`;
    await entryInBoth(entry, oneLineInvoice('KEY-A'), oneLineInvoice('KEY-B'));
    await workflowInBoth(workflow, [{ provider: 'silo.state', config: { state: 'paid' } }], [{ provider: 'silo.state', config: { state: 'sent' } }]);
    const body = { workflow_id: workflow, silo_entry_id: entry, key };
    const jobA = await ok(A, 'POST', '/transform/v1/jobs?wait=20', body);
    const jobB = await ok(B, 'POST', '/transform/v1/jobs?wait=20', body);
    expect(jobB.id).not.toBe(jobA.id);
    expect((await ok(A, 'GET', `/transform/v1/jobs/key/${key}`)).id).toBe(jobA.id);
    expect((await ok(B, 'GET', `/transform/v1/jobs/key/${key}`)).id).toBe(jobB.id);
    expect((await ok(A, 'POST', '/transform/v1/jobs', body)).id).toBe(jobA.id);
    expect((await ok(A, 'GET', `/silo/v1/entries/${entry}`)).state).toBe('paid');
    expect((await ok(B, 'GET', `/silo/v1/entries/${entry}`)).state).toBe('sent');
  });

  it("a cancel by one company ends only its own job; the runner claims and finishes the other's", async () => {
    const entry = uuidv7();
    const workflow = uuidv7();
    const jobId = uuidv7();
    await entryInBoth(entry, oneLineInvoice('CAN-A'), oneLineInvoice('CAN-B'));
    await workflowInBoth(workflow, [{ provider: 'silo.state', config: { state: 'sent' } }], [{ provider: 'silo.state', config: { state: 'sent' } }]);
    const body = { workflow_id: workflow, silo_entry_id: entry };
    await t.service.jobs.stop();
    try {
      expect((await ok(A, 'PUT', `/transform/v1/jobs/${jobId}`, body)).status).toBe('QUEUED');
      expect((await ok(B, 'PUT', `/transform/v1/jobs/${jobId}`, body)).status).toBe('QUEUED');
      const cancelled = await ok(B, 'POST', `/transform/v1/jobs/${jobId}/cancel`);
      expect(cancelled.status).toBe('KO');
      expect(cancelled.faults.map((f: any) => f.code)).toContain('cancelled');
      const waiting = await ok(A, 'GET', `/transform/v1/jobs/${jobId}`);
      expect([waiting.status, waiting.completed_at, waiting.faults]).toEqual(['QUEUED', undefined, []]);
    } finally {
      t.service.jobs.start();
    }
    const done = await ok(A, 'GET', `/transform/v1/jobs/${jobId}?wait=20`);
    expect(done.status).toBe('OK');
    expect(done.intents[0].events.map((e: any) => e.status)).toEqual(['RUN', 'OK']);
    expect((await ok(A, 'GET', `/silo/v1/entries/${entry}`)).state).toBe('sent');
    expect((await ok(B, 'GET', `/silo/v1/entries/${entry}`)).state).not.toBe('sent');
    const stillCancelled = await ok(B, 'GET', `/transform/v1/jobs/${jobId}`);
    expect(stillCancelled.status).toBe('KO');
    expect(stillCancelled.intents[0].events.map((e: any) => e.status)).toEqual(['CANCEL']);
  });
});

describe("providers read and write the job's company's entry", () => {
  it("gobl.validate and webhook see B's faults only, and B's run leaves A's step faults alone", async () => {
    const entry = uuidv7();
    await entryInBoth(entry, await miscalculated('VAL-A'), oneLineInvoice('VAL-B'));
    const validate = uuidv7();
    await workflowInBoth(validate, [{ provider: 'gobl.validate' }], [{ provider: 'gobl.validate' }]);
    const jobId = uuidv7();
    expect((await runJob(A, jobId, { workflow_id: validate, silo_entry_id: entry })).status).toBe('KO');
    expect((await runJob(B, jobId, { workflow_id: validate, silo_entry_id: entry })).status).toBe('OK');
    const stepFaults = (e: any) => e.faults.filter((f: any) => f.provider === 'gobl.validate');
    expect(stepFaults(await ok(A, 'GET', `/silo/v1/entries/${entry}`))).not.toEqual([]);
    expect(stepFaults(await ok(B, 'GET', `/silo/v1/entries/${entry}`))).toEqual([]);

    const received: any[] = [];
    const server: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        received.push(JSON.parse(text));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const hook = uuidv7();
      const callback = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
      await workflowInBoth(hook, [{ provider: 'webhook', config: { callback_url: callback, event: 'a' } }], [
        { provider: 'webhook', config: { callback_url: callback, event: 'b' } },
      ]);
      const hookJob = uuidv7();
      expect((await runJob(B, hookJob, { workflow_id: hook, silo_entry_id: entry })).status).toBe('OK');
      expect((await runJob(A, hookJob, { workflow_id: hook, silo_entry_id: entry })).status).toBe('OK');
      expect(received.map((r) => [r.event, r.owner_id, r.transform_job_id, r.silo_entry_id])).toEqual([
        ['b', companyB, hookJob, entry],
        ['a', companyA, hookJob, entry],
      ]);
      expect(received[0].faults).toEqual([]);
      expect(received[1].faults.length).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });

  it("pdf and export.folder attach to and export B's entry, never A's files", async () => {
    const entry = uuidv7();
    await entryInBoth(entry, oneLineInvoice('PDF-A'), oneLineInvoice('PDF-B'));
    const secret = Buffer.from('only for company A').toString('base64');
    await ok(A, 'PUT', `/silo/v1/entries/${entry}/files/secret`, { name: 'a-secret.txt', data: secret });
    const workflow = uuidv7();
    await workflowInBoth(
      workflow,
      [{ provider: 'pdf' }, { provider: 'export.folder', config: { path: 'books-a' } }],
      [{ provider: 'pdf' }, { provider: 'export.folder', config: { path: 'books-b' } }],
    );
    const jobId = uuidv7();
    const jobA = await runJob(A, jobId, { workflow_id: workflow, silo_entry_id: entry });
    expect(jobA.status, JSON.stringify(jobA.intents)).toBe('OK');
    const pdfOfA = jobA.attachments.find((f: any) => f.id === 'pdf');
    // A's entry already has a `pdf`: B's step must look at B's entry, which has none
    const jobB = await runJob(B, jobId, { workflow_id: workflow, silo_entry_id: entry });
    expect(jobB.status, JSON.stringify(jobB.intents)).toBe('OK');
    expect(jobB.attachments.map((f: any) => f.id)).toEqual(['pdf']);
    expect(jobB.attachments[0].hash).not.toBe(pdfOfA.hash);
    const filesOf = (list: any[]) => list.map((f: any) => `${f.id}:${f.hash}`).sort();
    expect(filesOf((await ok(A, 'GET', `/silo/v1/entries/${entry}`)).attachments)).toEqual(filesOf(jobA.attachments));
    expect(jobA.attachments.map((f: any) => f.id).sort()).toEqual(['pdf', 'secret']);

    const exported = (path: string) => readdirSync(join(t.dataDir, 'exports', path, entry)).sort();
    expect(exported('books-a')).toEqual(['INV-PDF-A.json', 'INV-PDF-A.pdf', 'a-secret.txt']);
    expect(exported('books-b')).toEqual(['INV-PDF-B.json', 'INV-PDF-B.pdf']);
    const json = JSON.parse(readFileSync(join(t.dataDir, 'exports', 'books-b', entry, 'INV-PDF-B.json'), 'utf8'));
    expect(json.doc.code).toBe('PDF-B');
    expect(existsSync(join(t.dataDir, 'exports', 'books-b', entry, 'a-secret.txt'))).toBe(false);
  });

  it("sequence.enumerate numbers each company's entry from its own series under the same ids", async () => {
    const entry = uuidv7();
    const series = uuidv4();
    await entryInBoth(entry, oneLineInvoice('DRAFT-A'), oneLineInvoice('DRAFT-B'));
    await ok(A, 'PUT', `/sequence/v1/series/${series}`, { name: 'A sales', code: 'SA', prefix: 'A', padding: 4 });
    await ok(B, 'PUT', `/sequence/v1/series/${series}`, { name: 'B sales', code: 'SB', prefix: 'B', padding: 4, start: 7 });
    const workflow = uuidv7();
    const step = { id: uuidv4(), provider: 'sequence.enumerate', config: { series_id: series } };
    await workflowInBoth(workflow, [step], [step]);
    const jobId = uuidv7();
    const body = { workflow_id: workflow, silo_entry_id: entry };
    expect((await runJob(A, jobId, body)).envelope.doc).toMatchObject({ series: 'SA', code: 'A0001' });
    expect((await runJob(B, jobId, body)).envelope.doc).toMatchObject({ series: 'SB', code: 'B0007' });

    // job, step and series ids are the same, so is the series entry id each derived
    const issuedA = (await ok(A, 'GET', `/sequence/v1/series/${series}/entries?limit=10`)).list;
    const issuedB = (await ok(B, 'GET', `/sequence/v1/series/${series}/entries?limit=10`)).list;
    expect(issuedA.map((e: any) => [e.code, e.meta.job_id])).toEqual([['A0001', jobId]]);
    expect(issuedB.map((e: any) => [e.code, e.meta.job_id])).toEqual([['B0007', jobId]]);
    expect(issuedB[0].id).toBe(issuedA[0].id);
    expect(await ok(A, 'GET', `/sequence/v1/series/${series}/verify`)).toEqual({ valid: true, count: 1 });
    expect(await ok(B, 'GET', `/sequence/v1/series/${series}/verify`)).toEqual({ valid: true, count: 1 });

    // run again, each sees the number its own series gave its own entry
    const again = await runJob(B, uuidv7(), body);
    expect(again.intents[0].events.at(-1)).toMatchObject({ status: 'OK', code: 'already' });
    expect((await ok(B, 'GET', `/sequence/v1/series/${series}`)).last_index).toBe(7);

    // B holds the very invoice A's series numbered: B's series never gave that number, so it gives one
    const copy = uuidv7();
    await ok(A, 'PUT', `/silo/v1/entries/${copy}`, { data: oneLineInvoice('DRAFT-A2') });
    const numbered = (await runJob(A, uuidv7(), { workflow_id: workflow, silo_entry_id: copy })).envelope.doc;
    expect(numbered).toMatchObject({ series: 'SA', code: 'A0002' });
    await ok(B, 'PUT', `/silo/v1/entries/${copy}`, { data: numbered });
    const ofB = await runJob(B, uuidv7(), { workflow_id: workflow, silo_entry_id: copy });
    expect(ofB.intents[0].events.at(-1).code).not.toBe('already');
    expect(ofB.envelope.doc).toMatchObject({ series: 'SB', code: 'B0008' });
  });
});

describe('series under one id in two companies', () => {
  it('are created, changed, issued, listed and verified each on its own', async () => {
    const id = uuidv4();
    const a = await ok(A, 'PUT', `/sequence/v1/series/${id}`, { name: 'A sales', code: 'A', prefix: 'A-' });
    const b = await ok(B, 'PUT', `/sequence/v1/series/${id}`, { name: 'B sales', code: 'B', prefix: 'B-', start: 100 });
    expect([a.name, b.name]).toEqual(['A sales', 'B sales']);
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}`)).prefix).toBe('A-');
    expect((await ok(B, 'PATCH', `/sequence/v1/series/${id}`, { name: 'B renamed' })).name).toBe('B renamed');
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}`)).name).toBe('A sales');
    expect((await ok(A, 'GET', '/sequence/v1/series')).list.filter((s: any) => s.id === id).map((s: any) => s.name)).toEqual(['A sales']);
    expect((await ok(B, 'GET', '/sequence/v1/series')).list.filter((s: any) => s.id === id).map((s: any) => s.name)).toEqual(['B renamed']);

    const entry = uuidv4();
    const inA = await ok(A, 'PUT', `/sequence/v1/series/${id}/entries/${entry}`, { meta: { who: 'a' } });
    const inB = await ok(B, 'PUT', `/sequence/v1/series/${id}/entries/${entry}`, { meta: { who: 'b' } });
    expect([inA.code, inA.index]).toEqual(['A-1', 1]);
    expect([inB.code, inB.index]).toEqual(['B-100', 100]);
    // a retry answers the company's own entry; another body conflicts with its own only
    expect((await ok(B, 'PUT', `/sequence/v1/series/${id}/entries/${entry}`, { meta: { who: 'b' } })).code).toBe('B-100');
    expect((await B('PUT', `/sequence/v1/series/${id}/entries/${entry}`, { meta: { who: 'a' } })).status).toBe(409);
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}/entries/${entry}`)).meta).toEqual({ who: 'a' });
    expect((await ok(B, 'GET', `/sequence/v1/series/${id}/entries/${entry}`)).meta).toEqual({ who: 'b' });

    const second = await ok(A, 'PUT', `/sequence/v1/series/${id}/entries/${uuidv4()}`, { meta: { who: 'a' } });
    expect([second.index, second.previous_id]).toEqual([2, entry]);
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}/entries?limit=10`)).list.map((e: any) => e.code)).toEqual(['A-1', 'A-2']);
    expect((await ok(B, 'GET', `/sequence/v1/series/${id}/entries?limit=10`)).list.map((e: any) => e.code)).toEqual(['B-100']);
    expect(await ok(A, 'GET', `/sequence/v1/series/${id}/verify`)).toEqual({ valid: true, count: 2 });
    expect(await ok(B, 'GET', `/sequence/v1/series/${id}/verify`)).toEqual({ valid: true, count: 1 });
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}`)).last_entry_id).toBe(second.id);
    expect((await ok(B, 'GET', `/sequence/v1/series/${id}`)).last_entry_id).toBe(entry);

    // B's next entry chains to B's entry under the shared id, not to A's
    const next = await ok(B, 'PUT', `/sequence/v1/series/${id}/entries/${uuidv4()}`, {});
    expect([next.code, next.previous_id]).toEqual(['B-101', entry]);
    expect(await ok(B, 'GET', `/sequence/v1/series/${id}/verify`)).toEqual({ valid: true, count: 2 });

    // B has issued, so its numbering is fixed
    expect((await B('PATCH', `/sequence/v1/series/${id}`, { prefix: 'X-' })).status).toBe(409);
  });

  it("a hold is the company's own: it stops A's numbering, not B's, and only A releases it", async () => {
    const id = uuidv4();
    await ok(A, 'PUT', `/sequence/v1/series/${id}`, { name: 'A held', code: 'H', prefix: 'H-' });
    await ok(B, 'PUT', `/sequence/v1/series/${id}`, { name: 'B free', code: 'F', prefix: 'F-' });
    const keyA = (await companyKeyOf(t.service.db, companyA))!;
    await holdSeries(t.service.db, keyA, id, 'restored');
    // a fork outranks the restore on the same (company, series) row
    await holdSeries(t.service.db, keyA, id, 'fork');
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}`)).hold?.reason).toBe('fork');
    expect((await ok(B, 'GET', `/sequence/v1/series/${id}`)).hold).toBeUndefined();

    expect((await A('PUT', `/sequence/v1/series/${id}/entries/${uuidv4()}`, {})).status).toBe(409);
    expect((await ok(B, 'PUT', `/sequence/v1/series/${id}/entries/${uuidv4()}`, {})).code).toBe('F-1');

    await ok(B, 'POST', `/sequence/v1/series/${id}/release-hold`);
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}`)).hold?.reason).toBe('fork');
    await ok(A, 'POST', `/sequence/v1/series/${id}/release-hold`);
    expect((await ok(A, 'GET', `/sequence/v1/series/${id}`)).hold).toBeUndefined();
    expect((await ok(A, 'PUT', `/sequence/v1/series/${id}/entries/${uuidv4()}`, {})).code).toBe('H-1');
  });
});
