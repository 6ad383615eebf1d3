import { canonicalJson } from '../gobl/index.ts';
import { conflict, notFound, validationError } from '../api/errors.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { isOwnIdentity } from '../keys/identity.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { SeriesPayload } from './chain.ts';
import { sha256Hex } from '../sha256.ts';
import { holdOf, releaseHold } from './holds.ts';
import { seriesView, type SeriesRow, type SeriesView } from './rows.ts';

/** A series as PUT takes it: the contract's body, parsed (defaults filled in). */
export type SeriesInput = ParsedInput<Operations['putSeries']>['body'];

export async function findSeriesRow(ctx: Ctx, id: string): Promise<SeriesRow | undefined> {
  const { db } = ctx.service;
  return db.first(db.q.selectFrom('series').selectAll().where('company_id', '=', ctx.caller.companyKey).where('id', '=', id));
}

export async function requireSeriesRow(ctx: Ctx, id: string): Promise<SeriesRow> {
  const row = await findSeriesRow(ctx, id);
  if (!row) throw notFound(`series ${id}`);
  return row;
}

// Raw SQL: read for every number issued. SQLite's IMMEDIATE transaction already holds the only writer's lock.
const SERIES_SQLITE = 'SELECT * FROM series WHERE company_id = ? AND id = ?';
const SERIES_FOR_UPDATE_PG = `${SERIES_SQLITE} FOR UPDATE`;

/**
 * The series, read to be written in the caller's transaction (its head moved, its numbering
 * changed, its hold set). On SQLite a write transaction is the only one, so the row read is
 * the row written; on PostgreSQL transactions run at once, so the row is locked (FOR UPDATE)
 * until the transaction ends: a second issue waits, then reads the head the first one left.
 */
export async function findSeriesRowForUpdate(ctx: Ctx, id: string): Promise<SeriesRow | undefined> {
  const { db } = ctx.service;
  return db.sqlFirst<SeriesRow>(db.dialect === 'postgres' ? SERIES_FOR_UPDATE_PG : SERIES_SQLITE, [ctx.caller.companyKey, id]);
}

export async function requireSeriesRowForUpdate(ctx: Ctx, id: string): Promise<SeriesRow> {
  const row = await findSeriesRowForUpdate(ctx, id);
  if (!row) throw notFound(`series ${id}`);
  return row;
}

/**
 * Single writer: only the instance that issues a series may change it; elsewhere it
 * is a read-only copy. This install under a former id (it was re-identified after a
 * restore or copy) is still that instance: it holds the same keys.
 */
export async function refuseCopy(ctx: Ctx, series: SeriesRow, doing: string): Promise<void> {
  if (!(await isOwnIdentity(ctx.service.db, ctx.service.instanceId, series.issuer))) {
    throw conflict(
      `series ${series.id} is issued by instance ${series.issuer}; this instance holds a read-only copy and cannot ${doing}`,
    );
  }
}

/** Numbering waits while the series is on hold (see holds.ts): a number issued now could already be taken. */
export async function refuseHeld(ctx: Ctx, series: SeriesRow): Promise<void> {
  const hold = await holdOf(ctx.service.db, series.company_id, series.id);
  if (!hold) return;
  throw conflict(
    hold.reason === 'restored'
      ? `series ${series.id} is on hold since ${hold.since}: this data folder was found restored from a backup or copied, so ` +
          'the remote may already hold later numbers of it; sync until it has caught up with the remote, then number again'
      : `series ${series.id} is on hold since ${hold.since}: its chain forked (two entries at one index, see /sync/v1/forks); ` +
          'numbering waits until that is sorted out',
  );
}

export async function listSeries(ctx: Ctx): Promise<{ list: SeriesView[] }> {
  const { db } = ctx.service;
  const rows = await db.all(
    db.q.selectFrom('series').selectAll().where('company_id', '=', ctx.caller.companyKey).orderBy('created_at').orderBy('id'),
  );
  const list: SeriesView[] = [];
  for (const row of rows) list.push(await withHold(ctx, seriesView(row)));
  return { list };
}

export const getSeries = async (ctx: Ctx, id: string): Promise<SeriesView> => withHold(ctx, seriesView(await requireSeriesRow(ctx, id)));

async function withHold(ctx: Ctx, view: SeriesView): Promise<SeriesView> {
  const hold = await holdOf(ctx.service.db, ctx.caller.companyKey, view.id);
  return hold ? { ...view, hold } : view;
}

/** The owner lets numbering go on (a fork was sorted out by hand); a series not on hold is answered as it is. */
export async function releaseSeriesHold(ctx: Ctx, id: string): Promise<SeriesView> {
  const row = await requireSeriesRow(ctx, id);
  await refuseCopy(ctx, row, 'release its numbering');
  await releaseHold(ctx.service.db, row.company_id, id);
  return seriesView(row);
}

const NUMBERING = ['code', 'prefix', 'padding', 'suffix', 'start'] as const;

/**
 * Creates a series, or answers it again for the same body (idempotent PUT). Another
 * body replaces its fields, under the rule every change follows (`updateSeries`).
 * The id is the company's own: another company's series under it is none of this one's business.
 */
