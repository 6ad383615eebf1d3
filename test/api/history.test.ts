import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOfCompany } from '../../src-main/core/access/company-key.ts';
import type { Caller } from '../../src-main/core/access/tokens.ts';
import { requireCompany } from '../../src-main/core/access/companies.ts';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';
import { outsideHistory } from '../../src-main/core/silo/audit-actor.ts';
import { commitSlice } from '../../src-main/core/silo/bulk-commit.ts';
import { createEntry, prepareNewEntry } from '../../src-main/core/silo/entries.ts';
import { patchEntry } from '../../src-main/core/silo/patch.ts';
import { recordKeeping } from '../../src-main/core/silo/record-keeping.ts';
import { callService } from '../../src-main/service-process/host.ts';
import { desktopCaller } from '../../src-main/desktop/desktop-caller.ts';
import { callAs, oneLineInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let clerk: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
  const made = (await t.call('POST', '/access/v1/tokens', { name: 'clerk', kind: 'user' })).body;
  clerk = { id: made.id, token: made.token };
});
afterAll(() => t.close());

const versions = async (id: string) => (await t.call('GET', `/silo/v1/entries/${id}/versions?limit=100`)).body;
const version = async (id: string, v: string | number) => (await t.call('GET', `/silo/v1/entries/${id}/versions/${v}`)).body;
const diff = async (id: string, v: string | number, from?: string | number) =>
  (await t.call('GET', `/silo/v1/entries/${id}/versions/${v}/diff${from !== undefined ? `?from=${from}` : ''}`)).body;

