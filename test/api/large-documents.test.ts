// A large document is built, checked and derived off the service's event loop (the GOBL engine
// thread; its hashes and JSON a piece at a time), and stored exactly as one built inline.
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../src-main/core/gobl/canonical.ts';
import { buildDocument } from '../../src-main/core/gobl/engine/index.ts';
import { searchTextOf } from '../../src-main/core/gobl/search-text.ts';
import { invoiceWithLines } from '../support/large-invoice.ts';
import { probeEngine } from '../support/engine-probe.ts';
import { turnsDuring } from '../support/event-loop-turns.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { csvObjects, textOf, unzip } from './exports-helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('a large document', () => {
  it('is built off the event loop and stored as GOBL builds it', async () => {
    const doc = invoiceWithLines(2_000);
    // Warm: the first large document also starts the thread.
    expect((await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(100) })).status).toBe(200);
    const { result: created, turns } = await turnsDuring(() => t.call('POST', '/silo/v1/entries', { data: doc }));
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(200);
    // Inline, the build alone was one block of some 300 ms: a handful of turns for the whole request.
    expect(turns).toBeGreaterThan(40);
    const inline = buildDocument({ ...structuredClone(doc), uuid: created.body.data.doc.uuid }, { headUuid: created.body.id }).envelope;
    const stored = (await t.call('GET', `/silo/v1/entries/${created.body.id}`)).body;
    expect(stored.data.doc).toEqual(inline.doc);
    expect(stored.digest).toEqual(digestOf(inline.doc));
    expect(stored.faults ?? []).toEqual([]);
    // Its derived rows came from the thread: found by a word of its last line.
    const found = (await t.call('GET', `/silo/v1/entries?q=${encodeURIComponent('Service 2000')}`)).body;
    expect(found.list.map((e: { id: string }) => e.id)).toContain(created.body.id);
    expect(searchTextOf(stored.data.doc)).toContain('Service 2000');
  });

  it('is patched off the event loop, a figure changed by hand refused with its faults', async () => {
    const created = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000) })).body;
    const { result: patched, turns } = await turnsDuring(() =>
      t.call('PATCH', `/silo/v1/entries/${created.id}`, {
        data: [{ op: 'replace', path: '/doc/lines/1999/quantity', value: '3' }],
        content_type: 'application/json-patch+json',
      }),
    );
    expect(patched.status).toBe(422);
    expect(Object.keys(patched.body.fields)).toContain('$.data.doc.lines[1999].sum');
    expect(turns).toBeGreaterThan(20);
    const replayed = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000), allow_invalid: true })).body;
    expect(replayed.invalid).toBe(false);
  });

  it('is checked by a job whose step runs alone, the database free for others while GOBL works', async () => {
    const created = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000) })).body;
    // Its verdict forgotten: the step hands the document to GOBL's thread, for a tenth of a second or more.
    await t.service.db.sqlRun('UPDATE entries SET checked = NULL WHERE id = ?', [created.id]);
    const workflow = (await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'check', steps: [{ provider: 'gobl.validate', config: {} }] })).body;
    const job = (await t.call('POST', '/transform/v1/jobs', { workflow_id: workflow.id, silo_entry_id: created.id })).body;
    // Read as any other client reads it until it ends. Inside a round, the step's job is never seen
    // running: the round's transaction holds the database until the job has ended.
    const seen = new Set<string>();
    let now = job;
    while (!now.completed_at) {
      now = (await t.call('GET', `/transform/v1/jobs/${job.id}`)).body;
      seen.add(now.status);
    }
    expect(seen).toContain('RUN');
    expect(now.status, JSON.stringify(now.intents)).toBe('OK');
    expect(now.intents.map((i: { events: { status: string }[] }) => i.events.map((e) => e.status))).toEqual([['RUN', 'OK']]);
  });

  it("has a version of it restored with GOBL's check before the transaction, the database free meanwhile", async () => {
    const created = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000) })).body;
    const renamed = [{ op: 'replace', path: '/doc/lines/1999/item/name', value: 'Renamed' }];
    expect((await t.call('PATCH', `/silo/v1/entries/${created.id}`, { data: renamed, content_type: 'application/json-patch+json' })).status).toBe(200);
    const probe = probeEngine(async () => (await t.call('GET', '/silo/v1/entries?limit=10')).status === 200);
    let restored;
    try {
      restored = await t.call('POST', `/silo/v1/entries/${created.id}/versions/1/restore`);
    } finally {
      probe.stop();
    }
    expect(restored.status, JSON.stringify(restored.body).slice(0, 300)).toBe(200);
    // The first version's document checked again by the engine, while a list page was answered.
    expect(probe.first).toEqual(['reads']);
    expect(restored.body.data).toEqual(created.data);
    expect(restored.body.version).toBe('3');
    // Signed, it keeps its document: a restore of another version is refused before GOBL does any work.
    expect((await t.call('PATCH', `/silo/v1/entries/${created.id}`, { sign: true })).status).toBe(200);
    const refusal = probeEngine(async () => true);
    try {
      expect((await t.call('POST', `/silo/v1/entries/${created.id}/versions/2/restore`)).status).toBe(409);
    } finally {
      refusal.stop();
    }
    expect(refusal.first).toEqual([]);
  });

  it('is answered as stored, its text not parsed and written again', async () => {
    // Numbers as written: a float would make 10.50 10.5.
    const body = '{"data":{"$schema":"https://example.com/draft-0/ledger-line","amount":10.50,"lines":[1.10,2.0]}}';
    const created = await t.fetch(`${t.url}/silo/v1/entries`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body });
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { id: string }).id;
    const read = await t.fetch(`${t.url}/silo/v1/entries/${id}`, { headers: { authorization: `Bearer ${t.token}` } });
    const text = await read.text();
    expect(text).toContain('"amount":10.50,"lines":[1.10,2.0]');
    // The typed client reads the same document.
    expect((await t.api.getEntry({ params: { id } })).data).toMatchObject({ doc: { amount: 10.5, lines: [1.1, 2] } });
  });
  it('has its labels changed without its document read on the event loop, what its search row needs worked out by the engine first', async () => {
    const created = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000) })).body;
    const found = async (q: string) => (await t.call('GET', `/silo/v1/entries?q=${encodeURIComponent(q)}`)).body.list.map((e: { id: string }) => e.id);
    const probe = probeEngine(async () => (await t.call('GET', '/silo/v1/entries?limit=10')).status === 200);
    try {
      // Another folder and state: nothing made of the document changes, and nothing of it is read again.
      expect((await t.call('PATCH', `/silo/v1/entries/${created.id}`, { folder: 'archive', state: 'sent' })).status).toBe(200);
      expect(probe.first).toEqual([]);
      // New tags: its search row is made again of its words and the tags, the words worked out on the engine's thread.
      const tagged = await t.call('PATCH', `/silo/v1/entries/${created.id}`, { tags: ['audited'] });
      expect(tagged.status).toBe(200);
      expect(tagged.body.data).toEqual(created.data);
      expect(probe.first).toEqual(['reads']);
      expect(await found('audited')).toContain(created.id);
      expect(await found('Service 2000')).toContain(created.id);
      // To the trash (nothing of the document needed) and back (its search row and mentions made again).
      expect((await t.call('DELETE', `/silo/v1/entries/${created.id}`)).status).toBe(200);
      expect(await found('Service 2000')).not.toContain(created.id);
      expect(probe.first).toEqual(['reads']);
      const restored = await t.call('POST', `/silo/v1/entries/${created.id}/restore`);
      expect(restored.status).toBe(200);
      expect(probe.first).toEqual(['reads', 'reads']);
      expect(restored.body).toMatchObject({ data: created.data, folder: 'archive', state: 'sent', tags: ['audited'], faults: [] });
      expect(await found('Service 2000')).toContain(created.id);
    } finally {
      probe.stop();
    }
  });
  it('is exported to a ZIP (deflated a piece at a time) and a CSV, its envelope byte for byte', async () => {
    const created = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(4_000), folder: 'large-export' })).body;
    const exported = async (kind: 'zip' | 'csv') => {
      const res = await fetch(`${t.url}/silo/v1/exports/${kind}`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ids: [created.id] }) });
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    const files = unzip(await exported('zip'));
    const name = Object.keys(files).find((n) => n.endsWith('/envelope.json'))!;
    const stored = await t.fetch(`${t.url}/silo/v1/entries/${created.id}`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(textOf(files[name])).toBe(JSON.stringify((JSON.parse(await stored.text()) as { data: unknown }).data));
    expect(csvObjects(textOf(files['index.csv']))[0]).toMatchObject({ entry_id: created.id, payable: created.data.doc.totals.payable });
    // Deflated in pieces: the archive holds it whole, and the CSV says what its document says.
    expect(csvObjects(new TextDecoder().decode(await exported('csv')))[0]).toMatchObject({ entry_id: created.id, payable: created.data.doc.totals.payable });
  });
  it("is corrected (a credit note) on the engine's thread, the service answering others meanwhile", async () => {
    const created = (await t.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000, 'CN-BASE') })).body;
    const probe = probeEngine(async () => (await t.call('GET', '/silo/v1/entries?limit=10')).status === 200);
    let credit;
    try {
      credit = await t.call('POST', '/silo/v1/entries', { previous_id: created.id, correct: { type: 'credit-note', reason: 'Returned', ext: { 'es-facturae-correction': '01' } } });
    } finally {
      probe.stop();
    }
    expect(credit.status, JSON.stringify(credit.body).slice(0, 300)).toBe(200);
    expect(credit.body.data.doc).toMatchObject({ type: 'credit-note', preceding: [{ uuid: created.data.doc.uuid, code: 'CN-BASE' }] });
    expect(credit.body.data.doc.lines).toHaveLength(2_000);
    // GOBL's correction, then its build of the credit note: each on the thread, a list page answered first.
    expect(probe.first).toEqual(['reads', 'reads']);
  });
});
