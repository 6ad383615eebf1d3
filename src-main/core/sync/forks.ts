import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { ApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncRecordOf } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { isOwnIdentity } from '../keys/identity.ts';
import { holdSeries } from '../sequence/holds.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

type SeriesEntryRecord = SyncRecordOf['series_entry'];

/**
 * A series entry, validly signed by the series' issuer, that takes an index this
 * side already holds with another entry: the issuer numbered twice (a restored or
 * copied data folder that issued before it caught up). Neither chain is dropped:
 * this side keeps its chain, the other entry is kept in `sync_forks`, and both are
 * shown. Thrown from inside the apply; the caller records it once the apply's
 * savepoint has rolled back (`recordFork`).
 */
export class SeriesForked extends ApiError {
  readonly seriesId: string;
  readonly index: number;
  readonly localEntryId: string | null;
  readonly record: SeriesEntryRecord;

  constructor(seriesId: string, index: number, localEntryId: string | null, record: SeriesEntryRecord) {
    super(
      'forbidden',
      `fork: index ${index} of series ${seriesId} is already taken here${localEntryId ? ` by entry ${localEntryId}` : ''}; ` +
        'the other entry is kept with this chain (see /sync/v1/forks) and numbering waits until someone sorts it out',
    );
    this.seriesId = seriesId;
    this.index = index;
    this.localEntryId = localEntryId;
    this.record = record;
  }
}

/**
 * Keeps the other chain's entry beside ours. A series this install numbers is put
 * on hold: issuing more would only lengthen the fork.
 */
export async function recordFork(ctx: Ctx, fork: SeriesForked, origin: string, direction: 'push' | 'pull'): Promise<void> {
  const { db } = ctx.service;
  await db.tx(async () => {
    await db.run(
      db.q
        .insertInto('sync_forks')
        .values({
          id: uuidv7(),
          company_id: ctx.caller.companyKey,
          series_id: fork.seriesId,
          idx: fork.index,
          local_entry_id: fork.localEntryId,
          other_entry_id: fork.record.id,
          other: JSON.stringify(fork.record),
          origin,
          direction,
          detected_at: nowIso(),
        })
        .onConflict((oc) => oc.doNothing()),
    );
    const companyKey = ctx.caller.companyKey;
    const series = await db.first(db.q.selectFrom('series').select('issuer').where('company_id', '=', companyKey).where('id', '=', fork.seriesId));
    if (series && (await isOwnIdentity(db, ctx.service.instanceId, series.issuer))) {
      await holdSeries(db, companyKey, fork.seriesId, 'fork');
    }
  }, { origin: LOCAL });
}

export async function listForks(db: Db, companyKey: CompanyKey) {
  const rows = await db.all(
    db.q.selectFrom('sync_forks').selectAll().where('company_id', '=', companyKey).orderBy('series_id').orderBy('idx').orderBy('detected_at'),
  );
  return rows.map((r) => ({
    id: r.id,
    series_id: r.series_id,
    index: r.idx,
    ...(r.local_entry_id ? { local_entry_id: r.local_entry_id } : {}),
    other_entry_id: r.other_entry_id,
    other: JSON.parse(r.other) as SeriesEntryRecord,
    origin: r.origin,
    direction: r.direction as 'push' | 'pull',
    detected_at: r.detected_at,
  }));
}

export async function forkCount(db: Db, companyKey: CompanyKey): Promise<number> {
  return (await db.first(db.q.selectFrom('sync_forks').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', companyKey)))!.n;
}
