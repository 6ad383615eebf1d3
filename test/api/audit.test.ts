import { createHash } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCompany, type StoredCompany } from '../../src-main/core/access/companies.ts';
import { operations } from '../../src-main/core/api/contract/index.ts';
import { canonicalJson } from '../../src-main/core/gobl/index.ts';
import { callService } from '../../src-main/service-process/host.ts';
import { desktopCaller } from '../../src-main/desktop/desktop-caller.ts';
import { callAs, oneLineInvoice } from './gobl-helpers.ts';
import { atOnce, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let company: StoredCompany;
let ownerTokenId: string;
let userToken: string;

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
  const session = (await t.call('GET', '/access/v1/session')).body;
  company = await requireCompany(t.service.db, session.company.id);
  ownerTokenId = session.caller.token_id;
  userToken = (await t.call('POST', '/access/v1/tokens', { name: 'clerk', kind: 'user' })).body.token;
});
afterAll(() => t.close());

// How someone with the database and another tool takes the log's guard off, and puts it back, on each engine.
const SQLITE_GUARD = {
  off: 'DROP TRIGGER audit_log_no_update',
  on: `CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`,
};
const PG_GUARD = { off: 'ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change', on: 'ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change' };

/** Every row of the log about `target`, oldest first. */
async function about(target: string): Promise<any[]> {
  return ((await t.call('GET', `/silo/v1/audit?limit=100&target_id=${encodeURIComponent(target)}`)).body.list as any[]).reverse();
}

