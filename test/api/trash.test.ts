import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src-main/core/silo/trash-purge.ts';
import { requireCompany } from '../../src-main/core/access/companies.ts';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { desktopCaller } from '../../src-main/desktop/desktop-caller.ts';
import { callService } from '../../src-main/service-process/host.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { csvObjects, download, textOf } from './exports-helpers.ts';
import { callAs } from './gobl-helpers.ts';
import { atOnce, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let userToken: string;
let otherCompanyToken: string;

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
  userToken = (await t.call('POST', '/access/v1/tokens', { name: 'clerk', kind: 'user' })).body.token;
  otherCompanyToken = (await t.call('POST', '/access/v1/companies', { name: 'Other Co' })).body.owner_token;
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60_000;

/**
 * Makes every entry deleted from the database take at least `ms` more, so a purge
 * of 100 spans several time slices however fast the machine; answers how to undo it.
 * SQLite: a TEMP trigger of this connection calling a function that waits; PostgreSQL:
 * a trigger on the suite's own database calling pg_sleep.
 */
async function slowDeletes(ms: number): Promise<() => Promise<void>> {
  const { db } = t.service;
  if (db.dialect === 'postgres') {
    await db.sqlRun(`CREATE FUNCTION slow_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(${ms / 1000}); RETURN OLD; END $$`);
    await db.sqlRun('CREATE TRIGGER slow_delete AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION slow_delete()');
    return async () => {
      await db.sqlRun('DROP TRIGGER slow_delete ON entries');
      await db.sqlRun('DROP FUNCTION slow_delete()');
    };
  }
  const sqlite = db.sqlite!;
  sqlite.function('test_wait', () => {
    const until = performance.now() + ms;
    while (performance.now() < until);
    return 0;
  });
  sqlite.exec('CREATE TEMP TRIGGER slow_delete AFTER DELETE ON main.entries BEGIN SELECT test_wait(); END');
  return async () => void sqlite.exec('DROP TRIGGER temp.slow_delete');
}

/** An invoice of its own (own uuid, own code), in its own folder and tag so counts can be read. */
async function invoice(code: string, extra: Record<string, unknown> = {}): Promise<any> {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = uuidv7();
  envelope.doc.code = code;
  const res = await t.call('POST', '/silo/v1/entries', { data: envelope, folder: `F-${code}`, tags: [`t-${code}`], ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const inList = async (id: string, query = '') => ((await t.call('GET', `/silo/v1/entries?limit=100${query}`)).body.list as any[]).some((e) => e.id === id);
const trashList = async (token = t.token) => (await callAs(t, token, 'GET', '/silo/v1/trash?limit=100')).body;
const folderCount = async (folder: string) => ((await t.call('GET', '/silo/v1/folders')).body.list as any[]).find((f) => f.folder === folder)?.count ?? 0;
const tagCount = async (tag: string) => ((await t.call('GET', '/silo/v1/tags')).body.list as any[]).find((f) => f.tag === tag)?.count ?? 0;


describe('the trash', () => {
  it('DELETE moves an entry out of lists, search, related, sums, counts and exports; restore brings it back everywhere', async () => {
    const inv = await invoice('TRASH-001');
    const credit = await t.call('POST', '/silo/v1/entries', { previous_id: inv.id, correct: { type: 'credit-note', reason: 'Returned', ext: { 'es-facturae-correction': '01' } } });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
    const related = async () => ((await t.call('GET', `/silo/v1/entries/${credit.body.id}/related`)).body.list as any[]).map((e) => e.id);
    const searchHits = async () => ((await t.call('GET', '/silo/v1/search?q=TRASH-001')).body.list as any[]).map((e) => e.id);
    const sums = async () => (await t.call('GET', `/silo/v1/entry-sums?folder=F-TRASH-001`)).body.count;
    const csvIds = async () => csvObjects(textOf((await download(t, '/silo/v1/exports/csv', { folder: 'F-TRASH-001' })).bytes)).map((r) => r.entry_id);
    const sorted = async () => ((await t.call('GET', '/silo/v1/entries?sort=total&limit=100')).body.list as any[]).some((e) => e.id === inv.id);

    expect(await inList(inv.id)).toBe(true);
    expect(await related()).toContain(inv.id);
    expect(await searchHits()).toContain(inv.id);
    expect(await sums()).toBe(1);
    expect(await csvIds()).toEqual([inv.id]);
    expect(await folderCount('F-TRASH-001')).toBe(1);
    expect(await tagCount('t-TRASH-001')).toBe(1);

    const del = await t.call('DELETE', `/silo/v1/entries/${inv.id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ kind: 'entry', id: inv.id, entry_id: inv.id, number: 'TRASH-001', folder: 'F-TRASH-001', trashed_by: { via: 'http' } });
    expect(Date.parse(del.body.purge_at) - Date.parse(del.body.trashed_at)).toBe(30 * DAY);

    expect((await t.call('GET', `/silo/v1/entries/${inv.id}`)).status).toBe(404);
    expect(await inList(inv.id)).toBe(false);
    expect(await inList(inv.id, '&folder=F-TRASH-001')).toBe(false);
    expect(await sorted()).toBe(false);
    expect(await related()).not.toContain(inv.id);
    expect(await searchHits()).not.toContain(inv.id);
    expect(await sums()).toBe(0);
    expect(await csvIds()).toEqual([]);
    expect(await folderCount('F-TRASH-001')).toBe(0);
    expect(await tagCount('t-TRASH-001')).toBe(0);
    expect((await trashList()).list.map((i: any) => i.id)).toContain(inv.id);
    // Trashing again answers the same item.
    expect((await t.call('DELETE', `/silo/v1/entries/${inv.id}`)).body.trashed_at).toBe(del.body.trashed_at);

    const back = await t.call('POST', `/silo/v1/entries/${inv.id}/restore`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ id: inv.id, folder: 'F-TRASH-001', tags: ['t-TRASH-001'], digest: inv.digest });
    expect(await inList(inv.id)).toBe(true);
    expect(await sorted()).toBe(true);
    expect(await related()).toContain(inv.id);
    expect(await searchHits()).toContain(inv.id);
    expect(await sums()).toBe(1);
    expect(await csvIds()).toEqual([inv.id]);
    expect(await folderCount('F-TRASH-001')).toBe(1);
    expect(await tagCount('t-TRASH-001')).toBe(1);
    expect((await trashList()).list.map((i: any) => i.id)).not.toContain(inv.id);
  });

  it('an entry in the trash cannot be changed, looked up by key, or taken over by a new entry under its id or key', async () => {
    const inv = await invoice('TRASH-002', { key: 'erp-trash-002' });
    await t.call('PUT', `/silo/v1/entries/${inv.id}/files/note.txt`, { name: 'note.txt', data: Buffer.from('kept').toString('base64') });
    expect((await t.call('DELETE', `/silo/v1/entries/${inv.id}`)).status).toBe(200);

    expect((await t.call('PATCH', `/silo/v1/entries/${inv.id}`, { state: 'sent' })).status).toBe(404);
    expect((await t.call('PUT', `/silo/v1/entries/${inv.id}/meta/erp`, { src: 'erp', value: 1 })).status).toBe(404);
    expect((await t.call('PUT', `/silo/v1/entries/${inv.id}/files/more.txt`, { name: 'more.txt', data: 'eA==' })).status).toBe(404);
    expect((await t.call('GET', `/silo/v1/entries/${inv.id}/files/note.txt`)).status).toBe(404);
    expect((await t.call('GET', '/silo/v1/entries/key/erp-trash-002')).status).toBe(404);
    const again = await t.call('PUT', `/silo/v1/entries/${inv.id}`, { data: inv.data ?? (await t.call('GET', `/silo/v1/entries/${inv.id}/versions/1`)).body.data });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('trash');
    const sameKey = await t.call('POST', '/silo/v1/entries', { data: { ...loadEnvelope('es-invoice-es-es.json').doc, uuid: uuidv7(), code: 'TRASH-002B' }, key: 'erp-trash-002' });
    expect(sameKey.status).toBe(409);

    // Restored, it has its file, its key and its labels back.
    const back = (await t.call('POST', `/silo/v1/entries/${inv.id}/restore`)).body;
    expect(back.attachments.map((a: any) => a.id)).toEqual(['note.txt']);
    expect((await t.call('GET', '/silo/v1/entries/key/erp-trash-002')).body.id).toBe(inv.id);
    // Restoring a live entry answers it as it is.
    expect((await t.call('POST', `/silo/v1/entries/${inv.id}/restore`)).body.version).toBe(back.version);
  });

  it('a signed document can be trashed and restored, and stays exactly as it was signed', async () => {
    const signed = await invoice('TRASH-SIGNED', { sign: true });
    expect(signed.signed).toBe(true);
    const full = (await t.call('GET', `/silo/v1/entries/${signed.id}`)).body;
    expect((await t.call('DELETE', `/silo/v1/entries/${signed.id}`)).body).toMatchObject({ signed: true });
    const back = (await t.call('POST', `/silo/v1/entries/${signed.id}/restore`)).body;
    expect(back.signed).toBe(true);
    expect(back.data).toEqual(full.data);
    expect(back.digest).toEqual(full.digest);
  });

  it('trashing or restoring an entry twice at once answers the same twice, and history keeps one version of each', async () => {
    const inv = await invoice('TRASH-TWICE');
    const desktop = await desktopCaller(t.service.db, await requireCompany(t.service.db, (await t.call('GET', '/access/v1/session')).body.company.id));
    const twice = (name: string) => atOnce(t.service, [0, 1].map(() => () => callService(t.service, desktop, name, { params: { id: inv.id } }) as Promise<any>));
    const trashed = await twice('trashEntry');
    expect(trashed[1]).toEqual(trashed[0]);
    expect(trashed[0]).toMatchObject({ kind: 'entry', id: inv.id });
    const restored = await twice('restoreEntry');
    expect(restored[1].version).toBe(restored[0].version);
    const actions = ((await t.call('GET', `/silo/v1/entries/${inv.id}/versions?limit=100`)).body.list as any[]).map((v) => v.action);
    expect(actions).toEqual(['restored', 'trashed', 'created']);
  });

  it('DELETE of a file moves it to the trash; restore puts the same bytes back; a new file under its id is never overwritten', async () => {
    const inv = await invoice('TRASH-FILE');
    const bytes = Buffer.from('%PDF-1.4 a scan');
    const put = await t.call('PUT', `/silo/v1/entries/${inv.id}/files/scan.pdf`, { name: 'Scan 2026-03-14 10_30.pdf', mime: 'application/pdf', data: bytes.toString('base64') });
    expect(put.status).toBe(200);

    const del = await t.call('DELETE', `/silo/v1/entries/${inv.id}/files/scan.pdf`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ kind: 'file', entry_id: inv.id, file_id: 'scan.pdf', name: 'Scan 2026-03-14 10_30.pdf', mime: 'application/pdf', size: bytes.length, number: 'TRASH-FILE' });
    expect((await t.call('GET', `/silo/v1/entries/${inv.id}`)).body.attachments).toEqual([]);
    expect((await t.call('GET', `/silo/v1/entries/${inv.id}/files/scan.pdf`)).status).toBe(404);
    expect((await trashList()).list.map((i: any) => i.id)).toContain(del.body.id);
    expect((await t.call('DELETE', `/silo/v1/entries/${inv.id}/files/scan.pdf`)).status).toBe(404);

    const back = await t.call('POST', `/silo/v1/entries/${inv.id}/files/scan.pdf/restore`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ id: 'scan.pdf', name: 'Scan 2026-03-14 10_30.pdf', hash: put.body.hash, created_at: put.body.created_at });
    const file = await fetch(`${t.url}/silo/v1/entries/${inv.id}/files/scan.pdf`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);

    // Trashed again, then another file put under the id: the trashed one waits, it does not overwrite.
    await t.call('DELETE', `/silo/v1/entries/${inv.id}/files/scan.pdf`);
    await t.call('PUT', `/silo/v1/entries/${inv.id}/files/scan.pdf`, { name: 'other.pdf', data: Buffer.from('other').toString('base64') });
    const clash = await t.call('POST', `/silo/v1/entries/${inv.id}/files/scan.pdf/restore`);
    expect(clash.status).toBe(409);
    expect((await t.call('GET', `/silo/v1/entries/${inv.id}`)).body.attachments[0].name).toBe('other.pdf');
  });

  it('keeps what is trashed for the retention the owner sets, then the purge deletes it for good (files, versions, bytes)', async () => {
    expect((await t.call('GET', '/silo/v1/trash/settings')).body).toEqual({ retention_days: 30 });
    expect((await callAs(t, userToken, 'PUT', '/silo/v1/trash/settings', { retention_days: 7 })).status).toBe(403);
    expect((await t.call('PUT', '/silo/v1/trash/settings', { retention_days: 0 })).status).toBe(422);
    expect((await t.call('PUT', '/silo/v1/trash/settings', { retention_days: 7 })).body).toEqual({ retention_days: 7 });

    const inv = await invoice('TRASH-PURGE');
    const only = Buffer.from(`bytes only this entry holds ${uuidv7()}`);
    const put = await t.call('PUT', `/silo/v1/entries/${inv.id}/files/only.txt`, { name: 'only.txt', data: only.toString('base64') });
    const del = (await t.call('DELETE', `/silo/v1/entries/${inv.id}`)).body;
    expect(Date.parse(del.purge_at) - Date.parse(del.trashed_at)).toBe(7 * DAY);

    // Six days on, it is still there; eight days on, the daily purge takes it.
    expect(await purgeExpired(t.service, Date.now() + 6 * DAY)).toBe(0);
    expect((await trashList()).list.map((i: any) => i.id)).toContain(inv.id);
    // (bytes written within the hour stay: a sync may be linking them; make this file look old)
    const { utimesSync } = await import('node:fs');
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(t.service.blobs.pathOf(put.body.hash), old, old);
    expect(await purgeExpired(t.service, Date.now() + 8 * DAY)).toBeGreaterThanOrEqual(1);

    expect((await trashList()).list.map((i: any) => i.id)).not.toContain(inv.id);
    expect((await t.call('POST', `/silo/v1/entries/${inv.id}/restore`)).status).toBe(404);
    expect((await t.call('GET', `/silo/v1/entries/${inv.id}/versions`)).status).toBe(404);
    expect(await t.service.blobs.holds(put.body.hash)).toBe(false);
    const purged = (await t.call('GET', `/silo/v1/audit?target_id=${inv.id}&action=entry.purged`)).body.list;
    expect(purged).toEqual([expect.objectContaining({ via: 'system', actor: { id: 'trash-retention', name: 'Trash retention' } })]);
    await t.call('PUT', '/silo/v1/trash/settings', { retention_days: 30 });
  });

  it('purge now: the owner empties the trash or purges the items named (all or none); others may not', async () => {
    const a = await invoice('TRASH-NOW-A');
    const b = await invoice('TRASH-NOW-B');
    await t.call('DELETE', `/silo/v1/entries/${a.id}`);
    await t.call('DELETE', `/silo/v1/entries/${b.id}`);

    expect((await callAs(t, userToken, 'POST', '/silo/v1/trash/purge', {})).status).toBe(403);
    const unknown = await t.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: a.id }, { kind: 'entry', id: uuidv7() }] });
    expect(unknown.status).toBe(404);
    expect((await trashList()).list.map((i: any) => i.id)).toEqual(expect.arrayContaining([a.id, b.id]));

    expect((await t.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: a.id }] })).body).toEqual({ purged: 1 });
    expect((await trashList()).list.map((i: any) => i.id)).not.toContain(a.id);
    const all = (await t.call('POST', '/silo/v1/trash/purge', {})).body;
    expect(all.purged).toBeGreaterThanOrEqual(1);
    expect((await trashList()).list).toEqual([]);
  });

  it('purges a big trash a time slice per transaction, named or not: requests are answered meanwhile and see it shrink', async () => {
    // in a company of its own, so the other tests' trash is not part of it
    const created = (await t.call('POST', '/access/v1/companies', { name: 'Big Trash Co' })).body;
    const company = created.owner_token as string;
    const entries = Array.from({ length: 300 }, (_, i) => {
      const envelope = loadEnvelope('es-invoice-es-es.json');
      envelope.head.uuid = uuidv7();
      envelope.doc.uuid = uuidv7();
      envelope.doc.code = `BIG-TRASH-${i}`;
      return { data: envelope };
    });
    const imported = (await callAs(t, company, 'POST', '/silo/v1/import', { entries })).body.results as { id: string }[];
    expect(imported).toHaveLength(300);
    for (const { id } of imported) expect((await callAs(t, company, 'DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
    const companyKey = (await companyKeyOf(t.service.db, created.id))!;
    const inTrash = async () =>
      (await t.service.db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM entries WHERE company_id = ? AND trashed_at IS NOT NULL', [companyKey]))!.n;
    expect(await inTrash()).toBe(300);

    /** How many of `ids` the trash lists over HTTP (a page of 100 at a time). */
    const listed = async (ids: Set<string>) => {
      let n = 0;
      let cursor: string | undefined;
      do {
        const page = (await callAs(t, company, 'GET', `/silo/v1/trash?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
        n += (page.list as { id: string }[]).filter((i) => ids.has(i.id)).length;
        cursor = page.next_cursor;
      } while (cursor);
      return n;
    };
    /** Runs a purge while reading the trash over HTTP: of `ids`, how many each reading held. */
    const whilePurging = async (body: unknown, purged: number, ids: Set<string>) => {
      let done = false;
      const purge = callAs(t, company, 'POST', '/silo/v1/trash/purge', body).finally(() => (done = true));
      const seen: number[] = [];
      while (!done) {
        seen.push(await listed(ids));
        await new Promise((r) => setTimeout(r, 1));
      }
      expect((await purge).body).toEqual({ purged });
      return seen;
    };
    // the last 100 trashed, each taking a while (so the purge spans several slices, however fast it is)
    const newest = imported.slice(200).map(({ id }) => id);
    const quick = await slowDeletes(0.5);
    let named: number[];
    try {
      named = await whilePurging({ items: newest.map((id) => ({ kind: 'entry', id })) }, 100, new Set(newest));
    } finally {
      await quick();
    }
    expect(named.some((n) => n > 0 && n < 100), `named ones seen: ${named.join(', ')}`).toBe(true);
    expect(await inTrash()).toBe(200);
    const rest = imported.slice(0, 200).map(({ id }) => id);
    // The trash is listed a page at a time too, never whole (a million trashed ids were one statement).
    const { db } = t.service;
    const sql = db.sql.bind(db);
    const listings: Array<{ text: string; rows: number }> = [];
    db.sql = (async (text: string, params?: readonly unknown[]) => {
      const rows = await sql(text, params);
      if (/FROM entries WHERE company_id = \? AND trashed_at IS NOT NULL AND trashed_at <= \?/.test(text)) listings.push({ text, rows: rows.length });
      return rows;
    }) as typeof db.sql;
    const slow = await slowDeletes(0.5);
    let all: number[];
    try {
      all = await whilePurging({}, 200, new Set(rest));
    } finally {
      db.sql = sql;
      await slow();
    }
    expect(listings.length, JSON.stringify(listings)).toBeGreaterThanOrEqual(2);
    expect(listings.every((l) => /LIMIT \d+/.test(l.text) && l.rows <= 200), JSON.stringify(listings)).toBe(true);
    expect(all.some((n) => n > 0 && n < 200), `the others seen: ${all.join(', ')}`).toBe(true);
    expect(await inTrash()).toBe(0);
  });

  it('pages the trash by keyset, newest first, and shows one company its own trash only', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const e = await invoice(`TRASH-PAGE-${i}`);
      await t.call('DELETE', `/silo/v1/entries/${e.id}`);
      ids.push(e.id);
    }
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = (await t.call('GET', `/silo/v1/trash?kind=entry&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
      seen.push(...res.list.map((i: any) => i.id));
      if (!res.next_cursor) break;
      cursor = res.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
    expect((await t.call('GET', '/silo/v1/trash?cursor=garbage')).status).toBe(400);

    expect((await trashList(otherCompanyToken)).list).toEqual([]);
    expect((await callAs(t, otherCompanyToken, 'DELETE', `/silo/v1/entries/${ids[0]}`)).status).toBe(404);
    expect((await callAs(t, otherCompanyToken, 'POST', `/silo/v1/entries/${ids[0]}/restore`)).status).toBe(404);
    expect((await callAs(t, otherCompanyToken, 'POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: ids[0] }] })).status).toBe(404);
    expect((await t.call('DELETE', '/silo/v1/entries/not-a-uuid')).status).toBe(400);
    expect((await t.call('DELETE', `/silo/v1/entries/${ids[0]}/files/..%2F..%2Fetc`)).status).toBe(400);
    await t.call('POST', '/silo/v1/trash/purge', {});
  });

  it('refuses to trash an entry a job is working on', async () => {
    const inv = await invoice('TRASH-JOB');
    // A job queued but not run (the runner is stopped), as a step under way would be.
    await t.service.jobs.stop();
    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Tag it', steps: [{ provider: 'silo.tags', config: { add: ['x'] } }] });
    expect(wf.status, JSON.stringify(wf.body)).toBe(200);
    const job = await t.call('POST', '/transform/v1/jobs', { workflow_id: wf.body.id, silo_entry_id: inv.id });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const refused = await t.call('DELETE', `/silo/v1/entries/${inv.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(job.body.id);
    t.service.jobs.start();
  });
});
