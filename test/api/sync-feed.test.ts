import { randomBytes } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../src-main/core/access/companies.ts';
import { createToken } from '../../src-main/core/access/tokens.ts';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';
import { invokeOperation } from '../../src-main/core/api/invoke.ts';
import { encodeFeedCursor } from '../../src-main/core/sync/feed-cursor.ts';
import { documentText, packDocument, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';
import {
  attach, createSeries, invoiceDoc, issue, patch, putEntry, putMeta, sha256, startInstance, type Instance,
} from './sync-helpers.ts';

let t: Instance;
let other: Instance;
beforeAll(async () => {
  // t serves the feed and takes pushes, as the remote does
  [t, other] = await Promise.all([startInstance({ remote: true }), startInstance()]);
});
afterAll(async () => {
  await Promise.all([t.close(), other.close()]);
});

/** The whole feed from the start, page by page. */
async function feed(inst: Instance, limit = 100, cursor?: string): Promise<{ changes: any[]; cursor: string }> {
  const changes: any[] = [];
  for (;;) {
    const res = await inst.call('GET', `/sync/v1/changes?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    changes.push(...res.body.changes);
    cursor = res.body.next_cursor;
    if (!res.body.has_more) return { changes, cursor: cursor! };
  }
}

const rows = (inst: Instance, recordId: string) => inst.service.db.sql<any>('SELECT * FROM sync_changes WHERE record_id = ?', [recordId]);

const ORIGIN = '0190c1a0-2222-7000-8000-000000000001';

describe('the change log (outbox) and the feed', () => {
  it('records every kind of change in the same transaction as the change itself, one row per record', async () => {
    const before = (await feed(t)).cursor;
    const e = await putEntry(t);
    await patch(t, e.id, { tags: ['a'] });
    await patch(t, e.id, { state: 'sent' });
    await attach(t, e.id, 'f1', randomBytes(100));
    await putMeta(t, e.id, 'k', 1);
    expect((await t.call('DELETE', `/silo/v1/entries/${e.id}/meta/k`)).status).toBe(200);
    const wf = uuidv4();
    expect((await t.call('PUT', `/transform/v1/workflows/${wf}`, { name: 'w', steps: [{ provider: 'silo.state', config: { state: 'x' } }] })).status).toBe(200);
    const series = await createSeries(t, 'F');
    const se = await issue(t, series.id);

    const { changes } = await feed(t, 3, before);
    expect(changes.map((c) => [c.kind, c.id])).toEqual([
      ['entry', e.id],
      ['attachment', `${e.id}:f1`],
      ['meta', `${e.id}:erp:k`],
      ['workflow', wf],
      ['series', series.id],
      ['series_entry', se.id],
    ]);
    // log-compacted: the entry shows once, at its latest state and version
    expect(await rows(t, e.id)).toHaveLength(1);
    expect(changes[0]).toMatchObject({ version: 3, origin: t.service.instanceId, record: { state: 'sent', tags: ['a'] } });
    expect(changes[0].record.data.head.uuid).toBe(e.id);
    // the deleted meta is a tombstone, at its second version
    expect(changes[2]).toEqual({ seq: expect.any(Number), kind: 'meta', id: `${e.id}:erp:k`, version: 2, origin: t.service.instanceId, deleted: true });
    expect(changes[1].record).toMatchObject({ entry_id: e.id, id: 'f1', size: 100, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(changes[5].record).toMatchObject({ series_id: series.id, index: 1, code: 'F-0001', sigs: [expect.any(String)] });
    // change numbers increase along the feed
    const seqs = changes.map((c) => c.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('writes no change for a write that failed, and none for a write that changed nothing', async () => {
    const e = await putEntry(t);
    const [row] = await rows(t, e.id);
    // a 422 and a 409 leave the log alone
    expect((await t.call('PATCH', `/silo/v1/entries/${e.id}`, { content_type: 'application/merge-patch+json', data: { doc: { currency: 'XXX' } } })).status).toBe(422);
    expect((await t.call('PUT', `/silo/v1/entries/${e.id}`, { data: invoiceDoc('OTHER') })).status).toBe(409);
    // an idempotent replay of the same PUT writes nothing
    expect(await rows(t, e.id)).toEqual([row]);
  });

  it('serves a parent that moved past its child with the child, so a page always applies in order', async () => {
    const from = (await feed(t)).cursor;
    const e = await putEntry(t);
    await attach(t, e.id, 'scan', randomBytes(50));
    await patch(t, e.id, { tags: ['later'] });
    const { changes } = await feed(t, 100, from);
    const file = changes.find((c) => c.kind === 'attachment');
    expect(file.requires).toEqual([expect.objectContaining({ kind: 'entry', id: e.id, record: expect.objectContaining({ tags: ['later'] }) })]);
  });

  it('writes each document into the page as it is stored, unparsed, over HTTP; in-process callers get it parsed', async () => {
    const from = (await feed(t)).cursor;
    const e = await putEntry(t);
    // A stored text JSON.parse would change (1.10 reads back as 1.1): seen over HTTP unchanged, it was not parsed and written again.
    const [row] = await t.service.db.sql<{ data: StoredDocument }>('SELECT data FROM entries WHERE id = ?', [e.id]);
    const stored = documentText(row.data, e.id).replace(/}$/, ',"x_stored":1.10}');
    const packed = packDocument(t.service.db.dialect, stored, e.id);
    await t.service.db.tx(() => t.service.db.sqlRun('UPDATE entries SET data = ? WHERE id = ?', [packed, e.id]), { origin: LOCAL });

    const res = await fetch(`${t.url}/sync/v1/changes?limit=100&cursor=${encodeURIComponent(from)}`, { headers: { authorization: `Bearer ${t.token}` } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain(`"data":${stored}`);
    const served = JSON.parse(text).changes.find((c: any) => c.id === e.id);
    expect(served.record).toMatchObject({ id: e.id, folder: expect.any(String), data: { head: { uuid: e.id }, x_stored: 1.1 } });
    // one record by its id, likewise
    const one = await (await fetch(`${t.url}/sync/v1/records/entry/${e.id}`, { headers: { authorization: `Bearer ${t.token}` } })).text();
    expect(one).toContain(`"data":${stored}`);

    // The window's calls (IPC) and the service's own are answered with plain values, never a text to splice.
    const page: any = await invokeOperation(t.ctx, 'listSyncChanges', { query: { limit: '100', cursor: from } });
    const change = page.changes.find((c: any) => c.id === e.id);
    expect(Object.getPrototypeOf(change.record.data)).toBe(Object.prototype);
    expect(change.record.data).toMatchObject({ head: { uuid: e.id }, x_stored: 1.1 });
  });

  it('answers 410 for a cursor it cannot vouch for: garbage, another instance, another company, from the future', async () => {
    const { cursor } = await feed(t);
    expect((await t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    const foreign = (await feed(other)).cursor;
    const company = await createCompany(t.service.db, 'Other Co');
    const tokenB = (await createToken(t.service.db, company.key, 'owner', 'b')).secret;
    const future = encodeFeedCursor(t.service.cursorSecret, t.service.instanceId, t.companyId, 10_000_000);
    for (const [bad, asToken] of [['garbage', t.token], [`${cursor}x`, t.token], [foreign, t.token], [cursor, tokenB], [future, t.token]] as const) {
      const res = await t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(bad)}`, undefined, asToken);
      expect(res.status, bad).toBe(410);
      expect(res.body.key).toBe('gone');
    }
    // another company's feed shows none of this company's changes
    expect((await t.call('GET', '/sync/v1/changes', undefined, tokenB)).body.changes).toEqual([]);
  });

  it('never passes over a change whose transaction commits after a page was read', async () => {
    const from = (await feed(t)).cursor;
    const id = uuidv7();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const writing = t.service.db.tx(async () => {
      await createEntry(t.ctx, id, { data: invoiceDoc('HELD-1') });
      written();
      await held;
    }, { origin: 'local' });
    await wrote;
    const during = t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(from)}`);
    // PostgreSQL serves the page while the write is still open; SQLite, the one writer, serves it after
    if (t.service.db.dialect === 'postgres') expect((await during).body.changes.map((c: any) => c.id)).not.toContain(id);
    release();
    await writing;
    const page = (await during).body;
    const after = await feed(t, 100, page.next_cursor);
    expect([...page.changes, ...after.changes].filter((c: any) => c.id === id)).toHaveLength(1);
  });

  it('leaves out the caller\'s own changes when asked, and still moves the cursor past them', async () => {
    const from = (await feed(t)).cursor;
    const e = await putEntry(t);
    const pushed = await t.call('POST', '/sync/v1/records', {
      origin: ORIGIN,
      changes: [{ kind: 'meta', id: `${e.id}:erp:pushed`, base_version: null, record: metaRecord(e.id, 'pushed', 'v') }],
    });
    expect(pushed.body.results[0]).toMatchObject({ status: 'applied', version: 1 });
    const res = await t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(from)}&exclude_origin=${ORIGIN}`);
    expect(res.body.changes.map((c: any) => c.kind)).toEqual(['entry']);
    const all = await t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(from)}`);
    expect(all.body.changes.map((c: any) => [c.kind, c.origin])).toEqual([['entry', t.service.instanceId], ['meta', ORIGIN]]);
    const after = await t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(res.body.next_cursor)}`);
    expect(after.body.changes).toEqual([]);
  });
  it('ends a page that takes too long to read with what it has, and still serves every change once, in order', async () => {
    // No time at all for a page: each ends after its first change, whatever the limit.
    const hasty = await startInstance({ sync: { feedPageMs: 0 } });
    try {
      const from = (await feed(hasty)).cursor;
      const e = await putEntry(hasty);
      await attach(hasty, e.id, 'f1', randomBytes(100));
      await putMeta(hasty, e.id, 'k', 1);
      const more = [await putEntry(hasty), await putEntry(hasty)];
      const pages: any[] = [];
      let cursor = from;
      for (;;) {
        const res = await hasty.call('GET', `/sync/v1/changes?limit=100&cursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(200);
        pages.push(res.body);
        cursor = res.body.next_cursor;
        if (!res.body.has_more) break;
      }
      expect(pages.flatMap((p) => p.changes.map((c: any) => [c.kind, c.id]))).toEqual([
        ['entry', e.id],
        ['attachment', `${e.id}:f1`],
        ['meta', `${e.id}:erp:k`],
        ['entry', more[0].id],
        ['entry', more[1].id],
      ]);
      // Five changes under a limit of 100, in pages of one: cut by time, with more to come until the last.
      expect(pages.map((p) => p.changes.length)).toEqual([1, 1, 1, 1, 1]);
      expect(pages.map((p) => p.has_more)).toEqual([true, true, true, true, false]);
      // The last cursor is past them all.
      expect((await hasty.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(cursor)}`)).body.changes).toEqual([]);
    } finally {
      await hasty.close();
    }
  });

  it('looks at no more than a window of changes a page when leaving an origin out, and still serves every other change once', async () => {
    const from = (await feed(t)).cursor;
    const first = await putEntry(t);
    // 6,000 changes of the pusher's own, more than a window (EXCLUDING_WINDOW, 5,000), then one of another origin.
    for (let batch = 0; batch < 12; batch++) {
      const changes = Array.from({ length: 500 }, (_, i) => ({ kind: 'meta', id: `${first.id}:erp:k${batch}-${i}`, base_version: null, record: metaRecord(first.id, `k${batch}-${i}`, i) }));
      const pushed = await t.call('POST', '/sync/v1/records', { origin: ORIGIN, changes });
      expect(pushed.status, JSON.stringify(pushed.body).slice(0, 300)).toBe(200);
    }
    const last = await putEntry(t);
    const pages: any[] = [];
    let cursor = from;
    for (;;) {
      const res = await t.call('GET', `/sync/v1/changes?limit=50&cursor=${encodeURIComponent(cursor)}&exclude_origin=${ORIGIN}`);
      expect(res.status).toBe(200);
      pages.push(res.body);
      cursor = res.body.next_cursor;
      if (!res.body.has_more) break;
    }
    const served = pages.flatMap((p) => p.changes.map((c: any) => c.id));
    expect(served).toEqual([first.id, last.id]);
    // The window ended a page early: short of its limit, with more to come.
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]).toMatchObject({ has_more: true, changes: [{ id: first.id }] });
    // And from the last cursor there is nothing more.
    expect((await t.call('GET', `/sync/v1/changes?cursor=${encodeURIComponent(cursor)}&exclude_origin=${ORIGIN}`)).body.changes).toEqual([]);
  }, 60_000);
});

