import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { attach, connect, instancesClosedAfterEach, invoiceDoc, putMeta, sha256, sync } from './sync-helpers.ts';
import { openCompany } from './harness.ts';

/**
 * Ids a client chooses are unique per company, not per install (issue 12): two
 * companies on one remote, each synced from its own laptop, hold the same entry,
 * series, series entry, workflow and trusted-signer ids, and whatever one company's
 * sync does under such an id never reads or changes the other's record.
 */
const instances = instancesClosedAfterEach();

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;


/** Company A (the remote's first) synced from laptop A, company B from laptop B. */
async function twoCompaniesOnOneRemote() {
  const [remote, laptopA, laptopB] = await instances('remote', 'laptop', 'laptop');
  const b = await openCompany(remote);
  await connect(laptopA, remote);
  await connect(laptopB, remote, b.owner);
  const asA: Call = (method, path, body) => remote.call(method, path, body);
  const asB: Call = (method, path, body) => remote.call(method, path, body, b.owner);
  return { remote, laptopA, laptopB, asA, asB };
}

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** An entry with everything that hangs on it, in one company: what must stay exactly as it is. */
async function wholeEntry(call: Call, id: string) {
  const entry = await ok(call('GET', `/silo/v1/entries/${id}`));
  const versions = (await ok(call('GET', `/silo/v1/entries/${id}/versions?limit=100`))).list;
  const states = await ok(call('GET', `/silo/v1/entries/${id}/states`));
  return { entry, versions, states };
}

const merge = (data: unknown, extra: Record<string, unknown> = {}) => ({ content_type: 'application/merge-patch+json', data, ...extra });

const signerKeys = () => {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return [{ ...publicKey.export({ format: 'jwk' }), kid: uuidv4() }];
};

