import { readdirSync, readFileSync } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocument } from '../../src-main/core/gobl/engine/index.ts';
import { checkMark, standingVerdict } from '../../src-main/core/silo/check-mark.ts';
import { loadEnvelopes } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { documentText, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';

/**
 * An entry keeps whether its faults are GOBL's verdict on its document as stored
 * (check-mark.ts), and a workflow takes that verdict instead of checking again. Held
 * here: the verdict kept is what a fresh check finds, for every fixture and example and
 * every way a document is stored; a mark that no longer stands for the row (faults or
 * document changed behind it, another engine revision) is not taken.
 */
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
});
afterAll(() => t.close());

type Row = { id: string; data: string; faults: string; checked: string | null };
// The document's text, whether the row holds it packed or not.
const rowOf = async (id: string): Promise<Row> => {
  const row = (await t.service.db.sqlFirst<Row & { data: StoredDocument }>('SELECT id, data, faults, checked FROM entries WHERE id = ?', [id]))!;
  return { ...row, data: documentText(row.data, row.id) };
};

async function workflow(steps: unknown[]): Promise<string> {
  const res = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'check', steps });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

async function validated(entryId: string, workflowId: string) {
  const res = await t.call('POST', '/transform/v1/jobs?wait=30', { workflow_id: workflowId, silo_entry_id: entryId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { status: string; faults?: Array<{ code: string; message: string; provider: string }> };
}

function invoice(code: string): Record<string, unknown> {
  const { doc } = loadEnvelopes().find((f) => f.file === 'es-invoice-es-es.json')!.envelope;
  return { ...structuredClone(doc), uuid: uuidv7(), code };
}

describe('the verdict an entry keeps', () => {
  it('is what GOBL finds checking the stored document again, for every fixture and example, stored each way', async () => {
    const examples = new URL('../fixtures/gobl/examples/in/', import.meta.url);
    const inputs = readdirSync(examples).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(new URL(f, examples), 'utf8')));
    const envelopes = loadEnvelopes().map((f) => f.envelope);
    // The bulk path, the one-by-one path (built, examined, signed as given), and documents with faults kept.
    const imported = await t.call('POST', '/silo/v1/import', { entries: envelopes.map((e) => ({ data: e.doc, allow_invalid: true })) });
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(200);
    expect(imported.body.created).toBe(envelopes.length);
    const ids: string[] = imported.body.results.map((r: any) => r.id);
    // Whole envelopes, unsigned (a signature only this company's keys could make would be refused).
    for (const e of envelopes.slice(0, 20)) {
      const res = await t.call('POST', '/silo/v1/entries', { data: { ...e, head: { ...e.head, uuid: uuidv7(), dig: undefined }, sigs: undefined }, allow_invalid: true });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      ids.push(res.body.id);
    }
    // Documents GOBL finds wrong, kept with their faults: a figure stated differently, a party missing its name, no lines.
    const broken = [
      (doc: any) => (doc.totals.payable = '1.00'),
      (doc: any) => delete doc.supplier.name,
      (doc: any) => ((doc.lines = []), (doc.totals.sum = '0.00')),
    ].map((mutate, i) => {
      const doc = invoice(`MARK-BROKEN-${i}`);
      mutate(doc);
      return doc;
    });
    for (const data of broken) {
      const res = await t.call('POST', '/silo/v1/entries', { data, allow_invalid: true });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body.faults.length).toBeGreaterThan(0);
      ids.push(res.body.id);
    }
    const bulkBroken = await t.call('POST', '/silo/v1/import', { entries: broken.map((data) => ({ data: { ...data, uuid: uuidv7() }, allow_invalid: true })) });
    ids.push(...bulkBroken.body.results.map((r: any) => r.id));
    let unstored = 0;
    for (const data of inputs) {
      const res = await t.call('POST', '/silo/v1/entries', { data, allow_invalid: true });
      if (res.status === 200) ids.push(res.body.id);
      else unstored++;
    }
    expect(unstored).toBeLessThan(inputs.length / 4);
    let marked = 0;
    let withFaults = 0;
    for (const id of ids) {
      const row = await rowOf(id);
      const verdict = standingVerdict(row);
      if (!verdict) continue;
      marked++;
      if (verdict.length > 0) withFaults++;
      expect(verdict, id).toEqual(JSON.parse(JSON.stringify(checkDocument(JSON.parse(row.data)))));
    }
    // Most are marked (not those GOBL does not know, or could not check), some of them with faults.
    expect(marked).toBeGreaterThan(ids.length * 0.8);
    expect(withFaults).toBeGreaterThanOrEqual(broken.length * 2);
  });

  it('is taken by gobl.validate while it stands, and not once the faults or the document changed behind it', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice('MARK-1') });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const check = await workflow([{ provider: 'gobl.validate' }]);
    expect(await validated(id, check)).toMatchObject({ status: 'OK' });

    // A verdict kept with its mark is the one the step reports: GOBL did not look again.
    const planted = JSON.stringify([{ code: 'planted', message: 'a fault only the kept verdict holds', provider: 'silo', paths: ['$.doc.code'] }]);
    const row = await rowOf(id);
    await t.service.db.sqlRun('UPDATE entries SET faults = ?, checked = ? WHERE id = ?', [planted, checkMark(row.data, planted), id]);
    const taken = await validated(id, check);
    expect(taken.status).toBe('KO');
    expect(taken.faults).toEqual([expect.objectContaining({ code: 'planted', provider: 'gobl.validate' })]);

    // The same faults with the old mark: it no longer stands for them, and GOBL checks the document.
    await t.service.db.sqlRun('UPDATE entries SET checked = ? WHERE id = ?', [row.checked, id]);
    expect(await validated(id, check)).toMatchObject({ status: 'OK' });

    // A mark made under another revision of the engine is not taken either.
    await t.service.db.sqlRun('UPDATE entries SET checked = ? WHERE id = ?', [checkMark(row.data, planted, 'another-revision'), id]);
    expect(await validated(id, check)).toMatchObject({ status: 'OK' });
  });

  it('stays with a change of labels, is made again for a new document, and goes with a signature nobody checked', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice('MARK-2') });
    const id = created.body.id as string;
    expect(standingVerdict(await rowOf(id))).toEqual([]);

    expect((await t.call('PATCH', `/silo/v1/entries/${id}`, { tags: ['a'], state: 'registered', folder: 'q1' })).status).toBe(200);
    expect(standingVerdict(await rowOf(id))).toEqual([]);

    const before = await rowOf(id);
    const patched = await t.call('PATCH', `/silo/v1/entries/${id}`, { data: { ...invoice('MARK-2b'), uuid: undefined } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const after = await rowOf(id);
    expect(after.data).not.toBe(before.data);
    expect(standingVerdict(after)).toEqual([]);

    // silo.close seals the document it was handed as found clean, without a check of the signed one: no mark.
    const close = await workflow([{ provider: 'silo.state', config: { state: 'registered' } }, { provider: 'gobl.validate' }, { provider: 'silo.close' }]);
    expect(await validated(id, close)).toMatchObject({ status: 'OK' });
    const sealed = await rowOf(id);
    expect(JSON.parse(sealed.data).sigs).toHaveLength(1);
    expect(sealed.checked).toBeNull();
    // Checked when a step asks, as it always was.
    expect(await validated(id, await workflow([{ provider: 'gobl.validate' }]))).toMatchObject({ status: 'OK' });
  });
});
