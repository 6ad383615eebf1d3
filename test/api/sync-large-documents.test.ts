import { afterEach, describe, expect, it } from 'vitest';
import { invoiceWithLines } from '../support/large-invoice.ts';
import { probeEngine } from '../support/engine-probe.ts';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';
import { entryKind } from '../../src-main/core/sync/records/entry.ts';
import { connect, instancesClosedAfterEach, sync, type Instance } from './sync-helpers.ts';

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
});
