import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite, type Sqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';

const BEFORE = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0015'));
// Up to this migration only: the raw writes below are what 0015 must allow, made before 0016 records changes by triggers.
const THROUGH = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0016'));
const AT = '2026-01-01T00:00:00.000Z';

/** One company's worth of rows in every table 0015 makes anew, written as the schema before it had them. */
function fillBefore(db: Sqlite): void {
  db.exec(`INSERT INTO companies VALUES ('c1', 'Acme', '${AT}', '${AT}')`);
  const entry = db.prepare(
    `INSERT INTO entries (id, company_id, key, folder, state, draft, invalid, signed, doc_schema, env_schema, digest_alg, digest_val,
       snippet, tags, faults, data, request_hash, version, created_at, updated_at)
     VALUES (?, 'c1', ?, 'sales', 'draft', 1, 0, 0, 'inv', 'env', 'sha256', ?, '{}', '["a"]', '[]', '{}', 'h', 1, ?, ?)`,
  );
  entry.run('e1', 'key-1', 'd1', AT, AT);
  entry.run('e2', null, 'd2', AT, AT);
  db.exec(`INSERT INTO attachments (entry_id, id, company_id, name, desc, mime, hash, size, meta, created_at)
           VALUES ('e1', 'f1', 'c1', 'a.pdf', '', 'application/pdf', 'abc', 3, '{}', '${AT}')`);
  db.exec(`INSERT INTO entry_meta VALUES ('e1', 'erp', 'k', '', '"v"', 0, '', '', '${AT}', '${AT}')`);
  db.exec(`INSERT INTO sync_local_only VALUES ('e2')`);
  db.exec(`INSERT INTO workflows VALUES ('w1', 'c1', 1, 'Flow', '', 0, 'h', '${AT}', '${AT}')`);
  db.exec(`INSERT INTO workflow_versions VALUES ('w1', 1, '{}', '${AT}')`);
  db.exec(`INSERT INTO jobs (id, company_id, workflow_id, workflow_version, silo_entry_id, status, tags, args, faults, request_hash, run_at, created_at, updated_at)
           VALUES ('j1', 'c1', 'w1', 1, 'e1', 'queued', '[]', '{}', '[]', 'h', 0, '${AT}', '${AT}')`);
  db.exec(`INSERT INTO intents VALUES ('i1', 'j1', 0, 's1', 'step', 'silo.close', 0, '[]', '${AT}', '${AT}')`);
  db.exec(`INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, last_entry_id, sigs, request_hash, created_at, updated_at)
           VALUES ('s1', 'c1', 'Sales', '', 'FA', 'FA-', 4, '', 1, 'me', 1, 'x1', '[]', 'h', '${AT}', '${AT}')`);
  db.exec(`INSERT INTO series_entries VALUES ('x1', 's1', 1, 'FA-0001', '{}', NULL, '[]', 'h', '${AT}', '${AT}')`);
  // The feed's mark is past its last row (the newest change was folded into another): it must not go back.
  db.exec(`INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at) VALUES ('c1', 'entry', 'e1', 1, 'local', '${AT}')`);
  db.exec(`UPDATE sqlite_sequence SET seq = 41 WHERE name = 'sync_changes'`);
  db.exec(`INSERT INTO trusted_jwks VALUES ('c1', 't1', 'Signer', '{"keys":[]}', '${AT}', '${AT}')`);
}

