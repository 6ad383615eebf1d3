import { ApiError, notFound, validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { seriesEntryRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { canonicalJson } from '../../gobl/index.ts';
import { chainHashOf, sortedMeta } from '../../sequence/chain.ts';
import { sha256Hex } from '../../sha256.ts';
import { entryCode } from '../../sequence/code.ts';
import { appendCopyEntry } from '../../sequence/copies.ts';
import type { SeriesEntryRow } from '../../sequence/rows.ts';
import { uuidRef, type RecordKind } from './kind.ts';
import { SeriesForked } from '../forks.ts';
import { verifyIssuerJws } from '../peer-keys.ts';
import { checkSeriesEntrySigned } from './series-signature.ts';

type SeriesEntryRecord = SyncRecordOf['series_entry'];


/**
 * A copy appends an issued entry only where the issuer put it: the next index,
 * linked to the copy's current head, signed by the issuer over exactly these
 * fields and the previous entry's hash. An entry that would leave a gap waits
 * (409, tried again later); one that would fork or renumber the chain is refused.
 * Entries never change once issued.
 */
export const seriesEntryKind: RecordKind<SeriesEntryRecord, string> = {
  kind: 'series_entry',
  schema: seriesEntryRecord,
  refOf: uuidRef,
  parentOf: (_id, record) => (record ? { kind: 'series', id: record.series_id } : undefined),
  async read(ctx, id) {
    const { db } = ctx.service;
    const row = await db.first(db.q.selectFrom('series_entries').selectAll().where('company_id', '=', ctx.caller.companyKey).where('id', '=', id));
    return row ? seriesEntryRecordOf(row) : undefined;
  },
  content: (r) => ({ series_id: r.series_id, index: r.index, code: r.code, meta: r.meta, previous_id: r.previous_id ?? null, sigs: r.sigs }),
  async apply(ctx, id, record) {
    if (record === null) throw validationError('series entries are never deleted', { '$.deleted': 'not supported for series entries' });
    if (record.id !== id) throw validationError('record id must equal the id in the path', { '$.record.id': `must equal ${id}` });
    const { db } = ctx.service;
    // Everything by the caller's company: another company's series and entries under the same ids are never read or changed.
    const companyKey = ctx.caller.companyKey;
    const entries = db.q.selectFrom('series_entries').where('company_id', '=', companyKey);
    if (await db.first(entries.select('id').where('id', '=', id))) {
      throw new ApiError('forbidden', `series entry ${id} already exists with other content; issued entries never change`);
    }
    const series = await db.first(
      db.q.selectFrom('series').selectAll().where('company_id', '=', companyKey).where('id', '=', record.series_id),
    );
    if (!series) throw notFound(`series ${record.series_id}`);
    // A series this instance issues takes an entry only signed with its own keys: one a copy of
    // this data folder issued (it holds the same keys) before it was re-identified, in its chain.
    // Nobody else can make one; a remote's junk is refused by the signature check below.
    const expected = series.last_entry_id === null ? series.start : series.last_index + 1;
    if (record.index > expected) {
      throw new ApiError('conflict', `series ${series.id} is at index ${expected - 1}; entry ${record.index} waits for the ones before it`);
    }
    if (record.index < expected || (record.previous_id ?? null) !== series.last_entry_id) {
      // Signed by the issuer, yet not on our chain: the issuer numbered twice. Kept, not dropped.
      if (await signedByIssuer(ctx, series.issuer, record)) {
        const taken = await db.first(entries.select('id').where('series_id', '=', series.id).where('idx', '=', record.index));
        throw new SeriesForked(series.id, record.index, taken?.id ?? null, record);
      }
      throw new ApiError('forbidden', `index ${record.index} of series ${series.id} is already taken here; a chain is never forked or renumbered`);
    }
    if (record.code !== entryCode(series, record.index)) {
      throw validationError('the code does not follow the series numbering', { '$.record.code': `must be ${entryCode(series, record.index)}` });
    }
    const previous = series.last_entry_id
      ? await db.first(entries.select('sigs').where('id', '=', series.last_entry_id))
      : undefined;
    const previousHash = previous ? chainHashOf((JSON.parse(previous.sigs) as string[])[0]) : '';
    await checkSeriesEntrySigned(ctx.service, companyKey, series.issuer, record, previousHash);

    const meta = sortedMeta(record.meta);
    await appendCopyEntry(ctx, series, {
      id,
      company_id: companyKey,
      series_id: series.id,
      idx: record.index,
      code: record.code,
      meta: JSON.stringify(meta),
      previous_id: record.previous_id ?? null,
      sigs: JSON.stringify(record.sigs),
      // as the issuer computes it, so a replay of the issuing request reads the same everywhere
      request_hash: sha256Hex(canonicalJson({ meta, sig: record.sigs[1] })),
      // stored exactly as signed: the chain check compares it with the payload
      created_at: record.created_at,
      updated_at: record.created_at,
    });
  },
};

/** The issuer's valid signature over this very entry (its chain link aside): a fork worth keeping, not junk. */
async function signedByIssuer(ctx: Ctx, issuer: string, record: SeriesEntryRecord): Promise<boolean> {
  try {
    const payload = await verifyIssuerJws(ctx.service, ctx.caller.companyKey, issuer, record.sigs[0]);
    return payload.id === record.id && payload.series_id === record.series_id && payload.index === record.index && payload.iss === issuer;
  } catch {
    return false;
  }
}

function seriesEntryRecordOf(row: SeriesEntryRow): SeriesEntryRecord {
  return {
    id: row.id,
    series_id: row.series_id,
    index: row.idx,
    code: row.code,
    meta: JSON.parse(row.meta) as Record<string, string>,
    ...(row.previous_id ? { previous_id: row.previous_id } : {}),
    sigs: JSON.parse(row.sigs) as string[],
    created_at: row.created_at,
  };
}
