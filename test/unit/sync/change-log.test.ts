import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService, type Service } from '../../../src-main/core/service.ts';
import { recordChange, withOrigin } from '../../../src-main/core/sync/change-log.ts';

let service: Service;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-changelog-'));
  service = await openService(dir, { runJobs: false, autoSync: false });
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = () => service.store.sqlite.prepare('SELECT seq, kind, record_id, version, origin, deleted, remote_version, synced_version FROM sync_changes ORDER BY seq').all();

describe('the change log', () => {
  it('keeps one row per record, moving it to a new, never reused number on each change, and carries what was agreed', () => {
    const { store } = service;
    expect(recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'a' })).toEqual({ seq: 1, version: 1 });
    expect(recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'b' })).toEqual({ seq: 2, version: 1 });
    store.sqlite.prepare(`UPDATE sync_changes SET remote_version = 7, synced_version = 1 WHERE record_id = 'b'`).run();
    expect(recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'b' })).toEqual({ seq: 3, version: 2 });
    // the highest row moved: its old number is not handed out again
    expect(recordChange(store, { company_id: 'c', kind: 'meta', record_id: 'b', deleted: true })).toEqual({ seq: 4, version: 1 });
    expect(rows()).toEqual([
      { seq: 1, kind: 'entry', record_id: 'a', version: 1, origin: 'local', deleted: 0, remote_version: null, synced_version: null },
      { seq: 3, kind: 'entry', record_id: 'b', version: 2, origin: 'local', deleted: 0, remote_version: 7, synced_version: 1 },
      { seq: 4, kind: 'meta', record_id: 'b', version: 1, origin: 'local', deleted: 1, remote_version: null, synced_version: null },
    ]);
  });

  it('records writes made for another instance under its id, records nothing for local-only rows, and restores the scope', () => {
    const { store } = service;
    withOrigin(store, 'remote-1', () => {
      recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'x' });
      withOrigin(store, null, () => expect(recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'y' })).toBeUndefined());
      recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'z' });
    });
    expect(() => withOrigin(store, 'remote-2', () => {
      throw new Error('boom');
    })).toThrow('boom');
    recordChange(store, { company_id: 'c', kind: 'entry', record_id: 'w' });
    const byId = Object.fromEntries((rows() as any[]).map((r) => [r.record_id, r.origin]));
    expect(byId).toMatchObject({ x: 'remote-1', z: 'remote-1', w: 'local' });
    expect(byId.y).toBeUndefined();
  });
});
