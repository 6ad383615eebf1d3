import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../src-main/core/db/engine.ts';
import { takeBackup } from '../../src-main/core/backup/take-backup.ts';
import { openService } from '../../src-main/core/service.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { callAs, partialInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let target: string;
let entryId: string;
const PDF = Buffer.from('%PDF-1.4 the scan of a supplier invoice');

const settings = (overrides: Record<string, unknown> = {}) => ({ folder: target, every_hours: 6, keep: 2, enabled: true, ...overrides });

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
  target = mkdtempSync(join(tmpdir(), 'silodesk-backups-'));
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = uuidv7();
  const entry = await t.call('POST', '/silo/v1/entries', { data: envelope });
  entryId = entry.body.id;
  const file = await t.call('PUT', `/silo/v1/entries/${entryId}/files/scan.pdf`, { name: 'scan.pdf', data: PDF.toString('base64') });
  expect(file.status).toBe(200);
});

afterAll(async () => {
  await t.close();
  rmSync(target, { recursive: true, force: true });
});

describe('backup settings', () => {
  it("are the install owner's alone: to a company's owner they are not found, a user's token is refused", async () => {
    const company = await t.call('POST', '/access/v1/companies', { name: 'Client S.L.' });
    const asCompanyOwner = await callAs(t, company.body.owner_token, 'PUT', '/utils/v1/backup', settings());
    expect(asCompanyOwner.status).toBe(404);
    expect((await callAs(t, company.body.owner_token, 'GET', '/utils/v1/backup')).status).toBe(404);
    expect((await callAs(t, company.body.owner_token, 'POST', '/utils/v1/backup/run')).status).toBe(404);
    const user = await t.call('POST', '/access/v1/tokens', { name: 'clerk', kind: 'user' });
    expect((await callAs(t, user.body.token ?? user.body.secret, 'POST', '/utils/v1/backup/run')).status).toBe(403);
  });

  it('refuse a relative folder, one inside the data folder, and bad numbers, naming the field', async () => {
    const relative = await t.call('PUT', '/utils/v1/backup', settings({ folder: 'backups' }));
    expect(relative.status).toBe(422);
    expect(relative.body.fields['$.folder']).toMatch(/absolute/);
    const inside = await t.call('PUT', '/utils/v1/backup', settings({ folder: join(t.dataDir, 'files', 'mine') }));
    expect(inside.status).toBe(422);
    expect(inside.body.fields['$.folder']).toMatch(/outside the data folder/);
    const numbers = await t.call('PUT', '/utils/v1/backup', settings({ every_hours: 0, keep: 1000 }));
    expect(numbers.status).toBe(422);
    expect(Object.keys(numbers.body.fields).sort()).toEqual(['$.every_hours', '$.keep']);
  });

  it('are kept, and plan the next backup', async () => {
    const res = await t.call('PUT', '/utils/v1/backup', settings());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.settings).toEqual(settings());
    expect(Date.parse(res.body.next_at)).toBeGreaterThan(Date.now());
    const off = await t.call('PUT', '/utils/v1/backup', settings({ enabled: false }));
    expect(off.body.next_at).toBeUndefined();
  });
});

describe('a backup', () => {
  it('holds a consistent database, every file and the keys, taken while entries keep arriving', async () => {
    await t.call('PUT', '/utils/v1/backup', settings());
    // Writes go on during the backup: the snapshot is consistent whatever lands meanwhile.
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing && n < 200) {
        await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: `W-${n++}` }) });
      }
    })();
    const res = await t.call('POST', '/utils/v1/backup/run');
    writing = false;
    await writer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.last).toMatchObject({ ok: true });
    const [newest] = res.body.backups;
    expect(newest.name).toBe(res.body.last.name);
    expect(Date.parse(res.body.next_at) - Date.parse(res.body.last.at)).toBe(6 * 3_600_000);

    const dir = join(target, newest.name);
    const db = new Database(join(dir, 'silodesk.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const hashes = db.prepare('SELECT hash FROM attachments').pluck().all() as string[];
    expect(db.prepare('SELECT count(*) FROM entries').pluck().get()).toBe(newest.entries);
    db.close();
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(readFileSync(join(dir, 'files', hash.slice(0, 2), hash))).toEqual(PDF);
    expect(readdirSync(join(dir, 'keys')).length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'RESTORE.txt'), 'utf8')).toContain('silodesk.db, files/ and keys/');
    expect(existsSync(join(dir, 'files', 'tmp'))).toBe(false);
  });

  it('restores: a data folder made of its copy opens with the entry and its file', async () => {
    const status = await t.call('GET', '/utils/v1/backup');
    const restored = mkdtempSync(join(tmpdir(), 'silodesk-restored-'));
    cpSync(join(target, status.body.backups[0].name), restored, { recursive: true });
    const service = await openService(restored, { autoSync: false, runJobs: false });
    try {
      const row = await service.db.first(service.db.q.selectFrom('entries').selectAll().where('id', '=', entryId));
      expect(row?.id).toBe(entryId);
      const file = (await service.db.first(service.db.q.selectFrom('attachments').select('hash').where('entry_id', '=', entryId)))!;
      expect(readFileSync(service.blobs.pathOf(file.hash))).toEqual(PDF);
    } finally {
      await service.close();
      rmSync(restored, { recursive: true, force: true });
    }
  });

  it('keeps the newest K, shares unchanged files with the previous backup, and clears what a crash left', async () => {
    mkdirSync(join(target, '.silodesk-backup-2020-01-01T00-00-00-000Z.partial'));
    const first = await t.call('POST', '/utils/v1/backup/run');
    const second = await t.call('POST', '/utils/v1/backup/run');
    expect(second.status).toBe(200);
    const names = second.body.backups.map((b: { name: string }) => b.name);
    expect(names).toEqual([second.body.last.name, first.body.last.name]);
    expect(readdirSync(target).sort()).toEqual([...names].sort());

    const file = (await t.service.db.first(t.service.db.q.selectFrom('attachments').select('hash').where('entry_id', '=', entryId)))!;
    const inode = (name: string) => statSync(join(target, name, 'files', file.hash.slice(0, 2), file.hash)).ino;
    expect(inode(names[0])).toBe(inode(names[1]));
  });

  it('reports a folder that cannot be written as a failed run, and says so in the status', async () => {
    const blocked = join(target, 'not-a-folder');
    await t.call('PUT', '/utils/v1/backup', settings({ folder: blocked }));
    rmSync(blocked, { recursive: true, force: true });
    // A file where the folder should be: the next run cannot make it.
    cpSync(join(t.dataDir, 'api-token'), blocked);
    const res = await t.call('POST', '/utils/v1/backup/run');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/backup failed/);
    const status = await t.call('GET', '/utils/v1/backup');
    expect(status.body.last).toMatchObject({ ok: false });
    rmSync(blocked, { force: true });
  });

  it('is refused on PostgreSQL, whose backups are the database server\'s own, and writes nothing', async () => {
    // A service on PostgreSQL has no SQLite connection: there is no database file to copy.
    const onPostgres = { ...t.service, db: { dialect: 'postgres', sqlite: undefined } as unknown as Db };
    const before = readdirSync(target);
    await expect(takeBackup(onPostgres, target)).rejects.toThrow(/PostgreSQL.*pg_dump/);
    expect(readdirSync(target)).toEqual(before);
  });
});
