import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../../src-main/core/access/companies.ts';
import type { CompanyKey } from '../../../src-main/core/access/company-key.ts';
import { openService, type Service } from '../../../src-main/core/service.ts';

let service: Service;
let dir: string;
/** the company the signers are written for (its key: what its rows are stored under) */
let company: CompanyKey;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-changelog-'));
  service = await openService(dir, { runJobs: false, autoSync: false });
  company = (await createCompany(service.db, 'C')).key;
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = () =>
  service.db.sqlite!.prepare('SELECT seq, kind, record_id, version, origin, deleted, remote_version, synced_version FROM sync_changes ORDER BY seq').all();

// Trusted signers are the simplest synced table: their rows are written raw here, the way any write path would.
const AT = '2026-01-01T00:00:00.000Z';
const put = (id: string, name: string) =>
  service.db.sqlite!
    .prepare(`INSERT INTO trusted_jwks (company_id, id, name, keys, created_at, updated_at) VALUES (?, ?, ?, '[]', ?, ?)
              ON CONFLICT (company_id, id) DO UPDATE SET name = excluded.name`)
    .run(company, id, name, AT, AT);
const drop = (id: string) => service.db.sqlite!.prepare(`DELETE FROM trusted_jwks WHERE company_id = ? AND id = ?`).run(company, id);
const local = <T>(fn: () => T | Promise<T>) => service.db.tx(async () => fn(), { origin: 'local' });

describe('the change log', () => {
  it('keeps one row per record, moving it to a new, never reused number on each change, and carries what was agreed', async () => {
    await local(() => put('a', 'A'));
    await local(() => put('b', 'B'));
    await service.db.sqlRun(`UPDATE sync_changes SET remote_version = 7, synced_version = 1 WHERE record_id = 'b'`);
    await local(() => put('b', 'B2'));
    // the highest row moved: its old number is not handed out again
    await local(() => drop('a'));
    expect(rows()).toEqual([
      { seq: 3, kind: 'trusted_jwks', record_id: 'b', version: 2, origin: 'local', deleted: 0, remote_version: 7, synced_version: 1 },
      { seq: 4, kind: 'trusted_jwks', record_id: 'a', version: 2, origin: 'local', deleted: 1, remote_version: null, synced_version: null },
    ]);
  });

  it('counts a record written twice by one transaction as one change, as it ended up', async () => {
    await local(() => {
      put('c1', 'first');
      put('c1', 'second');
      drop('c1');
      put('c1', 'third');
    });
    expect(rows().filter((r: any) => r.record_id === 'c1')).toEqual([expect.objectContaining({ version: 1, deleted: 0 })]);
    // a savepoint inside is a write of its own: the record moves on again
    await local(async () => {
      put('c1', 'fourth');
      await service.db.tx(async () => put('c1', 'fifth'), { origin: 'local' });
    });
    expect(rows().filter((r: any) => r.record_id === 'c1')).toEqual([expect.objectContaining({ version: 3 })]);
  });

  it('records writes made for another instance under its id, restores the outer origin, and refuses a write with none', async () => {
    const { db } = service;
    await db.tx(async () => {
      put('x', 'X');
      await db.tx(async () => put('y', 'Y'), { origin: 'remote-2' });
      expect(db.origin).toBe('remote-1');
      put('z', 'Z');
    }, { origin: 'remote-1' });
    await expect(db.tx(async () => {
      put('v', 'V');
      throw new Error('boom');
    }, { origin: 'remote-3' })).rejects.toThrow('boom');
    expect(db.origin).toBeUndefined();
    await local(() => put('w', 'W'));
    expect(() => put('u', 'U')).toThrow(/outside a transaction with an origin/);
    const byId = Object.fromEntries((rows() as any[]).map((r) => [r.record_id, r.origin]));
    expect(byId).toMatchObject({ x: 'remote-1', y: 'remote-2', z: 'remote-1', w: 'local' });
    expect(byId.v).toBeUndefined();
    expect(byId.u).toBeUndefined();
    expect(service.db.sqlite!.prepare(`SELECT id FROM trusted_jwks WHERE id IN ('u', 'v')`).all()).toEqual([]);
  });
});
