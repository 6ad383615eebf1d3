import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src-main/core/api/errors.ts';
import { hashBytes } from '../../src-main/core/files/hashed-bytes.ts';
import { storeAttachment } from '../../src-main/core/silo/attachments.ts';
import { createEntry, findEntryRow } from '../../src-main/core/silo/entries.ts';
import { deleteMeta, putMeta } from '../../src-main/core/silo/meta.ts';
import { patchEntry } from '../../src-main/core/silo/patch.ts';
import { resolveConflict } from '../../src-main/core/sync/conflicts.ts';
import { connect, invoiceDoc, snapshot, startInstance, type Instance } from './sync-helpers.ts';

/**
 * Random work on both sides of a sync (create, patch, tag, attach, meta put and
 * delete, often on the same records), random sync points and conflict
 * resolutions; after a final sync both sides must hold the same entries, with
 * the same digests, labels, files and meta, and every conflict must be
 * accounted for: listed, with its losing document kept as a copy (on both sides),
 * and every resolved one's set-aside version in the trash.
 */
const IDS = Array.from({ length: 3 }, (_, i) => `0190c1a0-4444-7000-8000-00000000000${i}`);
/** entries both sides share before the random work starts (the rest may be created on either side, or both) */
const SHARED = 2;
const side = fc.constantFrom<'local' | 'remote'>('local', 'remote');
const slot = fc.integer({ min: 0, max: IDS.length - 1 });

const op = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create' as const), side, slot, code: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('patch' as const), side, slot, code: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('tag' as const), side, slot, tags: fc.subarray(['a', 'b', 'c']) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('attach' as const), side, slot, file: fc.constantFrom('f1', 'f2'), bytes: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('metaPut' as const), side, slot, key: fc.constantFrom('k1', 'k2'), value: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('metaDelete' as const), side, slot, key: fc.constantFrom('k1', 'k2') }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('sync' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('resolve' as const), keep: fc.constantFrom<'remote' | 'mine'>('remote', 'mine') }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** The same code gives the same document, so both sides sometimes make the very same change. */
function doc(id: string, code: number): Record<string, unknown> {
  const d = invoiceDoc(`PROP-${code}`);
  d.uuid = `${id.slice(0, -1)}f`;
  return d;
}

async function apply(t: Instance, o: Exclude<Op, { op: 'sync' } | { op: 'resolve' }>): Promise<void> {
  const id = IDS[o.slot];
  const exists = (await findEntryRow(t.ctx, id)) !== undefined;
  try {
    switch (o.op) {
      case 'create':
        if (!exists) await createEntry(t.ctx, id, { data: doc(id, o.code) });
        return;
      case 'patch':
        if (exists) await patchEntry(t.ctx, id, { content_type: 'application/merge-patch+json', data: { doc: { code: `PROP-P${o.code}` } } });
        return;
      case 'tag':
        if (exists) await patchEntry(t.ctx, id, { content_type: 'application/json', tags: o.tags });
        return;
      case 'attach':
        if (exists) await storeAttachment(t.ctx, id, { id: o.file, name: `${o.file}.txt` }, hashBytes(Buffer.from(`bytes ${o.bytes}`)));
        return;
      case 'metaPut':
        if (exists) await putMeta(t.ctx, id, o.key, { src: 'erp', ref: '', value: o.value, shared: false, link_scope: '', link_url: '' });
        return;
      case 'metaDelete':
        if (exists) await deleteMeta(t.ctx, id, o.key, 'erp');
        return;
    }
  } catch (err) {
    // Another file under an existing attachment id, or meta already gone: not possible here, as through the API.
    if (err instanceof ApiError && (err.key === 'conflict' || err.key === 'not-found')) return;
    throw err;
  }
}

async function syncOk(local: Instance): Promise<void> {
  const status = await local.service.sync.syncNow(local.companyKey);
  expect(status.last_error, JSON.stringify(status.last_error)).toBeUndefined();
}

