import { canonicalJson } from '../gobl/index.ts';
import { conflict, validationError } from '../api/errors.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { chainHashOf, sortedMeta, type EntryPayload } from './chain.ts';
import { sha256Hex } from '../sha256.ts';
import { entryCode } from './code.ts';
import { seriesEntryView, type SeriesEntryRow, type SeriesEntryView } from './rows.ts';
import { refuseCopy, refuseHeld, requireSeriesRowForUpdate } from './series.ts';

/** A number to issue as PUT takes it: the contract's body, parsed. */
export type IssueInput = ParsedInput<Operations['putSeriesEntry']>['body'];

// Raw SQL: a series entry is the hottest write there is, and compiling its queries each time showed.
const ENTRY_SQL = 'SELECT * FROM series_entries WHERE company_id = ? AND id = ?';
const PREVIOUS_SQL = 'SELECT id, sigs FROM series_entries WHERE company_id = ? AND id = ?';
const INSERT_SQL = `INSERT INTO series_entries (id, company_id, series_id, idx, code, meta, previous_id, sigs, request_hash, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const MOVE_HEAD_SQL = 'UPDATE series SET last_index = ?, last_entry_id = ?, updated_at = ? WHERE company_id = ? AND id = ?';

export async function putSeriesEntry(ctx: Ctx, seriesId: string, id: string, input: IssueInput): Promise<SeriesEntryView> {
  return seriesEntryView(await issueEntry(ctx, seriesId, id, input));
}

/**
 * Issues the next number of a series, all in one transaction: the index after the
 * head (or `start`), its code, the link to the previous entry and the hash of its
 * signed payload, the service's signature, then the head moves. On SQLite the
 * transaction is IMMEDIATE and holds the one connection until it ends, so two
 * requests can never read the same head: numbers are gapless and unique however many
 * clients call at once. On PostgreSQL, where transactions run at once, the series row
 * is locked (FOR UPDATE) before its head is read, to the same effect. The signature is
 * node:crypto's synchronous one (keys/jws.ts): nothing but the database is awaited
 * inside the transaction.
 *
 * The same id with the same body answers the entry already issued (a retry never
 * takes a second number); the same id with another body is a 409. Safe to call
 * inside another transaction (it becomes a savepoint): the workflow step does.
 */
export async function issueEntry(ctx: Ctx, seriesId: string, id: string, input: IssueInput): Promise<SeriesEntryRow> {
  if (input.id !== undefined && input.id !== id) {
    throw validationError('body id must equal the entry id in the path', { '$.id': `must equal ${id}` });
  }
  const { db, keys } = ctx.service;
  const meta = sortedMeta(input.meta ?? {});
  const requestHash = sha256Hex(canonicalJson({ meta, sig: input.sig }));

  return db.tx(async () => {
    // The head is read locked (PostgreSQL): a concurrent issue waits here, then numbers after this one.
    const series = await requireSeriesRowForUpdate(ctx, seriesId);
    const company = series.company_id;
    // Entry ids are unique within a company: another company's entry under this id is no conflict.
    const existing = await db.sqlFirst<SeriesEntryRow>(ENTRY_SQL, [company, id]);
    if (existing) {
      if (existing.series_id === seriesId && existing.request_hash === requestHash) return existing;
      throw conflict(
        existing.series_id === seriesId
          ? `series entry ${id} was already issued (${existing.code}) with a different body`
          : `series entry ${id} already exists in another series`,
      );
    }
    await refuseCopy(ctx, series, 'issue entries');
    await refuseHeld(ctx, series);

    const first = series.last_entry_id === null;
    const index = first ? series.start : series.last_index + 1;
    if (!Number.isSafeInteger(index)) throw conflict(`series ${seriesId} has no numbers left`);
    const previous = first
      ? undefined
      : await db.sqlFirst<{ id: string; sigs: string }>(PREVIOUS_SQL, [company, series.last_entry_id]);
    if (!first && !previous) throw conflict(`series ${seriesId} is damaged: its last entry ${series.last_entry_id} is missing`);

    const at = nowIso();
    const payload: EntryPayload = {
      series_id: seriesId,
      id,
      index,
      code: entryCode(series, index),
      previous_id: previous?.id ?? null,
      prev: previous ? chainHashOf((JSON.parse(previous.sigs) as string[])[0]) : '',
      meta,
      at,
      // the series' issuer: this install, possibly under the id it had when it created the series
      iss: series.issuer,
      ...(input.sig ? { csig: sha256Hex(input.sig) } : {}),
    };
    const row: SeriesEntryRow = {
      id,
      company_id: company,
      series_id: seriesId,
      idx: index,
      code: payload.code,
      meta: JSON.stringify(meta),
      previous_id: payload.previous_id,
      sigs: JSON.stringify([keys.sign(payload), ...(input.sig ? [input.sig] : [])]),
      request_hash: requestHash,
      created_at: at,
      updated_at: at,
    };
    await db.sqlRun(INSERT_SQL, [row.id, row.company_id, row.series_id, row.idx, row.code, row.meta, row.previous_id, row.sigs, row.request_hash, row.created_at, row.updated_at]);
    await db.sqlRun(MOVE_HEAD_SQL, [index, id, at, company, seriesId]);
    return row;
  }, { origin: db.origin ?? LOCAL });
}