describe('migration 0015_company_scoped_ids', () => {
  it('keeps every row, gives children their company, keeps the feed mark, and lets two companies hold one id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-mig15-'));
    const sqlite = openSqlite(join(dir, 'db.sqlite'));
    const store = sqliteDb(sqlite);
    await migrateToLatest(sqlite, store.q, join(dir, 'backups'), BEFORE);
    fillBefore(sqlite);

    const result = await migrateToLatest(sqlite, store.q, join(dir, 'backups'), THROUGH);
    expect(result.applied).toEqual(['0015_company_scoped_ids']);
    expect(result.backup).toBeDefined();
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);

    const one = (q: string) => sqlite.prepare(q).get() as Record<string, unknown>;
    expect(sqlite.prepare('SELECT id FROM entries ORDER BY id').pluck().all()).toEqual(['e1', 'e2']);
    expect(one(`SELECT company_id, entry_id, value FROM entry_meta`)).toEqual({ company_id: 'c1', entry_id: 'e1', value: '"v"' });
    expect(one(`SELECT company_id, entry_id FROM sync_local_only`)).toEqual({ company_id: 'c1', entry_id: 'e2' });
    expect(one(`SELECT company_id, workflow_id FROM workflow_versions`)).toEqual({ company_id: 'c1', workflow_id: 'w1' });
    expect(one(`SELECT company_id, job_id FROM intents`)).toEqual({ company_id: 'c1', job_id: 'j1' });
    expect(one(`SELECT company_id, series_id, code FROM series_entries`)).toEqual({ company_id: 'c1', series_id: 's1', code: 'FA-0001' });
    expect(one(`SELECT name FROM attachments`)).toEqual({ name: 'a.pdf' });

    // the trusted signer kept before goes out as a change, after every seq a peer may have seen
    expect(one(`SELECT seq, kind, record_id, origin FROM sync_changes WHERE kind = 'trusted_jwks'`)).toEqual({ seq: 42, kind: 'trusted_jwks', record_id: 't1', origin: 'local' });
    sqlite.exec(`INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at) VALUES ('c1', 'entry', 'e2', 1, 'local', '${AT}')`);
    expect(one(`SELECT max(seq) AS seq FROM sync_changes`)).toEqual({ seq: 43 });

    // a second company holds the very same ids, children included
    sqlite.exec(`INSERT INTO companies VALUES ('c2', 'Beta', '${AT}', '${AT}')`);
    sqlite.exec(`INSERT INTO entries (id, company_id, folder, state, draft, invalid, signed, doc_schema, env_schema, digest_alg, digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at)
                 SELECT id, 'c2', folder, state, draft, invalid, signed, doc_schema, env_schema, digest_alg, digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at FROM entries WHERE company_id = 'c1'`);
    sqlite.exec(`INSERT INTO attachments (entry_id, id, company_id, name, desc, mime, hash, size, meta, created_at)
                 VALUES ('e1', 'f1', 'c2', 'b.pdf', '', 'application/pdf', 'def', 3, '{}', '${AT}')`);
    sqlite.exec(`INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, sigs, request_hash, created_at, updated_at)
                 VALUES ('s1', 'c2', 'Sales', '', 'FA', 'FA-', 4, '', 1, 'me', 0, '[]', 'h', '${AT}', '${AT}')`);
    sqlite.exec(`INSERT INTO workflows VALUES ('w1', 'c2', 1, 'Flow', '', 0, 'h', '${AT}', '${AT}')`);

    // the triggers on entries are back: folder counts and the first state follow the new entries
    expect(one(`SELECT count FROM entry_folder_counts WHERE company_id = 'c2' AND folder = 'sales'`)).toEqual({ count: 2 });
    expect(one(`SELECT count(*) AS n FROM entry_states WHERE company_id = 'c2'`)).toEqual({ n: 2 });
    // a child of company c1 cannot hang from c2's entry of the same id, nor from an entry that does not exist
    expect(() => sqlite.exec(`INSERT INTO entry_meta VALUES ('c3', 'e1', 'erp', 'k', '', '"v"', 0, '', '', '${AT}', '${AT}')`)).toThrow(/FOREIGN KEY/);
    // deleting c2's entry takes c2's file only
    sqlite.exec(`DELETE FROM entries WHERE company_id = 'c2' AND id = 'e1'`);
    expect(sqlite.prepare(`SELECT company_id, name FROM attachments`).all()).toEqual([{ company_id: 'c1', name: 'a.pdf' }]);
    expect(one(`SELECT count FROM entry_folder_counts WHERE company_id = 'c2' AND folder = 'sales'`)).toEqual({ count: 1 });
    expect(sqlite.pragma('foreign_key_check')).toEqual([]);
    sqlite.close();
  });
});