describe('the same ids in two companies of one remote', () => {
  it('an entry with files, meta and key: each laptop syncs its own; changes, trash and purge from B never touch A', async () => {
    const { laptopA, laptopB, asA, asB } = await twoCompaniesOnOneRemote();
    const id = uuidv7();
    const bytes = { A: randomBytes(500), B: randomBytes(600) };
    for (const [t, side] of [[laptopA, 'A'], [laptopB, 'B']] as const) {
      await t.api.putEntry({ params: { id }, body: { data: invoiceDoc(`${side}-1`), key: 'INV-1', tags: [side] } });
      await attach(t, id, 'scan', bytes[side], 'scan.pdf');
      await putMeta(t, id, 'ref', `${side}-ref`);
      await sync(t);
    }

    // The remote holds both, each in its own company (no 409, no "taken by another company").
    const onA = await wholeEntry(asA, id);
    expect(onA.entry).toMatchObject({ key: 'INV-1', tags: ['A'], data: { doc: { code: 'A-1' } } });
    expect(onA.entry.attachments).toEqual([expect.objectContaining({ id: 'scan', hash: sha256(bytes.A) })]);
    expect(onA.entry.meta).toEqual([expect.objectContaining({ key: 'ref', value: 'A-ref' })]);
    const onB = (await wholeEntry(asB, id)).entry;
    expect(onB).toMatchObject({ key: 'INV-1', tags: ['B'], data: { doc: { code: 'B-1' } } });
    expect(onB.attachments).toEqual([expect.objectContaining({ id: 'scan', hash: sha256(bytes.B) })]);
    expect(onB.meta).toEqual([expect.objectContaining({ key: 'ref', value: 'B-ref' })]);
    // Each company's feed serves its own record under the id.
    for (const [call, code] of [[asA, 'A-1'], [asB, 'B-1']] as const) {
      const feed = (await ok(call('GET', '/sync/v1/changes?limit=500'))).changes.filter((c: any) => c.kind === 'entry' && c.id === id);
      expect(feed.map((c: any) => c.record.data.doc.code)).toEqual([code]);
    }

    // B changes the entry, its meta and its file, and syncs: only B's copy moves.
    await laptopB.api.patchEntry({ params: { id }, body: merge({ doc: { code: 'B-2' } }, { tags: ['B', 'edited'] }) as never });
    await putMeta(laptopB, id, 'ref', 'B-ref-2');
    expect((await laptopB.call('DELETE', `/silo/v1/entries/${id}/files/scan`)).status).toBe(200);
    await sync(laptopB);
    expect((await ok(asB('GET', `/silo/v1/entries/${id}`)))).toMatchObject({ tags: ['B', 'edited'], data: { doc: { code: 'B-2' } }, attachments: [] });
    expect(await wholeEntry(asA, id)).toEqual(onA);
    // A's laptop pulls nothing of B's.
    await sync(laptopA);
    expect((await ok(laptopA.call('GET', `/silo/v1/entries/${id}`)))).toMatchObject({ tags: ['A'], data: { doc: { code: 'A-1' } } });

    // B trashes and purges it: gone from B on the remote, A's entry, files, meta and history intact.
    expect((await laptopB.call('DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
    await sync(laptopB);
    expect((await asB('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
    expect((await ok(asB('GET', `/silo/v1/trash/entries/${id}`))).data.doc.code).toBe('B-2');
    expect(await wholeEntry(asA, id)).toEqual(onA);
    expect(await ok(laptopB.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id }] }))).toEqual({ purged: 1 });
    await sync(laptopB);
    expect((await asB('GET', `/silo/v1/trash/entries/${id}`)).status).toBe(404);
    expect((await asB('GET', `/silo/v1/entries/${id}/versions`)).status).toBe(404);
    expect(await wholeEntry(asA, id)).toEqual(onA);
    await sync(laptopA);
    expect((await ok(laptopA.call('GET', `/silo/v1/entries/${id}`))).attachments).toEqual([expect.objectContaining({ hash: sha256(bytes.A) })]);
  });

  it("a record pushed by B under an id only A holds is B's own new record; A's is neither read nor changed", async () => {
    const { laptopA, asA, asB } = await twoCompaniesOnOneRemote();
    const id = uuidv7();
    await laptopA.api.putEntry({ params: { id }, body: { data: invoiceDoc('A-ONLY'), tags: ['A'] } });
    await sync(laptopA);
    const before = await wholeEntry(asA, id);

    // B cannot read A's record through sync, by the same answer as for an id nobody holds.
    expect((await asB('GET', `/sync/v1/records/entry/${id}`)).status).toBe(404);
    expect((await asB('GET', `/sync/v1/records/entry/${uuidv7()}`)).status).toBe(404);
    // A deletion from B of an id B never held changes nothing anywhere.
    const origin = uuidv4();
    expect((await ok(asB('PUT', `/sync/v1/records/entry/${id}`, { origin, base_version: null, deleted: true }))).status).toBe('unchanged');
    expect(await wholeEntry(asA, id)).toEqual(before);

    const record = (await ok(asA('GET', `/sync/v1/records/entry/${id}`))).record;
    const theirs = { ...record, tags: ['B'], key: 'B-KEY', data: { ...record.data, doc: { ...record.data.doc, code: 'B-OWN' } } };
    const pushed = await ok(asB('PUT', `/sync/v1/records/entry/${id}`, { origin, base_version: null, record: theirs }));
    expect(pushed).toMatchObject({ status: 'applied', version: 1 });
    expect(await ok(asB('GET', `/silo/v1/entries/${id}`))).toMatchObject({ key: 'B-KEY', tags: ['B'], data: { doc: { code: 'B-OWN' } } });
    expect(await wholeEntry(asA, id)).toEqual(before);

    // B's version numbers are its own: a change based on B's version 1 is accepted, whatever A's version is.
    const next = await ok(asB('PUT', `/sync/v1/records/entry/${id}`, { origin, base_version: 1, record: { ...theirs, tags: ['B', 'again'] } }));
    expect(next).toMatchObject({ status: 'applied', version: 2 });
    expect(await wholeEntry(asA, id)).toEqual(before);
    // And B's deletion deletes B's only.
    expect(await ok(asB('PUT', `/sync/v1/records/entry/${id}`, { origin, base_version: 2, deleted: true }))).toMatchObject({ status: 'applied' });
    expect((await asB('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
    expect(await wholeEntry(asA, id)).toEqual(before);
  });

  it('a series with its entries, a workflow and a trusted signer under the same ids: each company keeps its own', async () => {
    const { laptopA, laptopB, asA, asB } = await twoCompaniesOnOneRemote();
    const seriesId = uuidv4();
    const numberId = uuidv4();
    const workflowId = uuidv4();
    const signerId = uuidv4();
    for (const [t, side] of [[laptopA, 'A'], [laptopB, 'B']] as const) {
      await t.api.putSeries({ params: { id: seriesId }, body: { name: `Series ${side}`, code: `S${side}`, prefix: `${side}-`, padding: 4 } });
      await t.api.putSeriesEntry({ params: { series_id: seriesId, id: numberId }, body: { meta: { side } } });
      await ok(t.call('PUT', `/transform/v1/workflows/${workflowId}`, {
        name: `notify ${side}`,
        steps: [{ id: uuidv4(), provider: 'webhook', config: { url: `http://127.0.0.1:9/${side}` } }],
      }));
      await ok(t.call('PUT', `/silo/v1/trusted-jwks/${signerId}`, { name: `Signer ${side}`, keys: signerKeys() }));
      await sync(t);
    }

    const held = async (call: Call) => ({
      series: await ok(call('GET', `/sequence/v1/series/${seriesId}`)),
      number: await ok(call('GET', `/sequence/v1/series/${seriesId}/entries/${numberId}`)),
      workflow: await ok(call('GET', `/transform/v1/workflows/${workflowId}`)),
      signers: (await ok(call('GET', '/silo/v1/trusted-jwks'))).list,
    });
    const onA = await held(asA);
    expect(onA.series).toMatchObject({ name: 'Series A', code: 'SA', issuer: laptopA.service.instanceId, last_entry_id: numberId });
    expect(onA.number).toMatchObject({ code: 'A-0001', meta: { side: 'A' } });
    expect(onA.workflow).toMatchObject({ name: 'notify A' });
    expect(onA.signers).toEqual([expect.objectContaining({ id: signerId, name: 'Signer A' })]);
    const onB = await held(asB);
    expect(onB.series).toMatchObject({ name: 'Series B', code: 'SB', issuer: laptopB.service.instanceId, last_entry_id: numberId });
    expect(onB.number).toMatchObject({ code: 'B-0001', meta: { side: 'B' } });
    expect(onB.workflow).toMatchObject({ name: 'notify B' });
    expect(onB.signers).toEqual([expect.objectContaining({ id: signerId, name: 'Signer B' })]);
    expect((await ok(asB('GET', `/sequence/v1/series/${seriesId}/verify`)))).toMatchObject({ valid: true });
    expect((await ok(asA('GET', `/sequence/v1/series/${seriesId}/verify`)))).toMatchObject({ valid: true });

    // B renames its series and workflow, issues its next number and stops trusting its signer: A's stay as they were.
    await laptopB.api.putSeries({ params: { id: seriesId }, body: { name: 'Series B renamed', code: 'SB', prefix: 'B-', padding: 4 } });
    await laptopB.api.putSeriesEntry({ params: { series_id: seriesId, id: uuidv4() }, body: { meta: { side: 'B' } } });
    await ok(laptopB.call('PATCH', `/transform/v1/workflows/${workflowId}`, { name: 'notify B renamed' }));
    await ok(laptopB.call('DELETE', `/silo/v1/trusted-jwks/${signerId}`));
    await sync(laptopB);
    const nowB = await ok(asB('GET', `/sequence/v1/series/${seriesId}`));
    expect(nowB).toMatchObject({ name: 'Series B renamed', last_index: 2 });
    expect(await ok(asB('GET', `/transform/v1/workflows/${workflowId}`))).toMatchObject({ name: 'notify B renamed' });
    expect((await ok(asB('GET', '/silo/v1/trusted-jwks'))).list).toEqual([]);
    expect(await held(asA)).toEqual(onA);
    await sync(laptopA);
    expect((await ok(laptopA.call('GET', `/sequence/v1/series/${seriesId}`)))).toMatchObject({ name: 'Series A', last_index: 1 });
    expect((await ok(laptopA.call('GET', '/silo/v1/trusted-jwks'))).list).toEqual([expect.objectContaining({ id: signerId, name: 'Signer A' })]);
  });

  it('one laptop syncing two companies that hold the same id pulls each into its own company, conflicts and deletions included', async () => {
    const [remote, laptop] = await instances('remote', 'laptop');
    const remoteB = await openCompany(remote);
    const laptopB = await openCompany(laptop);
    await connect(laptop, remote);
    await ok(laptop.call('PUT', '/sync/v1/settings', { remote_url: remote.url, token: remoteB.owner, interval_minutes: 0 }, laptopB.owner));
    const laptopBKey = (await companyKeyOf(laptop.service.db, laptopB.id))!;
    const syncB = async () => {
      const status = await laptop.service.sync.syncNow(laptopBKey);
      expect(status.last_error, JSON.stringify(status.last_error)).toBeUndefined();
      return status;
    };
    const localA: Call = (method, path, body) => laptop.call(method, path, body);
    const localB: Call = (method, path, body) => laptop.call(method, path, body, laptopB.owner);
    const asB: Call = (method, path, body) => remote.call(method, path, body, remoteB.owner);

    const id = uuidv7();
    await ok(remote.call('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc('A-1'), tags: ['A'] }));
    await ok(asB('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc('B-1'), tags: ['B'] }));
    await ok(asB('PUT', `/silo/v1/entries/${id}/meta/ref`, { src: 'erp', value: 'B-ref' }));
    await sync(laptop);
    await syncB();
    const a = await wholeEntry(localA, id);
    expect(a.entry).toMatchObject({ tags: ['A'], data: { doc: { code: 'A-1' } }, meta: [] });
    expect(await ok(localB('GET', `/silo/v1/entries/${id}`))).toMatchObject({ tags: ['B'], data: { doc: { code: 'B-1' } }, meta: [expect.objectContaining({ value: 'B-ref' })] });

    // Both sides of B change the entry: B's conflict copy is made in B, with B's meta; A sees nothing of it.
    await ok(asB('PATCH', `/silo/v1/entries/${id}`, merge({ doc: { code: 'B-REMOTE' } })));
    await ok(localB('PATCH', `/silo/v1/entries/${id}`, merge({ doc: { code: 'B-LOCAL' } })));
    expect(await syncB()).toMatchObject({ conflicts: 1 });
    const [conflict] = (await ok(localB('GET', '/sync/v1/conflicts'))).list;
    expect(conflict).toMatchObject({ kind: 'entry', record_id: id });
    expect(await ok(localB('GET', `/silo/v1/entries/${conflict.copy_entry_id}`))).toMatchObject({ folder: 'conflicts', data: { doc: { code: 'B-LOCAL' } } });
    expect(await ok(localB('GET', `/silo/v1/entries/${id}`))).toMatchObject({ data: { doc: { code: 'B-REMOTE' } } });
    expect((await ok(localA('GET', '/sync/v1/conflicts'))).list).toEqual([]);
    expect(await wholeEntry(localA, id)).toEqual(a);

    // The remote purges B's entry: the laptop's B loses it, the laptop's A keeps its own.
    expect((await asB('DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
    expect(await ok(asB('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id }] }))).toEqual({ purged: 1 });
    await syncB();
    expect((await localB('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
    expect((await localB('GET', `/silo/v1/trash/entries/${id}`)).status).toBe(404);
    expect(await wholeEntry(localA, id)).toEqual(a);
    await sync(laptop);
    expect(await wholeEntry(localA, id)).toEqual(a);
  });
});
