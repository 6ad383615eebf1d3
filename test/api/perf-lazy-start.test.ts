import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { pdfKit, renderInvoicePdf } from '../../src-main/core/pdf/invoice-pdf.ts';
import { openService, openServiceCore, startService } from '../../src-main/core/service.ts';
import { startHttpServer } from '../../src-main/http/server.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startServe } from './serve-process.ts';

/**
 * `serve` opens its port before most of the service's code is loaded (issue 13, cold start):
 * the job engine, sync and the step providers come with startService, the API's handlers with
 * the first request (http/server.ts), and PDFKit with the first PDF. Whatever comes first must
 * find them in place.
 */
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-lazy-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a service opened in two halves', () => {
  it('has its database first, and its job engine, sync and providers once started', async () => {
    const service = await openServiceCore(tempDir(), { runJobs: false, autoSync: false });
    try {
      expect((await ensureDefaultCompany(service.db)).id).toBeTruthy();
      expect(service.jobs).toBeUndefined();
      expect(service.sync).toBeUndefined();
      expect(service.providers.size).toBe(0);
      let started = false;
      void service.started.then(() => (started = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(started).toBe(false);

      const start = startService(service);
      expect(startService(service)).toBe(start);
      await start;
      await service.started;
      expect(typeof service.jobs.notify).toBe('function');
      expect(typeof service.sync.status).toBe('function');
      expect([...service.providers.keys()]).toEqual(expect.arrayContaining(['gobl.build', 'pdf', 'webhook']));
    } finally {
      await service.close();
    }
  });

  it('closes before it is started, and while it starts', async () => {
    const never = await openServiceCore(tempDir(), { runJobs: false, autoSync: false });
    await never.close();
    const midway = await openServiceCore(tempDir(), { runJobs: false, autoSync: false });
    void startService(midway);
    await midway.close();
    expect(typeof midway.jobs.stop).toBe('function');
  });

  it('is whole as openService returns it', async () => {
    const service = await openService(tempDir(), { runJobs: false, autoSync: false });
    try {
      await service.started;
      expect(service.providers.size).toBeGreaterThan(0);
      expect(typeof service.jobs.notify).toBe('function');
    } finally {
      await service.close();
    }
  });
});

describe('the HTTP API of a service not yet started', () => {
  it('starts the service for its first request, and answers it', async () => {
    const dataDir = tempDir();
    const service = await openServiceCore(dataDir, { runJobs: false, autoSync: false });
    const company = await ensureDefaultCompany(service.db);
    await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    const server = await startHttpServer(service, { host: '127.0.0.1', port: 0 });
    try {
      const headers = { authorization: `Bearer ${token}` };
      // Sent at once, before the handlers are loaded: all wait for them, none fails.
      const answers = await Promise.all([
        fetch(`${server.url}/transform/v1/providers`, { headers }),
        fetch(`${server.url}/silo/v1/entries?limit=20`, { headers }),
        fetch(`${server.url}/openapi.json`),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const providers = (await answers[0].json()) as { list: Array<{ id: string }> };
      expect(providers.list.map((p) => p.id)).toContain('pdf');
      expect(((await answers[2].json()) as { paths: object }).paths).toHaveProperty(['/silo/v1/entries']);
      expect(typeof service.jobs.notify).toBe('function');
    } finally {
      await server.close();
      await service.close();
    }
  });
});

describe('PDFKit', () => {
  it('is loaded once, on the first render', async () => {
    const kit = pdfKit();
    expect(pdfKit()).toBe(kit);
    expect(typeof (await kit)).toBe('function');
    const bytes = await renderInvoicePdf(loadEnvelope('es-invoice-es-es.json') as { head?: unknown; doc?: unknown });
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  });
});

describe('serve', () => {
  it('opens its port, then answers its first requests with the whole service', async () => {
    // the real entry (src-main/serve.ts), as a user starts it
    const serve = await startServe(tempDir());
    try {
      expect((await serve.call('GET', '/silo/v1/entries?limit=20')).status).toBe(200);
      const providers = await serve.call('GET', '/transform/v1/providers');
      expect(providers.body.list.map((p: { id: string }) => p.id)).toContain('gobl.build');
    } finally {
      await serve.kill('SIGTERM');
    }
  });
});
