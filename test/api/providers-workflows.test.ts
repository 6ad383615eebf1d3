import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Each remaining provider, run the way a user runs it: in a workflow, through the API. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function invoiceEntry(mutate?: (doc: any) => void) {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;
  doc.uuid = uuidv7();
  mutate?.(doc);
  const res = await t.call('POST', '/silo/v1/entries', { data: doc, allow_invalid: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function runWorkflow(entryId: string, steps: unknown[]) {
  const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'w', steps });
  expect(wf.status, JSON.stringify(wf.body)).toBe(200);
  const job = await t.call('POST', '/transform/v1/jobs?wait=20', { workflow_id: wf.body.id, silo_entry_id: entryId });
  expect(job.body.completed_at, JSON.stringify(job.body)).toBeTruthy();
  return job.body;
}

describe('providers in workflows', () => {
  it('gobl.validate passes a correct invoice and fails a miscalculated one with faults at the figure', async () => {
    const good = await invoiceEntry();
    expect((await runWorkflow(good.id, [{ provider: 'gobl.validate' }])).status).toBe('OK');

    const bad = await invoiceEntry((doc) => {
      doc.totals.payable = '9999.99';
    });
    const job = await runWorkflow(bad.id, [{ provider: 'gobl.validate' }]);
    expect(job.status).toBe('KO');
    expect(job.intents[0].events.at(-1)).toMatchObject({ status: 'KO', code: 'invalid' });
    expect(job.faults.flatMap((f: any) => f.paths)).toContain('$.doc.totals.payable');
    const entry = await t.call('GET', `/silo/v1/entries/${bad.id}`);
    expect(entry.body.faults.find((f: any) => f.provider === 'gobl.validate').paths).toEqual(['$.doc.totals.payable']);
  });

  it('sequence.enumerate numbers the invoice, then silo.close signs it; numbers are never reused', async () => {
    const seriesId = uuidv7();
    expect((await t.call('PUT', `/sequence/v1/series/${seriesId}`, { name: 'Invoices 2026', code: 'F26', prefix: 'F26-', padding: 4 })).status).toBe(200);
    const steps = [
      { provider: 'sequence.enumerate', config: { series_id: seriesId } },
      { provider: 'silo.close' },
    ];
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const entry = await invoiceEntry((doc) => {
        delete doc.code;
        delete doc.series;
      });
      const job = await runWorkflow(entry.id, steps);
      expect(job.status, JSON.stringify(job.faults)).toBe('OK');
      const after = (await t.call('GET', `/silo/v1/entries/${entry.id}`)).body;
      expect(after.signed).toBe(true);
      // GOBL reads an invoice's number as series + code: the series' code, then the rest of its code.
      codes.push(`${after.data.doc.series}-${after.data.doc.code}`);
    }
    expect(codes).toEqual(['F26-0001', 'F26-0002', 'F26-0003']);
    const verify = await t.call('GET', `/sequence/v1/series/${seriesId}/verify`);
    expect(verify.body).toMatchObject({ valid: true, count: 3 });
  });

  it('pdf renders the invoice and attaches it; its text reads back', async () => {
    const entry = await invoiceEntry();
    const job = await runWorkflow(entry.id, [{ provider: 'pdf' }]);
    expect(job.status, JSON.stringify(job.intents)).toBe('OK');
    const pdf = job.attachments.find((a: any) => a.mime === 'application/pdf');
    expect(pdf).toBeTruthy();
    const res = await fetch(t.url + pdf.url, { headers: { authorization: `Bearer ${t.token}` } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text).toContain(entry.data.doc.supplier.name);
    expect(text).toContain(entry.data.doc.code);
  });

  it('webhook posts the hosted payload to a local receiver with the event, the job ids and the bearer token', async () => {
    const received: Array<{ auth?: string; body: any }> = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const entry = await invoiceEntry();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
      const job = await runWorkflow(entry.id, [{ provider: 'webhook', config: { callback_url: url, event: 'sent', bearer_token: 'hook-secret' } }]);
      expect(job.status).toBe('OK');
      expect(received).toHaveLength(1);
      expect(received[0].auth).toBe('Bearer hook-secret');
      expect(received[0].body).toMatchObject({ event: 'sent', transform_job_id: job.id, silo_entry_id: entry.id });
      expect(JSON.stringify(job)).not.toContain('hook-secret');
      // a host that is not loopback nor allowed is refused before any connection
      const refused = await runWorkflow(entry.id, [{ provider: 'webhook', config: { callback_url: 'https://example.invalid/hook' } }]);
      expect(refused.intents[0].events.at(-1)).toMatchObject({ status: 'KO', code: 'host-not-allowed' });
    } finally {
      server.close();
    }
  });

  it('export.folder writes the envelope and attachments under the data dir exports', async () => {
    const entry = await invoiceEntry();
    await t.call('PUT', `/silo/v1/entries/${entry.id}/files/scan`, { name: 'scan.txt', data: Buffer.from('scanned').toString('base64') });
    const job = await runWorkflow(entry.id, [{ provider: 'export.folder', config: { path: 'ledger' } }]);
    expect(job.status, JSON.stringify(job.intents)).toBe('OK');
    const root = join(t.dataDir, 'exports', 'ledger');
    expect(existsSync(root)).toBe(true);
    const files = readdirSync(root, { recursive: true }).map(String);
    const json = files.find((f) => f.endsWith('.json'))!;
    expect(JSON.parse(readFileSync(join(root, json), 'utf8')).head.uuid).toBe(entry.id);
    const scan = files.find((f) => f.endsWith('scan.txt'))!;
    expect(readFileSync(join(root, scan), 'utf8')).toBe('scanned');
    // a path out of the allowed roots is refused, as a config error or at run time
    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'x', steps: [{ provider: 'export.folder', config: { path: '../outside' } }] });
    if (wf.status === 200) {
      const escape = await t.call('POST', '/transform/v1/jobs?wait=20', { workflow_id: wf.body.id, silo_entry_id: entry.id });
      expect(escape.body.status).toBe('KO');
    } else {
      expect(wf.status).toBe(422);
    }
    expect(existsSync(join(t.dataDir, 'exports', '..', 'outside'))).toBe(false);
  });
});