const metaRecord = (entryId: string, key: string, value: unknown) => ({
  entry_id: entryId, src: 'erp', key, ref: '', value, shared: false, link_scope: '', link_url: '',
  created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
});

describe('pushed records', () => {
  it('are idempotent under their own id and accepted only on the version they were based on', async () => {
    const e = await putEntry(t);
    const id = `${e.id}:erp:ver`;
    const put = (base: number | null, value: unknown) => t.call('PUT', `/sync/v1/records/meta/${encodeURIComponent(id)}`, { origin: ORIGIN, base_version: base, record: metaRecord(e.id, 'ver', value) });

    expect((await put(null, 'a')).body).toEqual({ kind: 'meta', id, status: 'applied', version: 1 });
    // the same again (an answer lost on the way): unchanged, same version
    expect((await put(null, 'a')).body).toEqual({ kind: 'meta', id, status: 'unchanged', version: 1 });
    expect((await put(1, 'b')).body).toMatchObject({ status: 'applied', version: 2 });
    // based on an old version with another state: refused, the newer one stays
    const stale = await put(1, 'c');
    expect(stale.status).toBe(409);
    expect(stale.body.fields).toEqual({ '$.base_version': 'the current version is 2' });
    expect((await t.call('GET', `/silo/v1/entries/${e.id}/meta/ver`)).body.value).toBe('b');
    // a local edit moves the version on; the pusher must be based on it
    await putMeta(t, e.id, 'ver', 'local');
    expect((await put(2, 'd')).status).toBe(409);
    expect((await put(3, 'd')).body).toMatchObject({ status: 'applied', version: 4 });
    // recorded as the pusher's change, not this instance's
    expect((await rows(t, id))[0]).toMatchObject({ origin: ORIGIN, version: 4 });
  });

  it('of two pushes at once based on the same version, one is applied and the other is refused', async () => {
    const e = await putEntry(t);
    const id = `${e.id}:erp:race`;
    const put = (base: number | null, value: unknown) =>
      t.call('PUT', `/sync/v1/records/meta/${encodeURIComponent(id)}`, { origin: ORIGIN, base_version: base, record: metaRecord(e.id, 'race', value) });
    expect((await put(null, 'start')).status).toBe(200);
    // PostgreSQL runs both at once: the version each checks must still be the one it writes over
    const answers = await Promise.all([put(1, 'first'), put(1, 'second')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!.body;
    expect(won).toMatchObject({ status: 'applied', version: 2 });
    expect((await rows(t, id))[0]).toMatchObject({ version: 2 });
  });

  it('checks each record against its kind, and one bad record in a batch does not stop the others', async () => {
    const e = await putEntry(t);
    const res = await t.call('POST', '/sync/v1/records', {
      origin: ORIGIN,
      changes: [
        { kind: 'meta', id: `${e.id}:erp:ok1`, base_version: null, record: metaRecord(e.id, 'ok1', 1) },
        { kind: 'meta', id: `${e.id}:erp:bad`, base_version: null, record: { ...metaRecord(e.id, 'bad', 1), link_url: 'not a url' } },
        { kind: 'entry', id: uuidv7(), base_version: null, record: { nope: true } },
        { kind: 'attachment', id: `${e.id}:nobytes`, base_version: null, record: { entry_id: e.id, id: 'nobytes', name: 'a.txt', desc: '', mime: 'text/plain', meta: {}, hash: sha256('never sent'), size: 10, created_at: new Date().toISOString() } },
        { kind: 'planet', id: 'x', base_version: null, record: {} },
        { kind: 'meta', id: `${e.id}:erp:ok2`, base_version: null, record: metaRecord(e.id, 'ok2', 2) },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['applied', 'error', 'error', 'error', 'error', 'applied']);
    expect(res.body.results[1].error).toMatchObject({ key: 'validation', fields: { '$.record.link_url': expect.any(String) } });
    expect(res.body.results[3].error).toMatchObject({ key: 'validation', fields: { '$.record.hash': expect.any(String) } });
    expect(res.body.results[4].error).toMatchObject({ key: 'bad-request' });
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.meta.map((m: any) => m.key).sort()).toEqual(['ok1', 'ok2']);
  });

  it('accepts the tokens of the company, applications included, and no one else', async () => {
    const e = await putEntry(t);
    const enroll = await t.call('PUT', `/access/v1/enrollment/${uuidv4()}`, { app_id: uuidv4(), data: {} });
    expect(enroll.status, JSON.stringify(enroll.body)).toBe(200);
    const app = enroll.body.token;
    expect((await t.call('GET', '/sync/v1/changes?limit=1', undefined, app)).status).toBe(200);
    const res = await t.call('PUT', `/sync/v1/records/meta/${e.id}:erp:app`, { origin: ORIGIN, base_version: null, record: metaRecord(e.id, 'app', 1) }, app);
    expect(res.status).toBe(200);
    // the controller is for people, not applications
    expect((await t.call('GET', '/sync/v1/status', undefined, app)).status).toBe(403);
    expect((await t.call('GET', '/sync/v1/changes', undefined, 'sd_nope')).status).toBe(401);
  });
});

describe('attachment bytes and keys for sync', () => {
  it('stores bytes by hash ahead of records, checks the hash, and reads back only what the company holds', async () => {
    const bytes = randomBytes(3000);
    const hash = sha256(bytes);
    expect((await t.call('POST', '/sync/v1/blobs/missing', { hashes: [hash] })).body).toEqual({ missing: [hash] });
    const wrong = await t.call('POST', '/sync/v1/blobs', { blobs: [{ hash: sha256('x'), data: bytes.toString('base64') }] });
    expect(wrong.status).toBe(422);
    // bytes that are not base64 (a space, the URL-safe alphabet) are refused by field, and nothing is stored
    for (const data of [`${bytes.toString('base64').slice(0, 8)} ${bytes.toString('base64').slice(8)}`, bytes.toString('base64url')]) {
      const bad = await t.call('POST', '/sync/v1/blobs', { blobs: [{ hash, data }] });
      expect(bad.status).toBe(422);
      expect(bad.body.fields).toEqual({ '$.blobs[0].data': 'must be base64' });
    }
    expect(await t.service.blobs.holds(hash)).toBe(false);
    expect((await t.call('POST', '/sync/v1/blobs', { blobs: [{ hash, data: bytes.toString('base64') }] })).body).toEqual({ stored: 1 });
    expect(await t.service.blobs.holds(hash)).toBe(true);
    // held only once an attachment of this company references it
    expect((await t.call('POST', '/sync/v1/blobs/read', { hashes: [hash] })).body).toEqual({ blobs: [], missing: [hash] });
    const e = await putEntry(t);
    await attach(t, e.id, 'doc', bytes);
    expect((await t.call('POST', '/sync/v1/blobs/missing', { hashes: [hash] })).body).toEqual({ missing: [] });
    const read = await t.call('POST', '/sync/v1/blobs/read', { hashes: [hash] });
    expect(Buffer.from(read.body.blobs[0].data, 'base64').equals(bytes)).toBe(true);
    // another company on the same instance sees none of it
    const company = await createCompany(t.service.db, 'Nosy Co');
    const nosy = (await createToken(t.service.db, company.key, 'owner', 'n')).secret;
    expect((await t.call('POST', '/sync/v1/blobs/read', { hashes: [hash] }, nosy)).body).toEqual({ blobs: [], missing: [hash] });
  });

  it('serves its JWKS and pins the keys of the instances its owner paired', async () => {
    const keys = (await other.call('GET', '/sync/v1/keys')).body;
    expect(keys.instances[0]).toMatchObject({ instance_id: other.service.instanceId, keys: [expect.objectContaining({ kty: 'EC', alg: 'ES256' })] });
    // keys of an instance nobody paired are refused; the owner pairs it
    expect((await t.call('PUT', '/sync/v1/keys', { instance_id: other.service.instanceId, keys: keys.instances[0].keys })).status).toBe(403);
    const put = await t.call('PUT', `/sync/v1/peers/${other.service.instanceId}`, { keys: keys.instances[0].keys });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ instance_id: other.service.instanceId, keys: keys.instances[0].keys });
    expect((await t.call('PUT', '/sync/v1/keys', { instance_id: other.service.instanceId, keys: keys.instances[0].keys })).body.added).toBe(0);
    // the same kid with another key is refused
    const swapped = { ...keys.instances[0].keys[0], x: keys.instances[0].keys[0].y };
    expect((await t.call('PUT', '/sync/v1/keys', { instance_id: other.service.instanceId, keys: [swapped] })).status).toBe(409);
    expect((await t.call('PUT', '/sync/v1/keys', { instance_id: t.service.instanceId, keys: keys.instances[0].keys })).status).toBe(400);
    expect((await t.call('GET', '/sync/v1/keys')).body.instances.map((i: any) => i.instance_id)).toContain(other.service.instanceId);
  });

  it('refuses a series entry that its issuer did not sign, or that would fork the chain', async () => {
    const series = await createSeries(other, 'X');
    const e1 = await issue(other, series.id);
    const seriesRecord = (await other.call('GET', `/sync/v1/records/series/${series.id}`)).body.record;
    const entryRecord = (await other.call('GET', `/sync/v1/records/series_entry/${e1.id}`)).body.record;
    const push = (kind: string, record: any) => t.call('POST', '/sync/v1/records', { origin: other.service.instanceId, changes: [{ kind, id: record.id, base_version: null, record }] });
    const keys = (await other.call('GET', '/sync/v1/keys')).body.instances[0].keys;
    expect((await t.call('PUT', `/sync/v1/peers/${other.service.instanceId}`, { keys })).status).toBe(200);

    expect((await push('series', seriesRecord)).body.results[0]).toMatchObject({ status: 'applied' });
    // meta edited after signing
    const edited = await push('series_entry', { ...entryRecord, meta: { forged: 'yes' } });
    expect(edited.body.results[0]).toMatchObject({ status: 'error', error: { key: 'validation' } });
    // a later index before the first: it waits (409), it is not renumbered
    const e2 = await issue(other, series.id);
    const second = (await other.call('GET', `/sync/v1/records/series_entry/${e2.id}`)).body.record;
    expect((await push('series_entry', second)).body.results[0]).toMatchObject({ status: 'error', error: { key: 'conflict' } });
    expect((await push('series_entry', entryRecord)).body.results[0]).toMatchObject({ status: 'applied' });
    expect((await push('series_entry', second)).body.results[0]).toMatchObject({ status: 'applied' });
    expect((await t.call('GET', `/sequence/v1/series/${series.id}/verify`)).body).toEqual({ valid: true, count: 2 });
    // the copy cannot issue
    expect((await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`, {})).status).toBe(409);
  });
});
