import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServiceBuild, serviceEntry } from '../../scripts/service-build.ts';
import { PROJECT_ROOT } from '../../scripts/web-build.ts';
import { served, spawnServe, type ServedProcess } from './serve-process.ts';

/**
 * `npm run serve` runs the service build (out/serve), not the sources the other API tests
 * start: what a bundle can lose is what a module finds by path at run time (GOBL's data,
 * PDFKit's fonts, the SQLite driver). The build serves each here.
 */
describe('the service build', () => {
  let dataDir: string;
  let serve: ServedProcess;

  beforeAll(async () => {
    await ensureServiceBuild();
    dataDir = mkdtempSync(join(tmpdir(), 'silodesk-service-build-'));
    serve = await served(spawnServe(['--data', dataDir, '--port', '0', '--quiet'], process.env, serviceEntry(PROJECT_ROOT)), dataDir);
  }, 120_000);

  afterAll(async () => {
    await serve?.signal('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('calculates a document with the GOBL data it carries', async () => {
    const example = (name: string) => JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/gobl/examples', name, 'es-invoice-es-es.json'), 'utf8'));
    const created = await serve.call('POST', '/silo/v1/entries', { data: example('in') });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const entry = await serve.call('GET', `/silo/v1/entries/${created.body.id}`);
    expect(entry.body.data.doc.totals).toEqual(example('out').doc.totals);
    expect(entry.body.faults ?? []).toEqual([]);
  });

  it('renders a PDF with PDFKit and its fonts', async () => {
    const envelope = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/gobl/envelopes/es-invoice-es-es.json'), 'utf8'));
    const entry = (await serve.call('POST', '/silo/v1/entries', { data: envelope.doc })).body;
    const workflow = (await serve.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Render', steps: [{ provider: 'pdf', config: {} }] })).body;
    const job = (await serve.call('POST', '/transform/v1/jobs?wait=30', { workflow_id: workflow.id, silo_entry_id: entry.id })).body;
    expect(job.status, JSON.stringify(job)).toBe('OK');
    const { attachments } = (await serve.call('GET', `/silo/v1/entries/${entry.id}`)).body;
    const pdf = attachments.find((f: { mime: string }) => f.mime === 'application/pdf');
    expect(pdf?.size).toBeGreaterThan(10_000);
  });
});