describe('the audit log', () => {
  it("is the owner's to read", async () => {
    expect((await callAs(t, userToken, 'GET', '/silo/v1/audit')).status).toBe(403);
    expect((await callAs(t, userToken, 'GET', '/silo/v1/audit/verify')).status).toBe(403);
    const app = await t.call('PUT', `/access/v1/enrollment/${uuidv4()}`, { app_id: uuidv4(), data: {} });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    expect((await callAs(t, app.body.token, 'GET', '/silo/v1/audit')).status).toBe(403);
    // The enrollment itself is on record, by the owner who made it.
    expect((await about(app.body.id))[0]).toMatchObject({ action: 'enrollment.saved', operation: 'putEnrollment' });
    expect((await t.call('GET', '/silo/v1/audit')).status).toBe(200);
  });

  it('records every change of an entry, its files and meta, with who, when, what and from where (http, ipc, workflow)', async () => {
    const entry = (await callAs(t, userToken, 'POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-1') })).body;
    await t.call('PUT', `/silo/v1/entries/${entry.id}/files/a.txt`, { name: 'a.txt', data: Buffer.from('a').toString('base64') });
    await t.call('PUT', `/silo/v1/entries/${entry.id}/meta/erp`, { src: 'erp', value: { id: 7 } });
    await t.call('DELETE', `/silo/v1/entries/${entry.id}/meta/erp?src=erp`);
    await t.call('DELETE', `/silo/v1/entries/${entry.id}/files/a.txt`);
    await t.call('POST', `/silo/v1/entries/${entry.id}/files/a.txt/restore`);
    await callService(t.service, await desktopCaller(t.service.db, company), 'patchEntry', { params: { id: entry.id }, body: { state: 'sent' } });
    // A workflow step attaches a PDF while the request that queued it waits: the file is the workflow's.
    const wf = (await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Render', steps: [{ provider: 'pdf', config: {} }] })).body;
    const job = (await t.call('POST', '/transform/v1/jobs?wait=20', { workflow_id: wf.id, silo_entry_id: entry.id })).body;
    expect(job.status, JSON.stringify(job)).toBe('OK');
    await t.call('DELETE', `/silo/v1/entries/${entry.id}`);
    await t.call('POST', `/silo/v1/entries/${entry.id}/restore`);

    const rows = await about(entry.id);
    expect(rows.map((r) => [r.action, r.via])).toEqual([
      ['entry.created', 'http'],
      ['entry.changed', 'ipc'],
      ['entry.trashed', 'http'],
      ['entry.restored', 'http'],
    ]);
    expect(rows[0]).toMatchObject({ actor: { name: 'clerk (user token)' }, operation: 'createEntry', target: { kind: 'entry', id: entry.id }, detail: { version: '1', title: expect.stringContaining('AUDIT-1') } });
    expect(rows[1]).toMatchObject({ actor: { id: 'desktop', name: 'Desktop app' }, operation: 'patchEntry', detail: { changed: ['state'] } });
    expect(rows[2]).toMatchObject({ actor: { id: ownerTokenId }, operation: 'trashEntry' });

    const file = await about(`${entry.id}:a.txt`);
    expect(file.map((r) => [r.action, r.via, r.operation])).toEqual([
      ['attachment.put', 'http', 'putAttachment'],
      ['attachment.trashed', 'http', 'trashAttachment'],
      ['attachment.restored', 'http', 'restoreAttachment'],
    ]);
    expect((await about(`${entry.id}:erp:erp`)).map((r) => r.action)).toEqual(['meta.put', 'meta.deleted']);
    const pdf = ((await t.call('GET', `/silo/v1/audit?limit=100&action=attachment.put`)).body.list as any[]).find((r) => r.target.id.startsWith(entry.id) && r.target.id !== `${entry.id}:a.txt`);
    expect(pdf).toMatchObject({ via: 'workflow', actor: { id: job.id, name: 'Workflow “Render”' } });
    expect(pdf.operation).toBeUndefined();
  });

  it('names an entry in the log by its title as shown, quotes, backslashes and all', async () => {
    const doc = oneLineInvoice('AUDIT-TITLE', { customer: { name: 'The "Quoted" \\ Café' } });
    const entry = (await t.call('POST', '/silo/v1/entries', { data: doc })).body;
    await t.call('PATCH', `/silo/v1/entries/${entry.id}`, { state: 'sent' });
    const title = (await t.call('GET', '/silo/v1/entries/' + entry.id)).body.snippet.title;
    expect(title).toContain('The "Quoted" \\ Café');
    expect((await about(entry.id)).map((r) => [r.action, r.detail.title])).toEqual([
      ['entry.created', title],
      ['entry.changed', title],
    ]);
  });

  it('shows what a creation changed, everything history records, and its version 1, though its row says neither', async () => {
    const entry = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-CREATED') })).body;
    const [created] = await about(entry.id);
    expect(created.detail).toEqual({ version: '1', changed: ['document', 'state', 'folder', 'tags'], title: expect.stringContaining('AUDIT-CREATED') });
    expect(Object.keys(created.detail)).toEqual(['version', 'changed', 'title']);
    const { db } = t.service;
    const stored = (await db.sqlFirst<{ detail: string }>(`SELECT detail FROM audit_log WHERE target_id = ? AND action = 'entry.created'`, [entry.id]))!.detail;
    expect(JSON.parse(stored)).toEqual({ title: created.detail.title });
    // The chain still holds over the row as stored.
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('puts a step\'s change down to the job that ran it, with another job queued on the same entry', async () => {
    const entry = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-JOBS') })).body;
    const first = (await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'First', steps: [{ provider: 'silo.state', config: { state: 'sent' } }] })).body;
    const second = (await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Second', steps: [{ provider: 'silo.state', config: { state: 'paid' } }] })).body;
    // Both queued while the engine rests: the first runs while the second, newer, waits its turn.
    await t.service.jobs.stop();
    const a = (await t.call('POST', '/transform/v1/jobs', { workflow_id: first.id, silo_entry_id: entry.id })).body;
    const b = (await t.call('POST', '/transform/v1/jobs', { workflow_id: second.id, silo_entry_id: entry.id })).body;
    t.service.jobs.start();
    expect((await t.call('GET', `/transform/v1/jobs/${b.id}?wait=20`)).body.status).toBe('OK');
    const changes = (await about(entry.id)).filter((r) => r.via === 'workflow');
    expect(changes.map((r) => [r.detail.changed, r.actor])).toEqual([
      [['state'], { id: a.id, name: 'Workflow “First”' }],
      [['state'], { id: b.id, name: 'Workflow “Second”' }],
    ]);
  });

  it('records workflows, series, settings, tokens and purges, and never a secret', async () => {
    const wfId = uuidv7();
    await t.call('PUT', `/transform/v1/workflows/${wfId}`, { name: 'Audited', steps: [{ provider: 'silo.state', config: { state: 'sent' } }] });
    const seriesId = uuidv4();
    await t.call('PUT', `/sequence/v1/series/${seriesId}`, { name: 'Audit series', code: 'AUD', prefix: 'AUD-', padding: 4 });
    await t.call('PUT', `/sequence/v1/series/${seriesId}/entries/${uuidv4()}`, { meta: {} });
    const made = (await t.call('POST', '/access/v1/tokens', { name: 'robot', kind: 'user' })).body;
    await t.call('POST', `/access/v1/tokens/${made.id}/rotate`);
    await t.call('DELETE', `/access/v1/tokens/${made.id}`);
    await t.call('PUT', '/silo/v1/trash/settings', { retention_days: 45 });
    await t.call('PUT', '/sync/v1/settings', { remote_url: 'http://127.0.0.1:9', token: 'sd_remote-secret-token', interval_minutes: 0 });
    const entry = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-PURGE') })).body;
    await t.call('DELETE', `/silo/v1/entries/${entry.id}`);
    await t.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: entry.id }] });

    expect((await about(wfId)).map((r) => r.action)).toEqual(['workflow.saved']);
    expect((await about(seriesId)).map((r) => r.action)).toEqual(['series.saved']);
    expect(((await t.call('GET', '/silo/v1/audit?action=series_entry')).body.list as any[]).length).toBeGreaterThanOrEqual(1);
    const token = await about(made.id);
    expect(token.map((r) => r.action)).toEqual(['token.created', 'token.rotated', 'token.revoked']);
    expect(token[0].detail).toEqual({ name: 'robot', kind: 'user' });
    expect((await about('trash'))[0]).toMatchObject({ action: 'settings.trash', detail: { retention_days: 45 }, operation: 'putTrashSettings' });
    expect((await about('sync'))[0]).toMatchObject({ action: 'settings.sync', detail: { remote_url: 'http://127.0.0.1:9', token_changed: true } });
    expect((await about(entry.id)).map((r) => r.action)).toEqual(['entry.created', 'entry.trashed', 'entry.purged']);

    const everything = JSON.stringify((await t.call('GET', '/silo/v1/audit?limit=100')).body);
    expect(everything).not.toContain('sd_remote-secret-token');
    expect(everything).not.toContain(made.token);
    await t.call('DELETE', '/sync/v1/settings');
  });

  it('pages newest first by keyset, filters by action family and origin', async () => {
    for (let i = 0; i < 3; i++) await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice(`AUDIT-PAGE-${i}`) });
    const seen: number[] = [];
    let cursor = '';
    for (;;) {
      const page = (await t.call('GET', `/silo/v1/audit?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
      seen.push(...page.list.map((r: any) => r.seq));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen.length).toBeGreaterThan(7);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(seen.length);
    const created = (await t.call('GET', '/silo/v1/audit?action=entry.created&limit=100')).body.list as any[];
    expect(created.length).toBeGreaterThanOrEqual(3);
    expect(created.every((r) => r.action === 'entry.created')).toBe(true);
    const entryFamily = (await t.call('GET', '/silo/v1/audit?action=entry&limit=100')).body.list as any[];
    expect(entryFamily.every((r) => r.action.startsWith('entry.'))).toBe(true);
    expect(((await t.call('GET', '/silo/v1/audit?via=ipc&limit=100')).body.list as any[]).every((r) => r.via === 'ipc')).toBe(true);
    expect((await t.call('GET', '/silo/v1/audit?action=DROP%20TABLE')).status).toBe(400);
    expect((await t.call('GET', '/silo/v1/audit?cursor=abc.def')).status).toBe(400);
  });

  it('serves a filtered page from the rows the filter keeps: the whole log in order with the others left out, page by page', async () => {
    const every = async (query: string, limit: number) => {
      const rows: any[] = [];
      let cursor = '';
      for (;;) {
        const page = (await t.call('GET', `/silo/v1/audit?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
        rows.push(...page.list);
        if (!page.next_cursor) return rows;
        cursor = page.next_cursor;
      }
    };
    const all = await every('', 100);
    const families = [...new Set(all.map((r) => r.action.split('.')[0]))];
    expect(families.length).toBeGreaterThan(3);
    const filters: Array<[string, (r: any) => boolean]> = [
      ...families.map((f): [string, (r: any) => boolean] => [`action=${f}`, (r) => r.action === f || r.action.startsWith(`${f}.`)]),
      ['action=entry.created', (r) => r.action === 'entry.created'],
      ['action=entr', () => false],
      ['via=ipc', (r) => r.via === 'ipc'],
      ['via=system', (r) => r.via === 'system'],
      ['action=entry&via=http', (r) => r.action.startsWith('entry.') && r.via === 'http'],
    ];
    for (const [query, keeps] of filters) {
      expect((await every(query, 5)).map((r) => r.seq), query).toEqual(all.filter(keeps).map((r) => r.seq));
    }
  });

  it('is append-only: no operation changes it, the database refuses UPDATE and DELETE, and the hash chain finds an edit made behind its back', async () => {
    const mutating = Object.values(operations as Record<string, { method: string; path: string }>).filter(
      (op) => op.path.startsWith('/silo/v1/audit') && op.method !== 'GET',
    );
    expect(mutating).toEqual([]);

    const { db } = t.service;
    await expect(db.sqlRun("UPDATE audit_log SET actor_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(db.sqlRun('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true });

    // Someone with the database and another tool removes the guard and rewrites a row.
    const victim = (await about((await t.call('GET', '/silo/v1/audit?limit=1')).body.list[0].target.id))[0];
    const guard = db.dialect === 'postgres' ? PG_GUARD : SQLITE_GUARD;
    await db.sqlRun(guard.off);
    try {
      await db.sqlRun("UPDATE audit_log SET actor_name = 'nobody' WHERE seq = ?", [victim.seq]);
      const verdict = (await t.call('GET', '/silo/v1/audit/verify')).body;
      expect(verdict).toMatchObject({ ok: false, broken_at: victim.seq });
    } finally {
      await db.sqlRun('UPDATE audit_log SET actor_name = ? WHERE seq = ?', [victim.actor.name, victim.seq]);
      await db.sqlRun(guard.on);
    }
    expect((await t.call('GET', '/silo/v1/audit/verify')).body.ok).toBe(true);
  });

  it('keeps each link in 43 characters, and goes on from a log whose links were stored as 64 hex digits', async () => {
    const { db } = t.service;
    await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-LINK-1') });
    const links = () => db.sql<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log WHERE company_id = ? ORDER BY seq', [company.key]);
    const before = await links();
    for (const { hash } of before) expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The log as a build from before would have left it: every link in hex.
    const guard = db.dialect === 'postgres' ? PG_GUARD : SQLITE_GUARD;
    await db.sqlRun(guard.off);
    try {
      for (const { seq, hash } of before) await db.sqlRun('UPDATE audit_log SET hash = ? WHERE seq = ?', [Buffer.from(hash, 'base64url').toString('hex'), seq]);
    } finally {
      await db.sqlRun(guard.on);
    }
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true, count: before.length });
    await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-LINK-2') });
    const after = await links();
    expect(after.slice(0, before.length).every(({ hash }) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
    expect(after.at(-1)!.hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true, count: after.length });
  });

  it('keeps the chain whole when entries of one company are written at once', async () => {
    const before = (await t.call('GET', '/silo/v1/audit/verify')).body.count as number;
    // Entries made while tokens are made: the entries' writes take turns at the change log, the tokens' do not.
    const [made, minted] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, (_, i) => t.call('POST', '/silo/v1/entries', { data: oneLineInvoice(`AUDIT-RACE-${i}`) }))),
      Promise.all(Array.from({ length: 12 }, (_, i) => t.call('POST', '/access/v1/tokens', { name: `racer ${i}`, kind: 'user' }))),
    ]);
    for (const res of [...made, ...minted]) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    // Then every entry changed at once, then every one's meta: each change appends to the one chain of the company.
    const patched = await Promise.all(made.map(({ body }) => t.call('PATCH', `/silo/v1/entries/${body.id}`, { tags: ['raced'] })));
    const described = await Promise.all(made.map(({ body }) => t.call('PUT', `/silo/v1/entries/${body.id}/meta/erp`, { src: 'erp', value: { id: body.id } })));
    for (const res of [...patched, ...described]) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    for (const { body } of made) {
      expect((await about(body.id)).map((r) => r.action)).toEqual(['entry.created', 'entry.changed']);
      expect((await about(`${body.id}:erp:erp`)).map((r) => r.action)).toEqual(['meta.put']);
    }
    const verdict = (await t.call('GET', '/silo/v1/audit/verify')).body;
    for (const { body } of minted) expect((await about(body.id)).map((r) => r.action)).toEqual(['token.created']);
    expect(verdict).toEqual({ ok: true, count: before + made.length * 3 + minted.length });
  });

  it('keeps the chain whole when operations answered at once are put on record together', async () => {
    const ids = Array.from({ length: 4 }, () => uuidv4());
    const desktop = await desktopCaller(t.service.db, company);
    await atOnce(t.service, ids.map((id) => () => callService(t.service, desktop, 'putView', { params: { id }, body: { name: `View ${id}`, columns: ['total'] } })));
    for (const id of ids) expect((await about(id)).map((r) => r.action)).toEqual(['view.saved']);
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('keeps one log per company', async () => {
    const other = (await t.call('POST', '/access/v1/companies', { name: 'Audit Other Co' })).body.owner_token;
    const entry = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-WALL') })).body;
    const theirs = (await callAs(t, other, 'GET', `/silo/v1/audit?limit=100`)).body.list as any[];
    expect(theirs.some((r) => r.target.id === entry.id)).toBe(false);
    expect((await callAs(t, other, 'GET', '/silo/v1/audit/verify')).body.ok).toBe(true);
  });

  it('links every row as it always did: SHA-256 over the previous link in hex, a newline and the row\'s canonical JSON', async () => {
    // Rows of all sorts: an import (no operation named), a PUT with a title beyond ASCII and quotes, a token made.
    await t.call('POST', '/silo/v1/import', { entries: [{ data: oneLineInvoice('AUDIT-LINK-1') }, { data: oneLineInvoice('AUDIT-LINK-2') }] });
    await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: oneLineInvoice('AUDIT-"LINK"-Zürich-東京') });
    await t.call('POST', '/access/v1/tokens', { name: 'link "checker" ✓', kind: 'user' });
    const rows = await t.service.db.sql<Record<string, any>>('SELECT * FROM audit_log WHERE company_id = ? ORDER BY seq', [company.key]);
    expect(rows.some((r) => r.operation === null)).toBe(true);
    let previous = '0'.repeat(64);
    for (const r of rows) {
      // The company by its public id, as links were made before rows were stored under a key.
      const content = canonicalJson([company.id, r.at, r.via, r.actor_id, r.actor_name, r.operation, r.action, r.target_kind, r.target_id, r.detail]);
      const link = createHash('sha256').update(previous).update('\n').update(content).digest('hex');
      const stored = String(r.hash);
      expect(stored.length === 64 ? stored : Buffer.from(stored, 'base64url').toString('hex'), `row ${r.seq}`).toBe(link);
      previous = link;
    }
  });
});
