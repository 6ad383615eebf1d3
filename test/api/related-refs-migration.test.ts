import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyKeyOf, ownerOf } from '../../src-main/core/access/company-key.ts';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { openService } from '../../src-main/core/service.ts';
import { listRelated } from '../../src-main/core/silo/list.ts';
import { partialInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { documentText } from '../../src-main/core/silo/packed-document.ts';

/**
 * SQLite only: a laptop's database file from before migration 0007 updated in place.
 * PostgreSQL starts from the schema as it stands now (src-main/core/db/pg/schema.ts),
 * so it has no such file to migrate. (Split from related-refs.test.ts, which runs on both.)
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function store(data: unknown) {
  const res = await t.call('POST', '/silo/v1/entries', { data });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('migration 0007_document_references', () => {
  it('back-fills identities and references of stored entries, and reshapes stored faults to paths', async () => {
    const invoice = await store(partialInvoice({ code: 'MIG-1' }));
    // A credit note naming its invoice by series and code only (no uuid): related through the back-filled identity.
    const credit = await store(partialInvoice({ type: 'credit-note', series: 'CN', code: 'CN-MIG', preceding: [{ type: 'standard', series: 'INV', code: 'MIG-1' }] }));
    const rowOf = (id: string) => t.service.db.sqlite!.prepare('SELECT * FROM entries WHERE id = ?').get(id) as Record<string, any>;

    // A database as it was before 0007 (no reference tables, faults with one `path`) holding these two
    // documents; then every migration from 0007 on runs, as on an accountant's laptop that updates.
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-mig07-'));
    const sqlite = openSqlite(join(dir, 'silodesk.db'));
    await migrateToLatest(sqlite, sqliteDb(sqlite).q, join(dir, 'backups'), Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0007')));
    sqlite.prepare(`INSERT INTO companies VALUES ('c1', 'Acme', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`).run();
    const oldFaults = JSON.stringify([{ code: 'calculation', message: 'old', provider: 'silo', path: '$.doc.totals.payable' }, { code: 'x', message: 'no path', provider: 'silo' }]);
    for (const [id, faults] of [[invoice.id, oldFaults], [credit.id, '[]']]) {
      const r = rowOf(id);
      sqlite
        .prepare(
          `INSERT INTO entries (id, company_id, folder, state, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg, digest_val,
             snippet, tags, faults, data, request_hash, version, created_at, updated_at)
           VALUES (?, 'c1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, r.folder, r.state, r.draft, r.invalid, r.signed, r.doc_schema, r.doc_uuid, r.env_schema, r.digest_alg, r.digest_val, r.snippet, r.tags, faults, documentText(r.data, r.id), r.request_hash, r.version, r.created_at, r.updated_at);
    }
    sqlite.close();

    const service = await openService(dir, { runJobs: false, autoSync: false });
    try {
      // 0031_company_keys ran too: company c1's rows are stored under its key.
      const ctx = { service, caller: await ownerOf(service.db, (await companyKeyOf(service.db, 'c1'))!) };
      const relatedIds = async (id: string) => (await listRelated(ctx, id, { limit: 10, ascending: false })).list.map((e) => [e.id, e.context]);
      expect(await relatedIds(invoice.id)).toEqual([[credit.id, 'preceding']]);
      expect(await relatedIds(credit.id)).toEqual([[invoice.id, 'preceding']]);
      const faults = JSON.parse((service.db.sqlite!.prepare('SELECT faults FROM entries WHERE id = ?').get(invoice.id) as { faults: string }).faults);
      expect(faults).toEqual([
        { code: 'calculation', message: 'old', provider: 'silo', paths: ['$.doc.totals.payable'] },
        { code: 'x', message: 'no path', provider: 'silo', paths: [] },
      ]);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
