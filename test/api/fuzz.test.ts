import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { operations } from '../../src-main/core/api/contract/index.ts';
import type { OperationContract } from '../../src-main/core/api/operation.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import { createHttpApp } from '../../src-main/http/app.ts';
import { localOrigins } from '../../src-main/http/guards.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { readFileSync } from 'node:fs';

/**
 * Random and mutated input to every operation in the registry, through the real
 * HTTP adapter (in-process): the service must answer each with a JSON status
 * below 500, and the database must stay intact.
 */
let service: Service;
let dir: string;
let token: string;
let app: ReturnType<typeof createHttpApp>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-fuzz-'));
  service = await openService(dir, { runner: { retryBaseMs: 5 } });
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dir, 'api-token'));
  token = readFileSync(join(dir, 'api-token'), 'utf8').trim();
  app = createHttpApp(service, { origins: () => localOrigins(80), rateLimit: { perSecond: 1e6, burst: 1e6 } });
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const invoice = loadEnvelope('es-invoice-es-es.json');
/** Valid bodies to mutate, so the fuzzer also reaches past the first validation layer. */
const seeds: Record<string, unknown> = {
  createEntry: { data: invoice.doc, tags: ['a'] },
  putEntry: { data: invoice.doc },
  importEntries: { entries: [{ data: invoice.doc }] },
  patchEntry: { content_type: 'application/merge-patch+json', data: { doc: { code: 'X' } } },
  putAttachment: { name: 'a.pdf', data: 'aGVsbG8=' },
  putMeta: { src: 'erp', value: { a: 1 } },
  putWorkflow: { name: 'w', steps: [{ provider: 'silo.state', config: { state: 'sent' } }] },
  patchWorkflow: { name: 'w2' },
  createJob: { workflow_id: '0190c1a0-0000-7000-8000-000000000001', data: invoice.doc },
  putJob: { workflow_id: '0190c1a0-0000-7000-8000-000000000001', data: invoice.doc },
  putSeries: { name: 's', code: 'S', prefix: 'S-', padding: 4 },
  patchSeries: { name: 's2' },
  putSeriesEntry: { meta: { a: 'b' } },
  putEnrollment: { app_id: '0190c1a0-0000-7000-8000-000000000002', data: {} },
  createCompany: { name: 'Fuzz Co' },
  createToken: { name: 't' },
};

const hostile = fc.constantFrom(
  '../../etc/passwd', '%2e%2e%2f', 'CON', '', ' ', '\u0000', '\u202e', 'a'.repeat(3000), '0', '-1', '1e309', 'NaN',
  'true', 'null', '[]', '{}', '0190c1a0-0000-7000-8000-000000000001', '0190C1A0-0000-1000-8000-000000000001',
  "' OR 1=1 --", '"', '<script>', '😀', 'ﬀ', '\\', '/', '?', '#',
);
const text = fc.oneof(hostile, fc.string({ maxLength: 40 }), fc.uuid());
const json = fc.jsonValue({ maxDepth: 3 });

/** Replaces one member somewhere in a valid value by something random. */
function mutate(seed: unknown): fc.Arbitrary<unknown> {
  const paths: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    paths.push(path);
    if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) if (paths.length < 300) walk(c, [...path, k]);
  };
  walk(seed, []);
  return fc.tuple(fc.constantFrom(...paths), fc.oneof(json, text, fc.constant(undefined))).map(([path, value]) => {
    if (path.length === 0) return value;
    const copy = structuredClone(seed) as Record<string, any>;
    let here = copy;
    for (const k of path.slice(0, -1)) here = here[k];
    here[path.at(-1)!] = value;
    return copy;
  });
}

function queryNames(op: OperationContract): string[] {
  const shape = (op.query as any)?.shape ?? {};
  return [...Object.keys(shape).filter((k) => k !== 'wait'), 'unknown_param'];
}

describe('fuzzing every operation', () => {
  const entries = Object.entries(operations as Record<string, OperationContract>);

  for (const [name, op] of entries) {
    it(`${name}: never a 500, always JSON (or the file)`, async () => {
      const params = (op.path.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1));
      const body = seeds[name] !== undefined ? fc.oneof(mutate(seeds[name]), json) : json;
      await fc.assert(
        fc.asyncProperty(
          fc.array(text, { minLength: params.length, maxLength: params.length }),
          fc.dictionary(fc.constantFrom(...queryNames(op)), text, { maxKeys: 4 }),
          fc.oneof(body, fc.string({ maxLength: 50 })),
          fc.boolean(),
          async (values, query, payload, rawText) => {
            let path = op.path;
            params.forEach((p, i) => (path = path.replace(`{${p}}`, encodeURIComponent(values[i]) || 'x')));
            const qs = new URLSearchParams(query as Record<string, string>).toString();
            const init: RequestInit = {
              method: op.method,
              headers: { host: '127.0.0.1:80', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            };
            if (op.method !== 'GET' && op.method !== 'DELETE') {
              init.body = rawText && typeof payload === 'string' ? payload : JSON.stringify(payload ?? null);
            }
            const res = await app.request(`http://127.0.0.1:80${path}${qs ? `?${qs}` : ''}`, init);
            const bodyText = await res.text();
            expect(res.status, `${op.method} ${path} → ${bodyText.slice(0, 300)}`).toBeLessThan(500);
            if (res.status !== 200 || op.output !== 'binary') {
              const parsed = JSON.parse(bodyText);
              if (res.status !== 200) expect(parsed.key).toBe(parsed.code);
            }
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  it('leaves the database intact', () => {
    // SQLite's own checks of the file (the service runs on SQLite here)
    expect(service.db.sqlite!.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(service.db.sqlite!.pragma('foreign_key_check')).toEqual([]);
  });
});