/** A built one-line invoice (10 × 100.00, 21 %), stored by the clerk. */
async function created(code: string): Promise<any> {
  const res = await callAs(t, clerk.token, 'POST', '/silo/v1/entries', { data: oneLineInvoice(code) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('entry history', () => {
  it('keeps every version with what changed, who made it and from where; the hosted GET …/versions/{v} answers its envelope', async () => {
    const e = await created('HIST-001');
    const price = await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/json-patch+json',
      data: [{ op: 'replace', path: '/doc/lines/0/item/price', value: '120.00' }, { op: 'remove', path: '/doc/totals' }],
    });
    expect(price.status, JSON.stringify(price.body)).toBe(200);
    const labels = await callAs(t, clerk.token, 'PATCH', `/silo/v1/entries/${e.id}`, { state: 'sent', tags: ['q1'], folder: 'sales-2026' });
    expect(labels.status).toBe(200);

    const list = await versions(e.id);
    expect(list.version).toBe(String(labels.body.version));
    expect(list.list.map((v: any) => [v.version, v.action, v.changed])).toEqual([
      [String(labels.body.version), 'changed', ['state', 'folder', 'tags']],
      [String(price.body.version), 'changed', ['document']],
      ['1', 'created', ['document', 'state', 'folder', 'tags']],
    ]);
    const [third, second, first] = list.list;
    expect(first).toMatchObject({ src: 'http', src_id: clerk.id, actor: { via: 'http', id: clerk.id, name: 'clerk (user token)' }, state: 'draft', tags: [] });
    expect(second.actor).toMatchObject({ via: 'http', name: expect.stringContaining('owner') });
    expect(third).toMatchObject({ state: 'sent', folder: 'sales-2026', tags: ['q1'], signed: false, invalid: false, trashed: false });

    // Each version's envelope, as it was; the hosted shape is {version, data}.
    const v1 = await version(e.id, 1);
    expect(v1.version).toBe('1');
    expect(v1.data.doc.lines[0].item.price).toBe('100.00');
    expect(v1.data.doc.totals.payable).toBe('1210.00');
    expect((await version(e.id, second.version)).data.doc.totals.payable).toBe('1452.00');
    expect((await version(e.id, third.version)).data).toEqual((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.data);
    expect((await t.call('GET', `/silo/v1/entries/${e.id}/versions/76f845c125`)).status).toBe(404);
    expect((await t.call('GET', `/silo/v1/entries/${e.id}/versions/999`)).status).toBe(404);
  });

  it('diffs two versions by JSON path, before and after, with money figures marked by currency and labels apart', async () => {
    const e = await created('HIST-DIFF');
    const changed = (await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/json-patch+json',
      data: [{ op: 'replace', path: '/doc/lines/0/quantity', value: '12' }, { op: 'remove', path: '/doc/totals' }],
      state: 'sent',
    })).body;
    const d = await diff(e.id, changed.version);
    expect(d.from.version).toBe('1');
    expect(d.to.version).toBe(String(changed.version));
    const at = (path: string) => d.changes.find((c: any) => c.path === path);
    expect(at('state')).toEqual({ path: 'state', kind: 'changed', before: 'draft', after: 'sent' });
    expect(at('$.doc.lines[0].quantity')).toEqual({ path: '$.doc.lines[0].quantity', kind: 'changed', before: '10', after: '12' });
    expect(at('$.doc.lines[0].sum')).toEqual({ path: '$.doc.lines[0].sum', kind: 'changed', before: '1000.00', after: '1200.00', currency: 'EUR' });
    expect(at('$.doc.totals.payable')).toMatchObject({ before: '1210.00', after: '1452.00', currency: 'EUR' });
    // The digest follows the document: it is not a change worth reading.
    expect(d.changes.some((c: any) => c.path.startsWith('$.head.dig'))).toBe(false);
    // The first version compares with nothing; an explicit `from` compares any two.
    expect((await diff(e.id, 1)).changes.every((c: any) => c.kind === 'added')).toBe(true);
    expect((await diff(e.id, 1, changed.version)).changes.find((c: any) => c.path === '$.doc.lines[0].quantity')).toMatchObject({ before: '12', after: '10' });
    expect((await t.call('GET', `/silo/v1/entries/${e.id}/versions/1/diff?from=1`)).status).toBe(400);
  });

  it('restores a past version as a new version; history is never rewritten', async () => {
    const e = await created('HIST-RESTORE');
    const edited = (await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/merge-patch+json',
      data: { doc: { code: 'HIST-RESTORE-EDITED' } },
      tags: ['edited'],
    })).body;
    const restored = await t.call('POST', `/silo/v1/entries/${e.id}/versions/1/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(Number(restored.body.version)).toBe(Number(edited.version) + 1);
    expect(restored.body.data.doc.code).toBe('HIST-RESTORE');
    expect(restored.body.digest).toEqual(e.digest);
    expect(restored.body.tags).toEqual([]);

    const list = (await versions(e.id)).list;
    expect(list.map((v: any) => v.action)).toEqual(['reverted', 'changed', 'created']);
    expect(list[0]).toMatchObject({ reverted_from: '1', changed: ['document', 'tags'] });
    // The version it replaced is still there, whole.
    expect((await version(e.id, edited.version)).data.doc.code).toBe('HIST-RESTORE-EDITED');
    // Restoring what the entry already is changes nothing.
    expect((await t.call('POST', `/silo/v1/entries/${e.id}/versions/1/restore`)).body.version).toBe(restored.body.version);
  });

  it('a signed entry keeps its document: only a version with the same document (its labels) can be restored', async () => {
    const e = await created('HIST-SIGNED');
    const signed = (await t.call('PATCH', `/silo/v1/entries/${e.id}`, { sign: true })).body;
    expect(signed.signed).toBe(true);
    const tagged = (await t.call('PATCH', `/silo/v1/entries/${e.id}`, { tags: ['archived'] })).body;

    // Version 1 is the same document unsigned: its labels come back, the signature stays.
    const back = await t.call('POST', `/silo/v1/entries/${e.id}/versions/1/restore`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ signed: true, tags: [], state: 'draft', digest: signed.digest });
    expect(back.body.data.sigs).toEqual(signed.data.sigs);
    expect(Number(tagged.version)).toBeLessThan(Number(back.body.version));

    // A version holding another document cannot come back over a signature.
    const other = await created('HIST-SIGNED-2');
    await t.call('PATCH', `/silo/v1/entries/${other.id}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'HIST-SIGNED-2B' } } });
    await t.call('PATCH', `/silo/v1/entries/${other.id}`, { sign: true });
    const refused = await t.call('POST', `/silo/v1/entries/${other.id}/versions/1/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('signed');
  });

  it('records versions whichever path wrote them: import, the desktop window (ipc), a workflow step, the trash', async () => {
    const id = uuidv7();
    const imported = await t.call('POST', '/silo/v1/import', { entries: [{ id, data: oneLineInvoice('HIST-IMPORT') }] });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect((await versions(id)).list).toEqual([expect.objectContaining({ version: '1', action: 'created', actor: expect.objectContaining({ via: 'http' }) })]);

    const session = await t.call('GET', '/access/v1/session');
    const desktop = await desktopCaller(t.service.db, await requireCompany(t.service.db, session.body.company.id));
    await callService(t.service, desktop, 'patchEntry', { params: { id }, body: { state: 'received' } });

    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Mark paid', steps: [{ provider: 'silo.state', config: { state: 'paid' } }] });
    const job = await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: wf.body.id, silo_entry_id: id });
    expect(job.body.status, JSON.stringify(job.body)).toBe('OK');

    await t.call('DELETE', `/silo/v1/entries/${id}`);
    const trashedList = (await versions(id)).list;
    // Versions stay readable while the entry waits in the trash; it cannot be reverted there.
    expect((await t.call('POST', `/silo/v1/entries/${id}/versions/1/restore`)).status).toBe(409);
    await t.call('POST', `/silo/v1/entries/${id}/restore`);

    const list = (await versions(id)).list.reverse();
    expect(list.map((v: any) => [v.action, v.actor.via])).toEqual([
      ['created', 'http'],
      ['changed', 'ipc'],
      ['changed', 'workflow'],
      ['trashed', 'http'],
      ['restored', 'http'],
    ]);
    expect(trashedList[0]).toMatchObject({ action: 'trashed', trashed: true, changed: ['trash'] });
    expect(list[1].actor).toEqual({ via: 'ipc', id: 'desktop', name: 'Desktop app' });
    // The step's change is the workflow's (named by its job), never the token's that queued the job.
    expect(list[2]).toMatchObject({ state: 'paid', actor: { via: 'workflow', id: job.body.id, name: 'Workflow “Mark paid”' } });
  });

  it('a write that changes nothing history tracks (a signature) is kept without a version; with another write in its transaction, the version is kept', async () => {
    const logged = async (id: string) => (await t.call('GET', `/silo/v1/audit?limit=100&target_id=${id}`)).body.list.length;
    const e = await created('HIST-SEAL');
    const before = (await versions(e.id)).list;
    const logBefore = await logged(e.id);
    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Seal', steps: [{ provider: 'silo.close' }] });
    const job = await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: wf.body.id, silo_entry_id: e.id });
    expect(job.body.status, JSON.stringify(job.body)).toBe('OK');
    const sealed = (await t.call('GET', `/silo/v1/entries/${e.id}`)).body;
    expect(sealed.data.sigs).toHaveLength(1);
    expect(Number(sealed.version)).toBeGreaterThan(Number(e.version));
    expect((await versions(e.id)).list).toEqual(before);
    expect(await logged(e.id)).toBe(logBefore);

    // A write said to be outside history is kept without looking history up (the flag is taken at its word,
    // which is why only writeEntryChange, knowing the columns it sets, says it). Written in the same
    // transaction as a write that says nothing, in either order, the entry's version is kept.
    const { db } = t.service;
    const companyKey = (await companyKeyOf(db, (await t.call('GET', '/access/v1/session')).body.company.id))!;
    const setState = (state: string) => db.sqlRun('UPDATE entries SET state = ?, version = version + 1 WHERE company_id = ? AND id = ?', [state, companyKey, e.id]);
    const setFolder = (folder: string) => outsideHistory(db, () => db.sqlRun('UPDATE entries SET folder = ?, version = version + 1 WHERE company_id = ? AND id = ?', [folder, companyKey, e.id]));
    await db.tx(() => setFolder('unseen'), { origin: LOCAL });
    expect((await versions(e.id)).list).toEqual(before);
    await db.tx(async () => {
      await setState('sent');
      await setFolder('filed');
    }, { origin: LOCAL });
    await db.tx(async () => {
      await setFolder('archive');
      await setState('paid');
    }, { origin: LOCAL });
    const list = (await versions(e.id)).list;
    expect(list.slice(0, 2).map((v: any) => [v.action, v.changed, v.state, v.folder])).toEqual([
      ['changed', ['state', 'folder'], 'paid', 'archive'],
      ['changed', ['state', 'folder'], 'sent', 'filed'],
    ]);
    expect(list.slice(2)).toEqual(before);
  });

  it('an entry that never changed stores no version: its first is implied by it and the log, and stored as it was by its first change', async () => {
    const stored = async (id: string) =>
      Number((await t.service.db.sql<{ n: number | string }>('SELECT count(*) AS n FROM entry_versions WHERE entry_id = ?', [id]))[0].n);
    const e = await created('HIST-LAZY');
    expect(await stored(e.id)).toBe(0);
    const implied = (await versions(e.id)).list;
    expect(implied).toEqual([
      expect.objectContaining({ version: '1', action: 'created', changed: ['document', 'state', 'folder', 'tags'], state: 'draft', signed: false, actor: { via: 'http', id: clerk.id, name: 'clerk (user token)' } }),
    ]);
    expect((await version(e.id, 1)).data).toEqual((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.data);
    expect((await t.call('GET', `/silo/v1/entries/${e.id}/versions/2`)).status).toBe(404);

    const patched = await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/json-patch+json',
      data: [{ op: 'replace', path: '/doc/lines/0/item/price', value: '90.00' }, { op: 'remove', path: '/doc/totals' }],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await stored(e.id)).toBe(2);
    const list = (await versions(e.id)).list;
    expect(list.map((v: any) => [v.version, v.action])).toEqual([[String(patched.body.version), 'changed'], ['1', 'created']]);
    // Stored by the change exactly as it was implied, with the document it replaced.
    expect(list[1]).toEqual(implied[0]);
    expect((await version(e.id, 1)).data.doc.lines[0].item.price).toBe('100.00');
  });

  it('an entry created and changed in one transaction, or purged and its id used again, has one creation on record each time', async () => {
    const { db } = t.service;
    const session = (await t.call('GET', '/access/v1/session')).body;
    const ctx = { service: t.service, caller: { companyKey: (await companyKeyOf(db, session.company.id))!, companyId: session.company.id, kind: 'owner' as const } };
    const creations = async (id: string) => (await t.call('GET', `/silo/v1/audit?limit=100&target_id=${id}`)).body.list.filter((r: any) => r.action === 'entry.created');
    // Stored by an import's slice and changed in that same write scope: kept once, as the scope leaves it.
    const id = uuidv7();
    const prepared = [{ index: 0, p: await prepareNewEntry(ctx, id, { data: oneLineInvoice('HIST-ONE-TX') }) }];
    await db.tx(async () => {
      await commitSlice(ctx, prepared, 'store', new Map());
      await db.sqlRun(`UPDATE entries SET state = 'sent' WHERE company_id = ? AND id = ?`, [ctx.caller.companyKey, id]);
    }, { origin: LOCAL });
    expect(await creations(id)).toHaveLength(1);
    expect((await versions(id)).list.map((v: any) => [v.version, v.action, v.state])).toEqual([['1', 'created', 'sent']]);
    // Stored by a slice and changed by a write with a scope of its own inside it: that scope puts the creation on record, the slice's none.
    const nested = uuidv7();
    const slice = [{ index: 0, p: await prepareNewEntry(ctx, nested, { data: oneLineInvoice('HIST-NESTED') }) }];
    await db.tx(async () => {
      await commitSlice(ctx, slice, 'store', new Map());
      await patchEntry(ctx, nested, { content_type: 'application/json', folder: 'filed' });
    }, { origin: LOCAL });
    expect(await creations(nested)).toHaveLength(1);
    expect((await versions(nested)).list.map((v: any) => [v.action, v.folder])).toEqual([['created', 'filed']]);
    // Created in a scope inside the transaction, then changed: each is on record once, in order.
    const other = uuidv7();
    await db.tx(async () => {
      await createEntry(ctx, other, { data: oneLineInvoice('HIST-TWO-SCOPES') });
      await patchEntry(ctx, other, { content_type: 'application/json', state: 'sent' });
    }, { origin: LOCAL });
    expect(await creations(other)).toHaveLength(1);
    expect((await versions(other)).list.map((v: any) => [v.version, v.action, v.state])).toEqual([['2', 'changed', 'sent'], ['1', 'created', 'draft']]);

    await t.call('DELETE', `/silo/v1/entries/${id}`);
    expect((await t.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id }] })).body.purged).toBe(1);
    const again = await callAs(t, clerk.token, 'PUT', `/silo/v1/entries/${id}`, { data: oneLineInvoice('HIST-AGAIN') });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await creations(id)).toHaveLength(2);
    expect((await versions(id)).list).toEqual([expect.objectContaining({ version: '1', action: 'created', state: 'draft', actor: expect.objectContaining({ id: clerk.id }) })]);
  });

  it('many records kept at once, of two companies, are on record as one at a time would put them: each writer named, each log chained', async () => {
    const { db } = t.service;
    const a = (await t.call('GET', '/access/v1/session')).body.company.id;
    const otherToken = (await t.call('POST', '/access/v1/companies', { name: 'History Batch Co' })).body.owner_token;
    const b = (await callAs(t, otherToken, 'GET', '/access/v1/session')).body.company.id;
    // Writers with neither a token nor the window: a change is put down to the job open on its entry, if any.
    const owners: Record<string, Caller> = { [a]: await ownerOfCompany(db, a), [b]: await ownerOfCompany(db, b) };
    const keyOfA = owners[a].companyKey;
    const ctxOf = (companyId: string) => ({ service: t.service, caller: owners[companyId] });
    const slice = async (companyId: string, codes: string[]) => {
      const ctx = ctxOf(companyId);
      const prepared = [];
      for (const [index, code] of codes.entries()) prepared.push({ index, p: await prepareNewEntry(ctx, uuidv7(), { data: oneLineInvoice(code) }) });
      return prepared;
    };
    const inA = await slice(a, ['HIST-BATCH-1', 'HIST-BATCH-2', 'HIST-BATCH-3', 'HIST-BATCH-4']);
    await db.tx(() => commitSlice(ctxOf(a), inA, 'store', new Map()), { origin: LOCAL });
    const ids = inA.map((i) => i.p.id);
    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Held', steps: [{ provider: 'silo.state', config: { state: 'paid' } }] });
    const jobs = [uuidv7(), uuidv7()];
    // Open on the first and third entries, and never run (due in a distant future).
    for (const [n, entry] of [ids[0], ids[2]].entries()) {
      await db.sqlRun(
        `INSERT INTO jobs (id, company_id, workflow_id, workflow_version, silo_entry_id, status, tags, args, faults, request_hash, run_at, created_at, updated_at)
         VALUES (?, ?, ?, 1, ?, 'QUEUED', '[]', '{}', '[]', 'h', ?, ?, ?)`,
        [jobs[n], keyOfA, wf.body.id, entry, 9_000_000_000_000, new Date().toISOString(), new Date().toISOString()],
      );
    }
    const send = (...which: string[]) => db.sqlRun(`UPDATE entries SET state = 'sent' WHERE company_id = ? AND id IN (${which.map(() => '?').join(', ')})`, [keyOfA, ...which]);
    try {
      // Two changes and another company's slice in one transaction, kept together as it ends...
      const inB = await slice(b, ['HIST-BATCH-B1', 'HIST-BATCH-B2', 'HIST-BATCH-B3']);
      await db.tx(async () => {
        await send(ids[0], ids[1]);
        await commitSlice(ctxOf(b), inB, 'store', new Map());
      }, { origin: LOCAL });
      // ...and the same two changes one transaction each.
      await db.tx(() => send(ids[2]), { origin: LOCAL });
      await db.tx(() => send(ids[3]), { origin: LOCAL });
    } finally {
      await db.sqlRun(`UPDATE jobs SET completed_at = ? WHERE company_id = ? AND id IN (?, ?)`, [new Date().toISOString(), keyOfA, ...jobs]);
    }
    const changes = async (id: string) => (await t.call('GET', `/silo/v1/audit?limit=100&target_id=${id}`)).body.list.filter((r: any) => r.action === 'entry.changed');
    // What was kept of an entry, less what differs between the two documents; either job is `JOB`.
    const kept = async (id: string) =>
      JSON.parse(
        JSON.stringify({
          log: (await changes(id)).map((r: any) => ({ via: r.via, actor: r.actor, detail: { ...r.detail, title: undefined } })),
          versions: (await versions(id)).list.map((v: any) => ({ ...v, at: undefined, digest: undefined })),
        }).replaceAll(jobs[0], 'JOB').replaceAll(jobs[1], 'JOB'),
      );
    expect((await changes(ids[0]))[0]).toMatchObject({ via: 'workflow', actor: { id: jobs[0], name: 'Workflow “Held”' } });
    expect((await changes(ids[2]))[0]).toMatchObject({ via: 'workflow', actor: { id: jobs[1], name: 'Workflow “Held”' } });
    expect((await changes(ids[1]))[0]).toMatchObject({ via: 'workflow', actor: { id: 'workflow', name: 'Workflow' } });
    const together = [await kept(ids[0]), await kept(ids[1])];
    expect(together).toEqual([await kept(ids[2]), await kept(ids[3])]);
    expect(together[1].versions.map((v: any) => [v.version, v.action, v.state])).toEqual([['2', 'changed', 'sent'], ['1', 'created', 'draft']]);
    // Each company's log follows link by link, and goes on doing so after another transaction.
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true });
    expect((await callAs(t, otherToken, 'GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true });
    expect((await callAs(t, otherToken, 'GET', '/silo/v1/audit?limit=100&action=entry.created')).body.list).toHaveLength(3);
    await db.tx(() => commitSlice(ctxOf(b), [], 'store', new Map()), { origin: LOCAL });
    const more = await slice(b, ['HIST-BATCH-B4', 'HIST-BATCH-B5']);
    await db.tx(() => commitSlice(ctxOf(b), more, 'store', new Map()), { origin: LOCAL });
    expect((await callAs(t, otherToken, 'GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true, count: expect.any(Number) });
  });

  it('answers only the caller company\'s entries', async () => {
    const e = await created('HIST-WALL');
    const other = (await t.call('POST', '/access/v1/companies', { name: 'History Wall Co' })).body.owner_token;
    expect((await callAs(t, other, 'GET', `/silo/v1/entries/${e.id}/versions`)).status).toBe(404);
    expect((await callAs(t, other, 'GET', `/silo/v1/entries/${e.id}/versions/1`)).status).toBe(404);
    expect((await callAs(t, other, 'POST', `/silo/v1/entries/${e.id}/versions/1/restore`)).status).toBe(404);
  });

  it('a data folder from before history: every entry gets its first version, holding the document it has now', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-history-mig-'));
    const sqlite = openSqlite(join(dir, 'silodesk.db'));
    try {
      const db = sqliteDb(sqlite, recordKeeping);
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0013'));
      await migrateToLatest(sqlite, db.q, join(dir, 'backups'), before);
      sqlite.prepare(`INSERT INTO companies VALUES ('c1', 'Acme', 'x', 'x')`).run();
      const insert = sqlite.prepare(`INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid,
        env_schema, digest_alg, digest_val, snippet, tags, faults, data, request_hash, version, created_at, updated_at)
        VALUES (?, 'c1', NULL, 'invoices', ?, '', 1, 0, 0, 'https://gobl.org/draft-0/bill/invoice', NULL, 'https://gobl.org/draft-0/envelope',
        'sha256', ?, '{}', '["old"]', '[]', ?, 'h', ?, '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z')`);
      insert.run('e1', 'draft', 'd1', '{"doc":{"code":"OLD-1"}}', 1);
      insert.run('e2', 'sent', 'd2', '{"doc":{"code":"OLD-2"}}', 4);

      const { applied } = await migrateToLatest(sqlite, db.q, join(dir, 'backups'));
      // Later migrations may follow; this one is the first to run on such a folder.
      expect(applied[0]).toBe('0013_trash_history_audit');
      const rows = sqlite.prepare('SELECT entry_id, version, action, state, tags, data, via FROM entry_versions ORDER BY entry_id').all();
      expect(rows).toEqual([
        { entry_id: 'e1', version: 1, action: 'created', state: 'draft', tags: '["old"]', data: null, via: 'system' },
        { entry_id: 'e2', version: 4, action: 'recorded', state: 'sent', tags: '["old"]', data: null, via: 'system' },
      ]);
      // The folder and tag counts still count both (nothing is in the trash yet).
      // 0031_company_keys ran after it: company c1's rows are stored under its key.
      expect(sqlite.prepare(`SELECT count FROM entry_folder_counts WHERE company_id = ? AND folder = 'invoices'`).get(await companyKeyOf(db, 'c1'))).toEqual({ count: 2 });
      // A later change keeps the document it replaces in the version that held it.
      await db.tx(() => db.sqlRun(`UPDATE entries SET data = '{"doc":{"code":"NEW-2"}}', version = 5 WHERE id = 'e2'`), { origin: 'local' });
      expect(sqlite.prepare(`SELECT data FROM entry_versions WHERE entry_id = 'e2' AND version = 4`).get()).toEqual({ data: '{"doc":{"code":"OLD-2"}}' });
    } finally {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
