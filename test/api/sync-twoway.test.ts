import { randomBytes } from 'node:crypto';
import { v4 as uuidv4 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import {
  attach, connect, conflicts, createSeries, issue, patch, putEntry, putMeta, sha256, snapshot, startInstance, sync, verifySeries,
  type Instance,
} from './sync-helpers.ts';

let open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
});

async function pair(): Promise<{ local: Instance; remote: Instance }> {
  const [local, remote] = await Promise.all([startInstance(), startInstance({ remote: true })]);
  open.push(local, remote);
  await connect(local, remote);
  return { local, remote };
}

const workflow = (name: string) => ({
  name,
  steps: [{ id: uuidv4(), provider: 'silo.state', config: { state: 'registered' } }],
});

describe('sync between two instances', () => {
  it('edits made on both sides while apart end up the same on both, with every kind of record', async () => {
    const { local, remote } = await pair();

    // ── local, offline: entries, a patch, tags, attachments, meta (one deleted), a workflow, a series with entries
    const l1 = await putEntry(local, { tags: ['q1'] });
    const l2 = await putEntry(local);
    await patch(local, l1.id, { content_type: 'application/merge-patch+json', data: { doc: { notes: [{ text: 'paid by card' }] } } });
    await patch(local, l2.id, { tags: ['urgent', 'q1'], state: 'sent', folder: 'outbox' });
    const bytesL = randomBytes(40_000);
    await attach(local, l1.id, 'scan', bytesL, 'scan.pdf');
    await putMeta(local, l1.id, 'erp-id', { ref: 'A-1' });
    await putMeta(local, l2.id, 'gone-soon', 1);
    expect((await local.call('DELETE', `/silo/v1/entries/${l2.id}/meta/gone-soon`)).status).toBe(200);
    const wfL = uuidv4();
    expect((await local.call('PUT', `/transform/v1/workflows/${wfL}`, workflow('local flow'))).status).toBe(200);
    expect((await local.call('PATCH', `/transform/v1/workflows/${wfL}`, { name: 'local flow v2' })).status).toBe(200);
    const seriesL = await createSeries(local, 'L');
    for (let i = 0; i < 5; i++) await issue(local, seriesL.id, { n: String(i) });
    expect((await local.call('PATCH', `/sequence/v1/series/${seriesL.id}`, { name: 'Local sales' })).status).toBe(200);

    // ── remote, meanwhile: its own entries, attachment, meta, workflow and series
    const r1 = await putEntry(remote, { key: 'remote-key-1' });
    const bytesR = randomBytes(10_000);
    await attach(remote, r1.id, 'photo', bytesR, 'photo.jpg');
    await putMeta(remote, r1.id, 'erp-id', { ref: 'B-7' });
    const wfR = uuidv4();
    expect((await remote.call('PUT', `/transform/v1/workflows/${wfR}`, workflow('remote flow'))).status).toBe(200);
    const seriesR = await createSeries(remote, 'R');
    for (let i = 0; i < 3; i++) await issue(remote, seriesR.id);

    const status = await sync(local);
    expect(status.state).toBe('synced');
    expect(status.pending).toBe(0);
    expect(status.progress).toMatchObject({ phase: 'done' });
    expect(status.progress!.pushed).toBeGreaterThan(10);
    expect(status.progress!.pulled).toBeGreaterThan(5);
    expect(status.progress!.bytes_sent).toBeGreaterThan(bytesL.length);

    const a = await snapshot(local);
    const b = await snapshot(remote);
    expect(a.entries).toHaveLength(3);
    expect(a).toEqual(b);
    expect(a.attachments.map((x) => x.bytes).sort()).toEqual([sha256(bytesL), sha256(bytesR)].sort());
    expect(a.meta.map((m: any) => m.key).sort()).toEqual(['erp-id', 'erp-id']);
    expect(a.workflows.find((w) => w.id === wfL)!.definition.name).toBe('local flow v2');
    expect(await conflicts(local)).toEqual([]);

    // the attachment bytes read back through the API on the other side
    const file = await fetch(`${remote.url}/silo/v1/entries/${l1.id}/files/scan`, { headers: { authorization: `Bearer ${remote.token}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(bytesL)).toBe(true);

    // series: each chain valid on both sides; the copy verifies with the issuer's keys; the issuer stays the issuer
    for (const t of [local, remote]) {
      expect(await verifySeries(t, seriesL.id)).toEqual({ valid: true, count: 5 });
      expect(await verifySeries(t, seriesR.id)).toEqual({ valid: true, count: 3 });
    }
    expect((await remote.call('GET', `/sequence/v1/series/${seriesL.id}`)).body).toMatchObject({ issuer: local.service.instanceId, name: 'Local sales', last_index: 5 });
    // a copy is read-only: the remote cannot number the local instance's series
    const refused = await remote.call('PUT', `/sequence/v1/series/${seriesL.id}/entries/${uuidv4()}`, {});
    expect(refused.status).toBe(409);

    // a second sync with nothing new moves nothing
    const again = await sync(local);
    expect(again.progress).toMatchObject({ pushed: 0, pulled: 0 });
    expect(await snapshot(local)).toEqual(a);
  });

  it('carries later changes both ways incrementally: patches, new series entries, meta deletions, entry order', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local);
    await putMeta(local, e.id, 'note', 'x');
    const series = await createSeries(local, 'S');
    await issue(local, series.id);
    await sync(local);

    // remote changes the entry and deletes the meta; local issues more numbers
    await patch(remote, e.id, { state: 'paid', tags: ['paid'] });
    expect((await remote.call('DELETE', `/silo/v1/entries/${e.id}/meta/note`)).status).toBe(200);
    await issue(local, series.id);
    await issue(local, series.id);
    const status = await sync(local);
    expect(status.progress).toMatchObject({ pushed: 2 });

    const got = (await local.call('GET', `/silo/v1/entries/${e.id}`)).body;
    expect(got).toMatchObject({ state: 'paid', tags: ['paid'], meta: [] });
    expect(await verifySeries(remote, series.id)).toEqual({ valid: true, count: 3 });
    expect(await snapshot(local)).toEqual(await snapshot(remote));
    // an entry keeps its creation time everywhere, so lists are in the same order
    const listed = async (t: Instance) => (await t.call('GET', '/silo/v1/entries?limit=100')).body.list.map((x: any) => [x.id, x.created_at]);
    expect(await listed(local)).toEqual(await listed(remote));
  });

  it('never pushes back what it pulled, and a third instance gets everything from the hub', async () => {
    const { local, remote } = await pair();
    const third = await startInstance();
    open.push(third);
    await connect(third, remote);
    const series = await createSeries(local, 'H');
    await issue(local, series.id);
    await issue(local, series.id);
    const e = await putEntry(local);
    await attach(local, e.id, 'f', randomBytes(2000));
    await sync(local);
    // renamed after its entries reached the hub: on the hub's feed the series now comes after them, and travels with them
    expect((await local.call('PATCH', `/sequence/v1/series/${series.id}`, { name: 'Hub series' })).status).toBe(200);
    await sync(local);
    const hubFeed = (await remote.call('GET', '/sync/v1/changes')).body.changes;
    expect(hubFeed.find((c: any) => c.kind === 'series_entry').requires).toEqual([expect.objectContaining({ kind: 'series', id: series.id })]);

    const status = await sync(third);
    expect(status.progress!.pushed).toBe(0);
    const fromThird = await sync(third);
    expect(fromThird.progress).toMatchObject({ pushed: 0, pulled: 0 });
    expect(await snapshot(third)).toEqual(await snapshot(local));
    // the third holds a copy of a series issued by `local`, verified with local's keys (carried by the hub)
    expect(await verifySeries(third, series.id)).toEqual({ valid: true, count: 2 });
    expect((await third.call('GET', `/sequence/v1/series/${series.id}`)).body).toMatchObject({ name: 'Hub series', issuer: local.service.instanceId });
  });
});
