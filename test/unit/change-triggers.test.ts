import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import { NO_ORIGIN, SYNCED_TABLES } from '../../src-main/core/db/change-triggers.ts';
import { asAction } from '../../src-main/core/silo/audit-actor.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import type { SyncKind } from '../../src-main/core/sync/change-log.ts';
import { recordKinds } from '../../src-main/core/sync/records/index.ts';

/**
 * Every write records its change in one place a write cannot bypass (issue 14): the
 * database's triggers. These tests write each synced table the way a forgetful new
 * write path would, with raw SQL straight on the connection, and find the change
 * recorded inside a transaction with an origin, and the write refused outside one.
 */

let service: Service;
let dir: string;
let company: string;
const AT = '2026-01-01T00:00:00.000Z';

const sql = (text: string) => service.db.sqlite!.prepare(text.replaceAll(':c', `'${company}'`)).run();
const asPeer = (text: string) => service.db.tx(async () => sql(text), { origin: 'peer-1' });
const change = (kind: string, recordId: string) =>
  service.db.sqlite!
    .prepare('SELECT seq, version, deleted, origin, entry_id FROM sync_changes WHERE company_id = ? AND kind = ? AND record_id = ?')
    .get(company, kind, recordId) as { seq: number; version: number; deleted: number; origin: string; entry_id: string | null } | undefined;

const entryRow = (id: string) =>
  `INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg,
     digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at)
   VALUES ('${id}', :c, NULL, 'sales', 'draft', '', 1, 0, 0, 'x', NULL, 'x', 'sha256', '${id}', '{"title":"${id}"}', '[]', '[]', '{}', '', 1, '${AT}', '${AT}')`;

/** One synced table written raw: a row in, a synced column changed, columns that are not the record's, the row out. */
interface Case {
  table: string;
  kind: SyncKind;
  recordId: string;
  entryId?: string;
  insert: string;
  update: string;
  untracked: string;
  remove: string;
}