export async function putSeries(ctx: Ctx, id: string, input: SeriesInput): Promise<SeriesView> {
  if (input.id !== undefined && input.id !== id) {
    throw validationError('body id must equal the series id in the path', { '$.id': `must equal ${id}` });
  }
  const { db } = ctx.service;
  const { name, description, code, prefix, padding, suffix, start, sig } = input;
  const requestHash = sha256Hex(canonicalJson({ name, description, code, prefix, padding, suffix, start, sig }));

  const row = await db.tx(async () => {
    // Locked: an issue under way must not see its numbering change (PostgreSQL; a twin insert retries, pg-db.ts).
    const existing = await findSeriesRowForUpdate(ctx, id);
    if (!existing) return insertSeries(ctx, id, input, requestHash);
    if (existing.request_hash === requestHash) return existing;
    return updateSeries(ctx, existing, input, requestHash);
  }, { origin: LOCAL });
  return seriesView(row);
}

/** What PATCH may change: the contract's body, parsed. */
export type SeriesPatch = ParsedInput<Operations['patchSeries']>['body'];

/**
 * Changes some fields. The creating request's hash is kept, so a late retry of the
 * original PUT still answers the series as it now is instead of undoing this.
 */
export async function patchSeries(ctx: Ctx, id: string, patch: SeriesPatch): Promise<SeriesView> {
  const { db } = ctx.service;
  const row = await db.tx(async () => {
    const existing = await requireSeriesRowForUpdate(ctx, id);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const next: SeriesInput = { ...inputOf(existing), ...defined };
    const same = (Object.keys(defined) as Array<keyof SeriesPatch>).every((k) => existing[k] === next[k]);
    if (same) return existing;
    return updateSeries(ctx, existing, next, existing.request_hash);
  }, { origin: LOCAL });
  return seriesView(row);
}

/**
 * Name and description may always change on the issuing instance. The numbering
 * (code, prefix, padding, suffix, start, client sig) only while no entry has been
 * issued: every issued code and signature was made from it.
 */
async function updateSeries(ctx: Ctx, existing: SeriesRow, next: SeriesInput, requestHash: string): Promise<SeriesRow> {
  await refuseCopy(ctx, existing, 'change it');
  const current = inputOf(existing);
  const changed: string[] = NUMBERING.filter((k) => current[k] !== next[k]);
  if (current.sig !== next.sig) changed.push('sig');
  if (changed.length > 0 && existing.last_entry_id !== null) {
    const issued = existing.last_index - existing.start + 1;
    throw conflict(
      `series ${existing.id} has already issued ${issued} ${issued === 1 ? 'entry' : 'entries'}, so its numbering ` +
        `(${changed.join(', ')}) can no longer change; only name and description can`,
    );
  }
  const at = nowIso();
  const values = {
    name: next.name,
    description: next.description,
    request_hash: requestHash,
    updated_at: at,
    ...(changed.length > 0 ? numberingValues(ctx, existing.id, existing.issuer, next, at) : {}),
  };
  const { db } = ctx.service;
  await db.run(db.q.updateTable('series').set(values).where('company_id', '=', existing.company_id).where('id', '=', existing.id));
  return { ...existing, ...values };
}

function inputOf(row: SeriesRow): SeriesInput {
  const clientSig = (JSON.parse(row.sigs) as string[])[1];
  return {
    name: row.name,
    description: row.description,
    code: row.code,
    prefix: row.prefix,
    padding: row.padding,
    suffix: row.suffix,
    start: row.start,
    ...(clientSig !== undefined ? { sig: clientSig } : {}),
  };
}

async function insertSeries(ctx: Ctx, id: string, input: SeriesInput, requestHash: string): Promise<SeriesRow> {
  const at = nowIso();
  const row: SeriesRow = {
    id,
    company_id: ctx.caller.companyKey,
    name: input.name,
    description: input.description,
    ...numberingValues(ctx, id, ctx.service.instanceId, input, at),
    issuer: ctx.service.instanceId,
    last_index: 0,
    last_entry_id: null,
    request_hash: requestHash,
    created_at: at,
    updated_at: at,
  };
  await ctx.service.db.run(ctx.service.db.q.insertInto('series').values(row));
  return row;
}

/** The numbering columns and the service's signature over them (client's after it). */
function numberingValues(ctx: Ctx, id: string, issuer: string, input: SeriesInput, at: string) {
  const payload: SeriesPayload = {
    series_id: id,
    code: input.code,
    prefix: input.prefix,
    padding: input.padding,
    suffix: input.suffix,
    start: input.start,
    iss: issuer,
    at,
    ...(input.sig ? { csig: sha256Hex(input.sig) } : {}),
  };
  const sigs = [ctx.service.keys.sign(payload), ...(input.sig ? [input.sig] : [])];
  return {
    code: input.code,
    prefix: input.prefix,
    padding: input.padding,
    suffix: input.suffix,
    start: input.start,
    sigs: JSON.stringify(sigs),
  };
}
