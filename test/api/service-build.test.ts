import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServiceBuild, serviceEntry, serviceOutDir } from '../../scripts/service-build.ts';
import { ENGINE_THREAD_ENTRY } from '../../scripts/service-externals.ts';
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

  it('builds a large document on the GOBL engine thread it carries', async () => {
    const input = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/gobl/examples/in/es-invoice-es-es.json'), 'utf8'));
    const line = input.doc?.lines?.[0] ?? input.lines[0];
    const doc = input.doc ?? input;
    doc.lines = Array.from({ length: 400 }, () => structuredClone(line));
    const created = await serve.call('POST', '/silo/v1/entries', { data: input });
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(200);
    const entry = (await serve.call('GET', `/silo/v1/entries/${created.body.id}`)).body;
    expect(entry.data.doc.lines).toHaveLength(400);
    expect(entry.data.doc.lines[399].i).toBe(400);
    expect(entry.data.doc.totals.sum).toBeDefined();
    // Where the engine thread looks for its code in a build (without it, large documents would be built inline).
    expect(existsSync(join(serviceOutDir(PROJECT_ROOT), `${ENGINE_THREAD_ENTRY}.js`))).toBe(true);
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
