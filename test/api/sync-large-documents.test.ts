import { afterEach, describe, expect, it } from 'vitest';
import { invoiceWithLines } from '../support/large-invoice.ts';
import { probeEngine } from '../support/engine-probe.ts';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';
import { entryKind } from '../../src-main/core/sync/records/entry.ts';
import { conflicts, connect, instancesClosedAfterEach, sync, trashedEntry, type Instance } from './sync-helpers.ts';

/**
 * A synced entry whose document is large is checked by GOBL on the engine's thread (half a second
 * for 13,000 lines). That check is done before the transaction that writes it, on the remote taking
 * a push and on the laptop pulling: were it done inside, the database would be held meanwhile and
 * every other request wait for the engine.
 */
const instances = instancesClosedAfterEach();

/** Whether a list page of `t` is answered: it waits while a transaction holds the database. */
const answers = async (t: Instance) => (await t.call('GET', '/silo/v1/entries?limit=10')).status === 200;

let probe: ReturnType<typeof probeEngine> | undefined;
afterEach(() => probe?.stop());

describe('a large document synced', () => {
  it('is checked before the write, the database of either side answering others meanwhile, and stored as sent', async () => {
    const [laptop, remote] = await instances('laptop', 'remote');
    await connect(laptop, remote);
    const mine = (await laptop.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000, 'L-1') })).body;
    const theirs = (await remote.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000, 'R-1') })).body;
    expect([mine.invalid, theirs.invalid]).toEqual([false, false]);

    const seen = (probe = probeEngine(async () => (await Promise.all([laptop, remote].map(answers))).every(Boolean)));
    await sync(laptop);
    // The remote checked the pushed one, the laptop the pulled one: each while the other requests went on.
    expect(seen.first.length).toBeGreaterThanOrEqual(2);
    expect(seen.first.every((first) => first === 'reads'), seen.first.join(', ')).toBe(true);

    // Changed on the laptop (one line's item renamed), then synced again: the remote's copy is compared and rewritten.
    const renamed = [{ op: 'replace', path: '/doc/lines/1999/item/name', value: 'Renamed' }];
    const changed = (await laptop.call('PATCH', `/silo/v1/entries/${mine.id}`, { data: renamed, content_type: 'application/json-patch+json' })).body;
    expect(changed.data.doc.lines[1999].item.name).toBe('Renamed');
    await sync(laptop);
    expect(seen.first.every((first) => first === 'reads'), seen.first.join(', ')).toBe(true);
    Object.assign(mine, changed);

    for (const [at, entry] of [[remote, mine], [laptop, theirs]] as const) {
      const copy = (await at.call('GET', `/silo/v1/entries/${entry.id}`)).body;
      expect(copy.data).toEqual(entry.data);
      expect(copy.digest).toEqual(entry.digest);
      expect(copy.faults ?? []).toEqual([]);
      expect((await at.call('GET', `/silo/v1/entries?q=${encodeURIComponent('Service 2000')}`)).body.list.map((e: { id: string }) => e.id)).toContain(entry.id);
    }
  }, 60_000);

  it('written back unchanged (a key renamed, a copy sent to the trash) is not checked by GOBL again; a changed one is', async () => {
    const [laptop] = await instances('laptop');
    const entry = (await laptop.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000, 'L-2') })).body;
    const record = (await entryKind.read(laptop.ctx, entry.id, { revealSecrets: true }))!;
    const seen = (probe = probeEngine(async () => true));
    await laptop.service.db.tx(() => entryKind.apply(laptop.ctx, entry.id, { ...record, key: 'renamed' }), { origin: LOCAL });
    expect(seen.first).toEqual([]);
    const renamed = (await laptop.call('GET', `/silo/v1/entries/${entry.id}`)).body;
    expect([renamed.key, renamed.version]).toEqual(['renamed', '2']);
    expect(renamed.data).toEqual(entry.data);
    expect(renamed.faults ?? []).toEqual([]);

    const recoded = { ...record.data, doc: { ...(record.data.doc as Record<string, unknown>), code: 'L-3' } };
    await laptop.service.db.tx(() => entryKind.apply(laptop.ctx, entry.id, { ...record, key: 'renamed', data: recoded }), { origin: LOCAL });
    expect(seen.first).toHaveLength(1);
    expect((await laptop.call('GET', `/silo/v1/entries/${entry.id}`)).body.data.doc.code).toBe('L-3');
  }, 60_000);
  it('in conflict, keeps the losing side as a copy and resolves it either way without holding the database while GOBL works', async () => {
    const [laptop, remote] = await instances('laptop', 'remote');
    await connect(laptop, remote);
    const rename = (t: Instance, id: string, name: string) =>
      t.call('PATCH', `/silo/v1/entries/${id}`, { data: [{ op: 'replace', path: '/doc/lines/1999/item/name', value: name }], content_type: 'application/json-patch+json' });
    /** One large entry both sides hold, then its last line renamed on each while apart. */
    const conflicting = async (code: string) => {
      const entry = (await laptop.call('POST', '/silo/v1/entries', { data: invoiceWithLines(2_000, code) })).body;
      await sync(laptop);
      expect((await rename(remote, entry.id, 'Theirs')).status).toBe(200);
      expect((await rename(laptop, entry.id, 'Mine')).status).toBe(200);
      return entry.id as string;
    };
    const lastLine = (entry: { data: { doc: { lines: Array<{ item: { name: string } }> } } }) => entry.data.doc.lines[1999].item.name;
    const first = await conflicting('C-1');
    const second = await conflicting('C-2');

    const seen = (probe = probeEngine(async () => (await Promise.all([laptop, remote].map(answers))).every(Boolean)));
    await laptop.service.sync.syncNow(laptop.companyKey);
    // The laptop pulled the remote's versions over its own and kept its own as copies: each checked while others read.
    expect(seen.first.length).toBeGreaterThanOrEqual(2);
    expect(seen.first.every((f) => f === 'reads'), seen.first.join(', ')).toBe(true);
    const open = await conflicts(laptop);
    expect(open.map((c) => c.record_id).sort()).toEqual([first, second].sort());
    for (const c of open) {
      expect(lastLine((await laptop.call('GET', `/silo/v1/entries/${c.record_id}`)).body)).toBe('Theirs');
      const copy = (await laptop.call('GET', `/silo/v1/entries/${c.copy_entry_id}`)).body;
      expect([copy.folder, lastLine(copy), copy.faults ?? []]).toEqual(['conflicts', 'Mine', []]);
    }

    // Keep mine: the remote's version goes into the copy, to the trash; mine over the entry. GOBL checks both meanwhile.
    seen.first.length = 0;
    const mine = open.find((c) => c.record_id === first)!;
    const kept = await laptop.call('POST', `/sync/v1/conflicts/${mine.id}/resolve`, { keep: 'mine' });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(seen.first.length).toBeGreaterThanOrEqual(1);
    expect(seen.first.every((f) => f === 'reads'), seen.first.join(', ')).toBe(true);
    const resolved = (await laptop.call('GET', `/silo/v1/entries/${first}`)).body;
    expect([lastLine(resolved), resolved.faults ?? [], resolved.folder]).toEqual(['Mine', [], 'invoices']);
    const setAside = await trashedEntry(laptop, mine.copy_entry_id);
    expect([lastLine(setAside), setAside.faults ?? []]).toEqual(['Theirs', []]);

    // Keep remote: my copy goes to the trash as it is; nothing for GOBL to check.
    seen.first.length = 0;
    const theirs = open.find((c) => c.record_id === second)!;
    expect((await laptop.call('POST', `/sync/v1/conflicts/${theirs.id}/resolve`, { keep: 'remote' })).status).toBe(200);
    expect(seen.first).toEqual([]);
    expect(lastLine(await trashedEntry(laptop, theirs.copy_entry_id))).toBe('Mine');
    expect(lastLine((await laptop.call('GET', `/silo/v1/entries/${second}`)).body)).toBe('Theirs');

    // Mine reaches the remote at the next sync, accepted there.
    await sync(laptop);
    expect(lastLine((await remote.call('GET', `/silo/v1/entries/${first}`)).body)).toBe('Mine');
  }, 120_000);
  it('taking the same key on two laptops, is applied when the clash is resolved or settles, its check made before the write', async () => {
    const [remote, first, second] = await instances('remote', 'laptop', 'laptop');
    await connect(first, remote);
    await connect(second, remote);
    const create = async (t: Instance, key: string, code: string) =>
      (await t.call('POST', '/silo/v1/entries', { key, data: invoiceWithLines(2_000, code) })).body as { id: string; key: string };
    const theirs = [await create(first, 'K-1', 'F-1'), await create(first, 'K-2', 'F-2')];
    const mine = [await create(second, 'K-1', 'S-1'), await create(second, 'K-2', 'S-2')];
    await sync(first);
    await second.service.sync.syncNow(second.companyKey);
    const clashes = await conflicts(second);
    expect(clashes.map((c) => [c.reason, c.record_id]).sort()).toEqual(theirs.map((e) => ['key-clash', e.id]).sort());

    const seen = (probe = probeEngine(async () => (await Promise.all([second, remote].map(answers))).every(Boolean)));
    // Renamed: theirs is written here under the new key, a large document GOBL checks before the write.
    const k1 = clashes.find((c) => c.record_id === theirs[0].id)!;
    const renamed = await second.call('POST', `/sync/v1/conflicts/${k1.id}/resolve`, { rename: { which: 'theirs', key: 'K-1-first' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(seen.first.length).toBeGreaterThanOrEqual(1);
    expect(seen.first.every((f) => f === 'reads'), seen.first.join(', ')).toBe(true);
    expect((await second.call('GET', `/silo/v1/entries/${theirs[0].id}`)).body).toMatchObject({ key: 'K-1-first', data: { doc: { code: 'F-1' } } });

    // My K-2 purged from the trash: its key is free, and the next sync applies theirs by itself.
    seen.first.length = 0;
    expect((await second.call('DELETE', `/silo/v1/entries/${mine[1].id}`)).status).toBe(200);
    expect((await second.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: mine[1].id }] })).body).toEqual({ purged: 1 });
    await second.service.sync.syncNow(second.companyKey);
    expect(seen.first.length).toBeGreaterThanOrEqual(1);
    expect(seen.first.every((f) => f === 'reads'), seen.first.join(', ')).toBe(true);
    expect((await second.call('GET', `/silo/v1/entries/${theirs[1].id}`)).body).toMatchObject({ key: 'K-2', data: { doc: { code: 'F-2' } } });
    expect((await conflicts(second)).map((c) => c.record_id)).not.toContain(theirs[1].id);
  }, 120_000);
});
