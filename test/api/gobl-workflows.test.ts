import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLineInvoice, partialInvoice, related } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** gobl.build, gobl.correct and gobl.validate, run the way a user runs them: in workflows, over the API. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function runWorkflow(entryId: string, steps: unknown[]) {
  const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'gobl', steps });
  expect(wf.status, JSON.stringify(wf.body)).toBe(200);
  const job = await t.call('POST', '/transform/v1/jobs?wait=20', { workflow_id: wf.body.id, silo_entry_id: entryId });
  expect(job.body.completed_at, JSON.stringify(job.body)).toBeTruthy();
  return job.body;
}

/** An invoice stored flagged invalid: its payable says 9999.99, its line makes 1210.00. */
async function miscalculatedEntry(code: string) {
  const built = (await t.call('POST', '/silo/v1/gobl/build', { data: oneLineInvoice(code) })).body.data;
  built.totals.payable = '9999.99';
  const res = await t.call('POST', '/silo/v1/entries', { data: built, allow_invalid: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.invalid).toBe(true);
  return res.body;
}

describe('gobl.validate', () => {
  it('passes a consistent invoice and fails a miscalculated one with the figure stated and calculated', async () => {
    const good = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'WV-1' }) });
    expect((await runWorkflow(good.body.id, [{ provider: 'gobl.validate' }])).status).toBe('OK');

    const bad = await miscalculatedEntry('WV-2');
    const job = await runWorkflow(bad.id, [{ provider: 'gobl.validate' }]);
    expect(job.status).toBe('KO');
    expect(job.intents[0].events.at(-1)).toMatchObject({ status: 'KO', code: 'invalid' });
    expect(job.faults).toContainEqual(expect.objectContaining({
      provider: 'gobl.validate', code: 'calculation', paths: ['$.doc.totals.payable'], stated: '9999.99', calculated: '1210.00',
    }));
    const entry = await t.call('GET', `/silo/v1/entries/${bad.id}`);
    expect(entry.body.faults.filter((f: any) => f.provider === 'gobl.validate').map((f: any) => f.paths)).toContainEqual(['$.doc.totals.payable']);

    // arithmetic off: the figures are not judged
    expect((await runWorkflow(bad.id, [{ provider: 'gobl.validate', config: { arithmetic: false } }])).status).toBe('OK');
  });
});

describe('gobl.build', () => {
  it('rebuilds a miscalculated document and stores it consistent', async () => {
    const bad = await miscalculatedEntry('WB-1');
    const job = await runWorkflow(bad.id, [{ provider: 'gobl.build' }, { provider: 'gobl.validate' }]);
    expect(job.status, JSON.stringify(job)).toBe('OK');
    expect(job.intents[0].events.at(-1)).toMatchObject({ status: 'OK', code: 'built' });
    const entry = (await t.call('GET', `/silo/v1/entries/${bad.id}`)).body;
    expect(entry.data.doc.totals.payable).toBe('1210.00');
    expect(entry.invalid).toBe(false);
    expect(entry.digest.val).toBe(entry.data.head.dig.val);
  });

  it('is KO with the faults when GOBL cannot build the document', async () => {
    const res = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'WB-2', $tags: ['no-such-tag'] }), allow_invalid: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await runWorkflow(res.body.id, [{ provider: 'gobl.build' }]);
    expect(job.status).toBe('KO');
    expect(job.faults).toContainEqual(expect.objectContaining({ provider: 'gobl.build', code: 'unknown-tag', paths: ['$.doc.$tags[0]'] }));
  });
});

describe('gobl.correct', () => {
  it("stores the credit note of the job's entry as a new entry, related both ways", async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'WC-1' }) });
    const job = await runWorkflow(invoice.body.id, [{ provider: 'gobl.correct', config: { type: 'credit-note', reason: 'Cancelled order' } }]);
    expect(job.status, JSON.stringify(job)).toBe('OK');
    const links = await related(t, invoice.body.id);
    expect(links).toHaveLength(1);
    expect(links[0].context).toBe('preceding');
    const credit = (await t.call('GET', `/silo/v1/entries/${links[0].id}`)).body;
    expect(credit.data.doc.type).toBe('credit-note');
    expect(credit.data.doc.preceding[0]).toMatchObject({ uuid: invoice.body.data.doc.uuid, code: 'WC-1' });
    expect(credit.data.doc.totals.payable).toBe('1318.90');
    expect(job.intents[0].events.at(-1).message).toContain(credit.id);
    expect(await related(t, credit.id)).toEqual([{ id: invoice.body.id, context: 'preceding' }]);
  });

  it('is KO with the faults of options GOBL refuses, and a workflow with unknown options is refused', async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'WC-2' }) });
    const job = await runWorkflow(invoice.body.id, [{ provider: 'gobl.correct', config: { reason: 'no type' } }]);
    expect(job.status).toBe('KO');
    expect(job.faults).toContainEqual(expect.objectContaining({ provider: 'gobl.correct', code: 'correction-type-required' }));
    expect(await related(t, invoice.body.id)).toEqual([]);

    const refused = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'x', steps: [{ provider: 'gobl.correct', config: { kind: 'credit' } }] });
    expect(refused.status).toBe(422);
  });
});
