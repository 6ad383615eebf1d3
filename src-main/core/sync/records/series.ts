import { ApiError, validationError } from '../../api/errors.ts';
import { seriesRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { nowIso } from '../../clock.ts';
import { saveSeriesCopy } from '../../sequence/copies.ts';
import type { SeriesRow } from '../../sequence/rows.ts';
import { uuidRef, type RecordKind } from './kind.ts';
import { checkSeriesSigned } from './series-signature.ts';

type SeriesRecord = SyncRecordOf['series'];

const NUMBERING = ['code', 'prefix', 'padding', 'suffix', 'start'] as const;

/**
 * Series are single-writer: the instance named `issuer` is the only one that
 * changes one. Elsewhere the series is a read-only copy that takes the issuer's
 * state as signed; the copy's head moves only as entries arrive, never here.
 */
export const seriesKind: RecordKind<SeriesRecord, string> = {
  kind: 'series',
  schema: seriesRecord,
  refOf: uuidRef,
  async read(ctx, id) {
    const { db } = ctx.service;
    const row = await db.first(db.q.selectFrom('series').selectAll().where('company_id', '=', ctx.caller.companyKey).where('id', '=', id));
    return row ? seriesRecordOf(row) : undefined;
  },
  content: (r) => ({
    name: r.name, description: r.description, code: r.code, prefix: r.prefix, padding: r.padding, suffix: r.suffix,
    start: r.start, issuer: r.issuer, sigs: r.sigs,
  }),
  async apply(ctx, id, record) {
    if (record === null) throw validationError('series are never deleted', { '$.deleted': 'not supported for series' });
    if (record.id !== id) throw validationError('record id must equal the id in the path', { '$.record.id': `must equal ${id}` });
    const { db, instanceId } = ctx.service;
    const companyKey = ctx.caller.companyKey;
    // Another company's series under the same id is another series: never looked at, never changed.
    const row = await db.first(db.q.selectFrom('series').selectAll().where('company_id', '=', companyKey).where('id', '=', id));
    if (row && row.issuer === instanceId) {
      throw new ApiError('forbidden', `series ${id} is issued by this instance; a copy elsewhere cannot change it`);
    }
    if (row && row.issuer !== record.issuer) throw new ApiError('forbidden', `series ${id} is issued by ${row.issuer}; its issuer never changes`);
    // Always checked, one naming this instance as its issuer too: a remote cannot plant
    // a series "issued" here that this instance never signed.
    await checkSeriesSigned(ctx.service, companyKey, record);
    if (row && row.last_entry_id !== null && NUMBERING.some((k) => row[k] !== record[k])) {
      throw new ApiError('forbidden', `series ${id} has entries; its numbering never changes`);
    }
    await saveSeriesCopy(ctx, id, record.issuer, new Date(record.created_at).toISOString(), {
      name: record.name,
      description: record.description,
      code: record.code,
      prefix: record.prefix,
      padding: record.padding,
      suffix: record.suffix,
      start: record.start,
      sigs: JSON.stringify(record.sigs),
      updated_at: nowIso(),
    });
  },
};

function seriesRecordOf(row: SeriesRow): SeriesRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    code: row.code,
    prefix: row.prefix,
    padding: row.padding,
    suffix: row.suffix,
    start: row.start,
    issuer: row.issuer,
    sigs: JSON.parse(row.sigs) as string[],
    created_at: row.created_at,
  };
}
