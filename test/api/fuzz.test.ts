import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { listCompanies } from '../../src-main/core/access/companies.ts';
import { operations } from '../../src-main/core/api/contract/index.ts';
import type { OperationContract } from '../../src-main/core/api/operation.ts';
import { SYNCED_TABLES } from '../../src-main/core/db/change-triggers.ts';
import type { Db } from '../../src-main/core/db/engine.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import { verifyAudit } from '../../src-main/core/silo/audit-log.ts';
import { creationOf } from '../../src-main/core/silo/implied-created-version.ts';
import { createHttpApp } from '../../src-main/http/app.ts';
import { localOrigins } from '../../src-main/http/guards.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { serverDatabase } from '../support/server-database.ts';

/**
 * Random and mutated input to every operation in the registry, through the real
 * HTTP adapter (in-process): the service must answer each with a JSON status
 * below 500, and the database must stay intact. On the test engine's database
 * (SQLite, or PostgreSQL in the postgres project).
 */
let service: Service;
let dir: string;
let database: Awaited<ReturnType<typeof serverDatabase>>;
let token: string;
let app: ReturnType<typeof createHttpApp>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-fuzz-'));
  database = await serverDatabase();
  service = await openService(dir, { runner: { retryBaseMs: 5 }, databaseUrl: database.databaseUrl });
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dir, 'api-token'));
  token = readFileSync(join(dir, 'api-token'), 'utf8').trim();
  app = createHttpApp(service, { origins: () => localOrigins(80), rateLimit: { perSecond: 1e6, burst: 1e6 } });
  // Records under the id the fuzzer tries (`hostile`), so some requests change what is there, not only
  // find nothing, and the database's final check has something to hold them to.
  const store = async (method: string, path: string, body: unknown) => {
    const res = await app.request(`http://127.0.0.1:80${path}`, { method, headers: headers(), body: JSON.stringify(body) });
    expect(res.status, `${method} ${path} → ${await res.text()}`).toBe(200);
  };
  await store('PUT', `/silo/v1/entries/${KNOWN}`, { data: invoice.doc, folder: 'inbox', tags: ['a', 'b'] });
  await store('PUT', `/silo/v1/entries/${KNOWN}/files/${KNOWN}`, seeds.putAttachment);
  await store('PUT', `/silo/v1/entries/${KNOWN}/meta/${KNOWN}`, seeds.putMeta);
  await store('PUT', `/transform/v1/workflows/${KNOWN}`, seeds.putWorkflow);
  await store('PUT', `/sequence/v1/series/${KNOWN}`, seeds.putSeries);
});
afterAll(async () => {
  await service.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The one well-formed id among the fuzzer's texts: records are stored under it before the fuzzing. */
const KNOWN = '0190c1a0-0000-7000-8000-000000000001';
const headers = () => ({ host: '127.0.0.1:80', authorization: `Bearer ${token}`, 'content-type': 'application/json' });

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
  createJob: { workflow_id: KNOWN, data: invoice.doc },
  putJob: { workflow_id: KNOWN, data: invoice.doc },
  putSeries: { name: 's', code: 'S', prefix: 'S-', padding: 4 },
  patchSeries: { name: 's2' },
  putSeriesEntry: { meta: { a: 'b' } },
  putEnrollment: { app_id: '0190c1a0-0000-7000-8000-000000000002', data: {} },
  createCompany: { name: 'Fuzz Co' },
  createToken: { name: 't' },
};

const hostile = fc.constantFrom(
  '../../etc/passwd', '%2e%2e%2f', 'CON', '', ' ', '\u0000', '\u202e', 'a'.repeat(3000), '0', '-1', '1e309', 'NaN',
  'true', 'null', '[]', '{}', KNOWN, '0190C1A0-0000-1000-8000-000000000001',
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
            const init: RequestInit = { method: op.method, headers: headers() };
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

  it('leaves the database intact', async () => {
    // In one snapshot: a job the fuzzing queued may still be writing.
    expect(await service.db.tx(() => halfWrites(service.db), { origin: 'local', snapshot: true })).toEqual([]);
    for (const { id, key } of await listCompanies(service.db)) {
      // The audit chain of every company still links row to row.
      expect(await verifyAudit({ service, caller: { companyKey: key, companyId: id, kind: 'owner' } }), id).toMatchObject({ ok: true });
    }
    if (service.db.sqlite) {
      // And SQLite's own checks of the file. (PostgreSQL holds its foreign keys at every statement.)
      expect(service.db.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(service.db.sqlite.pragma('foreign_key_check')).toEqual([]);
    }
  });
});

/**
 * What a request that wrote only part of what it should have would leave, read the
 * same way on both engines: a record with no change in the log (or a change with no
 * record, or a deletion of a record still there), an entry whose last kept version is
 * not what it is, folder and tag counts that are not what counting the entries gives.
 */
async function halfWrites(db: Db): Promise<string[]> {
  const faults: string[] = [];
  const change = (r: string, kind: string, recordId: string, deleted: 0 | 1) =>
    `SELECT 1 FROM sync_changes c WHERE c.company_id = ${r}.company_id AND c.kind = '${kind}' AND c.record_id = ${recordId} AND c.deleted = ${deleted}`;
  // A workflow's versions are its record only through the workflow's own row (`onlyIf`): that row is checked.
  for (const t of SYNCED_TABLES.filter((t) => !t.onlyIf)) {
    const id = t.recordId('r');
    for (const row of await db.sql(`SELECT ${id} AS id FROM ${t.table} r WHERE NOT EXISTS (${change('r', t.kind, id, 0)})`)) {
      faults.push(`${t.table} ${row.id}: no change in the log`);
    }
    const record = `SELECT 1 FROM ${t.table} r WHERE r.company_id = c.company_id AND ${id} = c.record_id`;
    // A child removed with its entry keeps its last change: the entry's deletion says it (change-triggers.ts).
    const entryStays = `(c.entry_id IS NULL OR EXISTS (SELECT 1 FROM entries e WHERE e.company_id = c.company_id AND e.id = c.entry_id))`;
    for (const row of await db.sql(`SELECT c.record_id FROM sync_changes c WHERE c.kind = ? AND c.deleted = 0 AND NOT EXISTS (${record}) AND ${entryStays}`, [t.kind])) {
      faults.push(`${t.kind} ${row.record_id}: a change in the log and no record`);
    }
    for (const row of await db.sql(`SELECT c.record_id FROM sync_changes c WHERE c.kind = ? AND c.deleted = 1 AND EXISTS (${record})`, [t.kind])) {
      faults.push(`${t.kind} ${row.record_id}: deleted in the log and still there`);
    }
  }

  // Every write of an entry keeps the version it made (version-keeping.ts): the last one is what the entry is. An entry
  // with none stored never changed, and its creation is on record (implied-created-version.ts).
  const entries = await db.sql<Record<string, any>>(
    `SELECT e.company_id, e.id, e.state, e.folder, e.tags, e.key, e.digest_val, e.trashed_at,
            v.state AS v_state, v.folder AS v_folder, v.tags AS v_tags, v.key AS v_key, v.digest AS v_digest, v.trashed AS v_trashed
     FROM entries e LEFT JOIN entry_versions v ON v.company_id = e.company_id AND v.entry_id = e.id
       AND v.version = (SELECT max(m.version) FROM entry_versions m WHERE m.company_id = e.company_id AND m.entry_id = e.id)`,
  );
  for (const e of entries) {
    if (e.v_state === null && (await creationOf(db, e.company_id, e.id))) continue;
    const now = [e.state, e.folder, e.tags, e.key, e.digest_val, e.trashed_at === null ? 0 : 1];
    const kept = [e.v_state, e.v_folder, e.v_tags, e.v_key, e.v_digest, e.v_trashed === null ? null : Number(e.v_trashed)];
    if (JSON.stringify(now) !== JSON.stringify(kept)) faults.push(`entry ${e.id}: is ${JSON.stringify(now)}, last version ${JSON.stringify(kept)}`);
  }

  // The kept counts (scale-migration.ts) are what counting the live entries gives.
  const counted = new Map<string, number>();
  for (const e of entries.filter((e) => e.trashed_at === null)) {
    const add = (key: string) => counted.set(key, (counted.get(key) ?? 0) + 1);
    add(JSON.stringify([e.company_id, 'folder', e.folder]));
    for (const tag of new Set(JSON.parse(e.tags) as string[])) add(JSON.stringify([e.company_id, 'tag', tag]));
  }
  const kept = new Map<string, number>();
  for (const r of await db.sql<{ company_id: string; folder: string; count: number }>('SELECT company_id, folder, count FROM entry_folder_counts')) {
    kept.set(JSON.stringify([r.company_id, 'folder', r.folder]), Number(r.count));
  }
  for (const r of await db.sql<{ company_id: string; tag: string; count: number }>('SELECT company_id, tag, count FROM entry_tag_counts')) {
    kept.set(JSON.stringify([r.company_id, 'tag', r.tag]), Number(r.count));
  }
  for (const key of new Set([...counted.keys(), ...kept.keys()])) {
    if (counted.get(key) !== kept.get(key)) faults.push(`${key}: kept ${kept.get(key)}, counted ${counted.get(key)}`);
  }
  return faults;
}
