import { describe, expect, it } from 'vitest';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { deleteMeta, putMeta } from '../../src-main/core/silo/meta.ts';
import { connect, instancesClosedAfterEach, invoiceDoc, snapshot, sync } from './sync-helpers.ts';

/**
 * A meta key the remote put and deleted, pulled as a tombstone, then put again on
 * the laptop: the new value is the laptop's change and must reach the remote (found
 * by the property test; it stayed on the laptop only).
 */
const ID = '0190c1a0-4444-7000-8000-000000000000';
const meta = (value: number) => ({ src: 'erp', ref: '', value, shared: false, link_scope: '', link_url: '' });
const instances = instancesClosedAfterEach();

describe('sync of meta put again after its tombstone was pulled', () => {
  it('reaches the remote', async () => {
    const [local, remote] = await instances('laptop', 'remote');
    await connect(local, remote);
    await createEntry(local.ctx, ID, { data: invoiceDoc('TOMB-1') });
    await sync(local);
    await putMeta(remote.ctx, ID, 'k1', meta(1));
    await deleteMeta(remote.ctx, ID, 'k1', 'erp');
    await sync(local);
    await putMeta(local.ctx, ID, 'k1', meta(2));
    await sync(local);
    const onRemote = (await snapshot(remote)).meta;
    expect(onRemote).toEqual((await snapshot(local)).meta);
    expect(onRemote).toHaveLength(1);
  });
});