const CASES: Case[] = [
  {
    table: 'entries', kind: 'entry', recordId: 'e-raw',
    insert: entryRow('e-raw'),
    update: `UPDATE entries SET tags = '["x"]' WHERE company_id = :c AND id = 'e-raw'`,
    // a job's faults, the version If-Match names, the sort columns: none is in the synced record
    untracked: `UPDATE entries SET step_faults = '[{}]', version = version + 1, updated_at = 'later', issue_date = '2026-02-02' WHERE company_id = :c AND id = 'e-raw'`,
    remove: `DELETE FROM entries WHERE company_id = :c AND id = 'e-raw'`,
  },
  {
    table: 'attachments', kind: 'attachment', recordId: 'E:f-raw', entryId: 'E',
    insert: `INSERT INTO attachments (entry_id, id, company_id, name, desc, mime, hash, size, meta, created_at)
             VALUES ('E', 'f-raw', :c, 'a.pdf', '', 'application/pdf', 'abc', 3, '{}', '${AT}')`,
    update: `UPDATE attachments SET name = 'b.pdf' WHERE company_id = :c AND entry_id = 'E' AND id = 'f-raw'`,
    untracked: `UPDATE attachments SET category = 'scan', private = 1 WHERE company_id = :c AND entry_id = 'E' AND id = 'f-raw'`,
    remove: `DELETE FROM attachments WHERE company_id = :c AND entry_id = 'E' AND id = 'f-raw'`,
  },
  {
    table: 'entry_meta', kind: 'meta', recordId: 'E:erp:k-raw', entryId: 'E',
    insert: `INSERT INTO entry_meta (company_id, entry_id, src, key, ref, value, shared, link_scope, link_url, created_at, updated_at)
             VALUES (:c, 'E', 'erp', 'k-raw', '', '1', 0, '', '', '${AT}', '${AT}')`,
    update: `UPDATE entry_meta SET value = '2' WHERE company_id = :c AND entry_id = 'E' AND key = 'k-raw'`,
    untracked: `UPDATE entry_meta SET updated_at = 'later' WHERE company_id = :c AND entry_id = 'E' AND key = 'k-raw'`,
    remove: `DELETE FROM entry_meta WHERE company_id = :c AND entry_id = 'E' AND key = 'k-raw'`,
  },
  {
    table: 'workflows', kind: 'workflow', recordId: 'w-raw',
    insert: `INSERT INTO workflows (id, company_id, version, name, schema, disabled, request_hash, created_at, updated_at)
             VALUES ('w-raw', :c, 1, 'Flow', '', 0, '', '${AT}', '${AT}')`,
    update: `UPDATE workflows SET version = 2 WHERE company_id = :c AND id = 'w-raw'`,
    // the definition (name included) is the version's: the workflow row's copy of the name is not the record
    untracked: `UPDATE workflows SET name = 'Renamed', updated_at = 'later' WHERE company_id = :c AND id = 'w-raw'`,
    remove: `DELETE FROM workflows WHERE company_id = :c AND id = 'w-raw'`,
  },
  {
    // W points at version 2 (set up below): that version's definition is the workflow's state
    table: 'workflow_versions', kind: 'workflow', recordId: 'W',
    insert: `INSERT INTO workflow_versions (company_id, workflow_id, version, definition, created_at) VALUES (:c, 'W', 2, '{"name":"v2"}', '${AT}')`,
    update: `UPDATE workflow_versions SET definition = '{"name":"v2b"}' WHERE company_id = :c AND workflow_id = 'W' AND version = 2`,
    // an older version is history, not the state
    untracked: `UPDATE workflow_versions SET definition = '{"name":"old"}', created_at = 'later' WHERE company_id = :c AND workflow_id = 'W' AND version = 1`,
    remove: `DELETE FROM workflow_versions WHERE company_id = :c AND workflow_id = 'W' AND version = 2`,
  },
  {
    table: 'series', kind: 'series', recordId: 's-raw',
    insert: `INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, sigs, request_hash, created_at, updated_at)
             VALUES ('s-raw', :c, 'Sales', '', 'FA', 'FA-', 4, '', 1, 'me', 0, '[]', '', '${AT}', '${AT}')`,
    update: `UPDATE series SET name = 'Sales 2' WHERE company_id = :c AND id = 's-raw'`,
    // the head moves on every copy by itself, as entries arrive
    untracked: `UPDATE series SET last_index = 3, last_entry_id = 'x', updated_at = 'later' WHERE company_id = :c AND id = 's-raw'`,
    remove: `DELETE FROM series WHERE company_id = :c AND id = 's-raw'`,
  },
  {
    table: 'series_entries', kind: 'series_entry', recordId: 'se-raw',
    insert: `INSERT INTO series_entries (id, company_id, series_id, idx, code, meta, previous_id, sigs, request_hash, created_at, updated_at)
             VALUES ('se-raw', :c, 'S', 1, 'FA-0001', '{}', NULL, '[]', '', '${AT}', '${AT}')`,
    update: `UPDATE series_entries SET code = 'FA-0001b' WHERE company_id = :c AND id = 'se-raw'`,
    untracked: `UPDATE series_entries SET request_hash = 'h', updated_at = 'later' WHERE company_id = :c AND id = 'se-raw'`,
    remove: `DELETE FROM series_entries WHERE company_id = :c AND id = 'se-raw'`,
  },
  {
    table: 'trusted_jwks', kind: 'trusted_jwks', recordId: 't-raw',
    insert: `INSERT INTO trusted_jwks (company_id, id, name, keys, created_at, updated_at) VALUES (:c, 't-raw', 'Signer', '[]', '${AT}', '${AT}')`,
    update: `UPDATE trusted_jwks SET keys = '[{}]' WHERE company_id = :c AND id = 't-raw'`,
    untracked: `UPDATE trusted_jwks SET updated_at = 'later' WHERE company_id = :c AND id = 't-raw'`,
    remove: `DELETE FROM trusted_jwks WHERE company_id = :c AND id = 't-raw'`,
  },
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-change-triggers-'));
  service = await openService(dir, { runJobs: false, autoSync: false });
  company = (await ensureDefaultCompany(service.db)).key;
  // The parents the child rows above hang from.
  await service.db.tx(async () => {
    sql(entryRow('E'));
    sql(`INSERT INTO workflows (id, company_id, version, name, schema, disabled, request_hash, created_at, updated_at) VALUES ('W', :c, 1, 'Flow', '', 0, '', '${AT}', '${AT}')`);
    sql(`INSERT INTO workflow_versions (company_id, workflow_id, version, definition, created_at) VALUES (:c, 'W', 1, '{"name":"v1"}', '${AT}')`);
    sql(`UPDATE workflows SET version = 2 WHERE company_id = :c AND id = 'W'`);
    sql(`INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, sigs, request_hash, created_at, updated_at)
         VALUES ('S', :c, 'Sales', '', 'FA', 'FA-', 4, '', 1, 'me', 0, '[]', '', '${AT}', '${AT}')`);
  }, { origin: 'local' });
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('changes recorded by the database', () => {
  it('every record kind sync knows has its tables, and every one of them its insert, update and delete triggers', () => {
    const kinds = Object.keys(recordKinds).sort();
    expect([...new Set(SYNCED_TABLES.map((t) => t.kind))].sort()).toEqual(kinds);
    // every synced table is written raw below: a table added without a case here fails this test
    expect(CASES.map((c) => c.table).sort()).toEqual(SYNCED_TABLES.map((t) => t.table).sort());
    const triggers = service.db.sqlite!.prepare(`SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'`).all() as Array<{ tbl_name: string; sql: string }>;
    for (const { table } of SYNCED_TABLES) {
      const events = triggers
        .filter((t) => t.tbl_name === table && t.sql.includes('silodesk_written('))
        .map((t) => /AFTER (INSERT|UPDATE|DELETE)/.exec(t.sql)?.[1])
        .sort();
      expect({ table, events }).toEqual({ table, events: ['DELETE', 'INSERT', 'UPDATE'] });
    }
  });

  for (const c of CASES) {
    it(`${c.table}: a raw write in a transaction with an origin records the change; one outside any is refused`, async () => {
      const before = change(c.kind, c.recordId)?.version ?? 0;
      // A write path that opened no transaction with an origin: refused, and nothing is written.
      expect(() => sql(c.insert)).toThrow(NO_ORIGIN);
      expect(change(c.kind, c.recordId)?.version ?? 0).toBe(before);

      await asPeer(c.insert);
      const inserted = change(c.kind, c.recordId)!;
      expect(inserted).toMatchObject({ version: before + 1, deleted: 0, origin: 'peer-1', entry_id: c.entryId ?? null });

      expect(() => sql(c.update)).toThrow(NO_ORIGIN);
      await asPeer(c.update);
      const updated = change(c.kind, c.recordId)!;
      expect(updated).toMatchObject({ version: before + 2, deleted: 0 });
      expect(updated.seq).toBeGreaterThan(inserted.seq);

      // Columns the record does not carry change nothing sync sees: no new version, no spurious conflict.
      await asPeer(c.untracked);
      expect(change(c.kind, c.recordId)).toEqual(updated);

      expect(() => sql(c.remove)).toThrow(NO_ORIGIN);
      await service.db.tx(async () => sql(c.remove), { origin: 'local' });
      expect(change(c.kind, c.recordId)).toMatchObject({ version: before + 3, deleted: 1, origin: 'local' });
    });
  }

  it('an entry deleted with its files and meta records the entry\'s deletion only: its children go with it', async () => {
    const local = (text: string) => service.db.tx(async () => sql(text), { origin: 'local' });
    await local(entryRow('E2'));
    await local(`INSERT INTO attachments (entry_id, id, company_id, name, desc, mime, hash, size, meta, created_at) VALUES ('E2', 'f', :c, 'a.pdf', '', 'application/pdf', 'abc', 3, '{}', '${AT}')`);
    await local(`INSERT INTO entry_meta (company_id, entry_id, src, key, ref, value, shared, link_scope, link_url, created_at, updated_at) VALUES (:c, 'E2', 'erp', 'k', '', '1', 0, '', '', '${AT}', '${AT}')`);
    const file = change('attachment', 'E2:f');
    const meta = change('meta', 'E2:erp:k');
    await local(`DELETE FROM entries WHERE company_id = :c AND id = 'E2'`);
    expect(change('entry', 'E2')).toMatchObject({ version: 2, deleted: 1 });
    expect(change('attachment', 'E2:f')).toEqual(file);
    expect(change('meta', 'E2:erp:k')).toEqual(meta);
    expect(service.db.sqlite!.prepare(`SELECT count(*) AS n FROM attachments WHERE entry_id = 'E2'`).get()).toEqual({ n: 0 });
  });

  it('puts each record a transaction changed on record once, with the transaction\'s origin', async () => {
    const versions = () => service.db.sqlite!.prepare(`SELECT version, action, via, actor_id FROM entry_versions WHERE entry_id = 'E3' ORDER BY version`).all();
    const audited = () =>
      service.db.sqlite!.prepare(`SELECT l.action, l.via, a.actor_id FROM audit_log l JOIN audit_actors a ON a.key = l.actor WHERE l.target_id = 'E3' ORDER BY l.seq`).all();
    await service.db.tx(async () => {
      sql(entryRow('E3'));
      sql(`UPDATE entries SET tags = '["a"]' WHERE company_id = :c AND id = 'E3'`);
      sql(`UPDATE entries SET state = 'sent' WHERE company_id = :c AND id = 'E3'`);
    }, { origin: 'peer-2' });
    expect(change('entry', 'E3')).toMatchObject({ version: 1, origin: 'peer-2' });
    // Its first version is implied by the entry and the log's row until it changes (implied-created-version.ts).
    expect(versions()).toEqual([]);
    expect(audited()).toEqual([{ action: 'entry.created', via: 'sync', actor_id: 'peer-2' }]);
    // A failed transaction leaves nothing on record.
    await expect(service.db.tx(async () => {
      sql(`UPDATE entries SET tags = '["b"]' WHERE company_id = :c AND id = 'E3'`);
      throw new Error('half-way');
    }, { origin: 'local' })).rejects.toThrow('half-way');
    expect(versions()).toHaveLength(0);
    expect(audited()).toHaveLength(1);
    expect(change('entry', 'E3')).toMatchObject({ version: 1 });
    // Changed for good, the first version is stored as it was, named as the log names it.
    await service.db.tx(async () => sql(`UPDATE entries SET folder = 'filed' WHERE company_id = :c AND id = 'E3'`), { origin: 'local' });
    expect(versions()).toEqual([
      { version: 1, action: 'created', via: 'sync', actor_id: 'peer-2' },
      { version: 2, action: 'changed', via: 'workflow', actor_id: 'workflow' },
    ]);
  });

  it('names each change as its write path said when it wrote, however wide the transaction around it', async () => {
    const actions = () =>
      service.db.sqlite!.prepare(`SELECT action, target_id FROM audit_log WHERE target_id LIKE 'E3:%' ORDER BY seq`).all();
    await service.db.tx(async () => {
      sql(`INSERT INTO attachments (entry_id, id, company_id, name, desc, mime, hash, size, meta, created_at) VALUES ('E3', 'f', :c, 'a.pdf', '', 'application/pdf', 'abc', 3, '{}', '${AT}')`);
      sql(`INSERT INTO entry_meta (company_id, entry_id, src, key, ref, value, shared, link_scope, link_url, created_at, updated_at) VALUES (:c, 'E3', 'erp', 'k', '', '1', 0, '', '', '${AT}', '${AT}')`);
    }, { origin: 'local' });
    await service.db.tx(async () => {
      await asAction(service.db, 'trashed', () => sql(`DELETE FROM attachments WHERE company_id = :c AND entry_id = 'E3' AND id = 'f'`));
      sql(`UPDATE entry_meta SET value = '2' WHERE company_id = :c AND entry_id = 'E3' AND key = 'k'`);
    }, { origin: 'local' });
    expect(actions()).toEqual([
      { action: 'attachment.put', target_id: 'E3:f' },
      { action: 'meta.put', target_id: 'E3:erp:k' },
      { action: 'attachment.trashed', target_id: 'E3:f' },
      { action: 'meta.put', target_id: 'E3:erp:k' },
    ]);
  });
});
