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
const SQLITE_ACTORS_GUARD = {
  off: 'DROP TRIGGER audit_actors_no_update',
  on: `CREATE TRIGGER audit_actors_no_update BEFORE UPDATE ON audit_actors BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`,
};
const PG_ACTORS_GUARD = {
  off: 'ALTER TABLE audit_actors DISABLE TRIGGER audit_actors_no_change',
  on: 'ALTER TABLE audit_actors ENABLE TRIGGER audit_actors_no_change',
};

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

    // Someone with the database and another tool removes the guards and rewrites a row: who it names, or what its actor's row says.
    const victim = (await about((await t.call('GET', '/silo/v1/audit?limit=1')).body.list[0].target.id))[0];
    const stored = await db.sqlFirst<{ actor: number }>('SELECT actor FROM audit_log WHERE seq = ?', [victim.seq]);
    const someoneElse = await db.sqlFirst<{ key: number }>('SELECT key FROM audit_actors WHERE key <> ? ORDER BY key LIMIT 1', [stored!.actor]);
    await expect(db.sqlRun("UPDATE audit_actors SET actor_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(db.sqlRun('DELETE FROM audit_actors')).rejects.toThrow(/append-only/);
    const guards = db.dialect === 'postgres' ? [PG_GUARD, PG_ACTORS_GUARD] : [SQLITE_GUARD, SQLITE_ACTORS_GUARD];
    for (const guard of guards) await db.sqlRun(guard.off);
    try {
      await db.sqlRun('UPDATE audit_log SET actor = ? WHERE seq = ?', [someoneElse!.key, victim.seq]);
      expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: false, broken_at: victim.seq });
      await db.sqlRun('UPDATE audit_log SET actor = ? WHERE seq = ?', [stored!.actor, victim.seq]);
      // An actor's row rewritten rewrites every row that names it: the first of them breaks the chain.
      await db.sqlRun("UPDATE audit_actors SET actor_name = 'nobody' WHERE key = ?", [stored!.actor]);
      const first = await db.sqlFirst<{ seq: number }>('SELECT min(seq) AS seq FROM audit_log WHERE company_id = ? AND actor = ?', [company.key, stored!.actor]);
      expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: false, broken_at: Number(first!.seq) });
    } finally {
      await db.sqlRun('UPDATE audit_log SET actor = ? WHERE seq = ?', [stored!.actor, victim.seq]);
      await db.sqlRun('UPDATE audit_actors SET actor_name = ? WHERE key = ?', [victim.actor.name, stored!.actor]);
      for (const guard of guards) await db.sqlRun(guard.on);
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

  it('names each actor once, by key, and reads rows stored with their actor in the row as it always did', async () => {
    const { db } = t.service;
    const made: string[] = [];
    for (const n of [1, 2]) made.push((await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice(`AUDIT-ACTOR-${n}`) })).body.id);
    const stored = await db.sql<Record<string, any>>(
      'SELECT actor_id, actor_name, operation, actor FROM audit_log WHERE company_id = ? AND target_id IN (?, ?) ORDER BY seq',
      [company.key, ...made],
    );
    expect(stored.map(({ actor_id, actor_name, operation }) => ({ actor_id, actor_name, operation }))).toEqual([
      { actor_id: '', actor_name: '', operation: null },
      { actor_id: '', actor_name: '', operation: null },
    ]);
    expect(stored[1].actor).toEqual(stored[0].actor);
    const actors = await db.sql<Record<string, any>>('SELECT key, actor_id, actor_name, operation FROM audit_actors WHERE actor_id = ?', [ownerTokenId]);
    const owners = actors.filter((a) => a.operation === 'createEntry');
    expect(owners).toHaveLength(1);
    expect(Number(owners[0].key)).toBe(Number(stored[0].actor));
    const read = await about(made[0]);
    expect(read[0]).toMatchObject({ via: 'http', actor: { id: ownerTokenId, name: owners[0].actor_name }, operation: 'createEntry' });

    // A row as a build before actors were stored once wrote it: its actor in the row, no key, linked to the last.
    const last = await db.sqlFirst<{ hash: string }>('SELECT hash FROM audit_log WHERE company_id = ? ORDER BY seq DESC LIMIT 1', [company.key]);
    const previous = last!.hash.length === 64 ? last!.hash : Buffer.from(last!.hash, 'base64url').toString('hex');
    const old = ['2026-01-02T03:04:05.000Z', 'http', 'an-old-token', 'clerk (user token)', 'patchEntry', 'entry.changed', 'entry', made[0], '{"title":"old"}'];
    const link = createHash('sha256').update(`${previous}\n${canonicalJson([company.id, ...old])}`).digest('hex');
    await db.tx(
      () => db.sqlRun(
        `INSERT INTO audit_log (company_id, at, via, actor_id, actor_name, operation, action, target_kind, target_id, detail, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [company.key, ...old, link],
      ),
      { origin: 'local' },
    );
    expect((await about(made[0])).at(-1)).toMatchObject({ at: old[0], actor: { id: 'an-old-token', name: 'clerk (user token)' }, operation: 'patchEntry' });
    expect((await t.call('GET', '/silo/v1/audit/verify')).body.ok).toBe(true);
    // and the log goes on from it, keyed again
    const after = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-ACTOR-3') })).body.id;
    expect((await about(after))[0]).toMatchObject({ actor: { id: ownerTokenId }, operation: 'createEntry' });
    expect((await t.call('GET', '/silo/v1/audit/verify')).body.ok).toBe(true);

    // A job's actor names that one job: its rows keep it in the row, and no actor is added for it.
    const actorsBefore = Number((await db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM audit_actors'))!.n);
    const wf = (await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Register', steps: [{ provider: 'silo.state', config: { state: 'registered' } }] })).body;
    const job = (await t.call('POST', '/transform/v1/jobs?wait=20', { workflow_id: wf.id, silo_entry_id: after })).body;
    expect(job.status, JSON.stringify(job)).toBe('OK');
    const byJob = await db.sql<Record<string, any>>(`SELECT actor_id, actor_name, actor FROM audit_log WHERE target_id = ? AND via = 'workflow'`, [after]);
    expect(byJob).toEqual([{ actor_id: job.id, actor_name: 'Workflow “Register”', actor: null }]);
    expect((await about(after)).at(-1)).toMatchObject({ via: 'workflow', actor: { id: job.id, name: 'Workflow “Register”' } });
    expect(Number((await db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM audit_actors'))!.n)).toBe(actorsBefore);
    expect((await t.call('GET', '/silo/v1/audit/verify')).body.ok).toBe(true);
  });

  it("an entry's implied first version names its creator from the actor's key", async () => {
    const id = (await callAs(t, userToken, 'POST', '/silo/v1/entries', { data: oneLineInvoice('AUDIT-ACTOR-V1') })).body.id;
    await t.call('PATCH', `/silo/v1/entries/${id}`, { state: 'sent' });
    // The first version stored as the entry changed, by the trigger, from the log's keyed row.
    const first = await t.service.db.sqlFirst<Record<string, any>>(
      'SELECT via, actor_id, actor_name FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version = 1',
      [company.key, id],
    );
    expect(first).toEqual({ via: 'http', actor_id: expect.any(String), actor_name: 'clerk (user token)' });
    expect(first!.actor_id).not.toBe('');
  });

  it('links every row as it always did: SHA-256 over the previous link in hex, a newline and the row\'s canonical JSON', async () => {
    // Rows of all sorts: an import (no operation named), a PUT with a title beyond ASCII and quotes, a token made.
    await t.call('POST', '/silo/v1/import', { entries: [{ data: oneLineInvoice('AUDIT-LINK-1') }, { data: oneLineInvoice('AUDIT-LINK-2') }] });
    await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: oneLineInvoice('AUDIT-"LINK"-Zürich-東京') });
    await t.call('POST', '/access/v1/tokens', { name: 'link "checker" ✓', kind: 'user' });
    // Each row's actor as stored: in the row (rows stored before 0038), or by key, its texts empty and its operation '' when none.
    const rows = await t.service.db.sql<Record<string, any>>(
      `SELECT l.*, CASE WHEN l.actor IS NULL THEN l.actor_id ELSE a.actor_id END AS actor_id,
         CASE WHEN l.actor IS NULL THEN l.actor_name ELSE a.actor_name END AS actor_name,
         CASE WHEN l.actor IS NULL THEN l.operation WHEN a.operation = '' THEN NULL ELSE a.operation END AS operation
       FROM audit_log l LEFT JOIN audit_actors a ON a.key = l.actor WHERE l.company_id = ? ORDER BY l.seq`,
      [company.key],
    );
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