describe('sync, property-based', () => {
  it('converges after any mix of edits on both sides and syncs in between, with every conflict accounted for', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 50 }), async (ops) => {
        const [local, remote] = await Promise.all([startInstance(), startInstance({ remote: true })]);
        try {
          await connect(local, remote);
          const everCreated = new Set<string>();
          for (const slot of [0, 1].slice(0, SHARED)) {
            await apply(local, { op: 'create', side: 'local', slot, code: 0 });
            everCreated.add(IDS[slot]);
          }
          await syncOk(local);
          for (const o of ops) {
            if (o.op === 'sync') await syncOk(local);
            else if (o.op === 'resolve') {
              const open = local.service.db.sqlite!.prepare('SELECT id FROM sync_conflicts WHERE resolved_at IS NULL ORDER BY created_at LIMIT 1').get() as { id: string } | undefined;
              if (open) await resolveConflict(local.ctx, open.id, { keep: o.keep });
            } else {
              await apply(o.side === 'local' ? local : remote, o);
              if (o.op === 'create') everCreated.add(IDS[o.slot]);
            }
          }
          await syncOk(local);
          await syncOk(local);

          const a = await snapshot(local);
          const b = await snapshot(remote);
          expect(a).toEqual(b);
          // every entry created on either side is on both: nothing lost, nothing doubled
          expect(a.entries.filter((e: any) => IDS.includes(e.id)).map((e: any) => e.id).sort()).toEqual([...everCreated].sort());
          // any other entry is a version a resolution set aside: in the trash, never deleted
          const resolvedCopies = (local.service.db.sqlite!.prepare(`SELECT copy_entry_id FROM sync_conflicts WHERE resolved_at IS NOT NULL AND copy_entry_id IS NOT NULL`).all() as any[]).map((r) => r.copy_entry_id).sort();
          const setAside = a.entries.filter((e: any) => !IDS.includes(e.id));
          const trashedAt = local.service.db.sqlite!.prepare('SELECT trashed_at FROM entries WHERE id = ?');
          for (const e of setAside) expect((trashedAt.get(e.id) as any).trashed_at).not.toBeNull();
          expect(setAside.map((e: any) => e.id).sort()).toEqual(resolvedCopies);
          // the digest stored is the digest of the stored document
          for (const e of a.entries) {
            const d = JSON.parse(e.data).doc;
            expect(e.digest_val).toBe(JSON.parse(e.data).head.dig.val);
            expect(d.uuid).toBeTruthy();
          }
          const status = await local.service.sync.status(local.companyKey);
          expect(status).toMatchObject({ pending: 0, parked: 0 });

          // conflicts accounted for: each open entry conflict has its copy in `conflicts`, and copies exist for no other reason
          const db = local.service.db.sqlite!;
          const open = db.prepare(`SELECT * FROM sync_conflicts WHERE resolved_at IS NULL`).all() as any[];
          const copies = (db.prepare(`SELECT id FROM entries WHERE folder = 'conflicts'`).all() as any[]).map((r) => r.id).sort();
          expect(open.filter((c) => c.kind === 'entry').map((c) => c.copy_entry_id).sort()).toEqual(copies);
          for (const c of open) expect(c.loser).not.toBe('');
          expect(status.conflicts).toBe(open.length);
          // the copies sync like any entry: the remote holds them too
          expect((await remote.service.db.sql<{ id: string }>(`SELECT id FROM entries WHERE folder = 'conflicts'`)).map((r) => r.id).sort()).toEqual(copies);
          // attachment bytes of a losing file are still there to restore
          for (const c of open.filter((x) => x.kind === 'attachment')) {
            const loser = JSON.parse(c.loser);
            if (loser) expect(await local.service.blobs.holds(loser.hash)).toBe(true);
          }
        } finally {
          await Promise.all([local.close(), remote.close()]);
        }
      }),
      // SYNC_PROPERTY_RUNS=1000 for a longer search (about 80 s); SYNC_PROPERTY_SEED=<n> replays a failure
      // (fast-check prints the seed and path of any counterexample).
      {
        numRuns: Number(process.env.SYNC_PROPERTY_RUNS ?? 40),
        ...(process.env.SYNC_PROPERTY_SEED ? { seed: Number(process.env.SYNC_PROPERTY_SEED) } : {}),
      },
    );
  }, 240_000);
});

