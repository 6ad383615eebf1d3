import { canonicalJson } from '../gobl/index.ts';
import type { Ctx } from '../api/handler.ts';
import { SLICE_MS } from '../db/time-slices.ts';
import { letOthersIn } from '../let-others-in.ts';
import { decodeJws, SignatureError } from '../keys/jws.ts';
import { verifierFor, type JwsVerifier } from '../sync/peer-keys.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { sha256Hex } from '../sha256.ts';
import { entryCode } from './code.ts';
import type { SeriesEntryRow, SeriesRow } from './rows.ts';
import { requireSeriesRow } from './series.ts';

export interface VerifyResult {
  valid: boolean;
  /** entries that verified, in order, before the first broken one (all of them when valid) */
  count: number;
  broken?: { id: string; reason: string };
}

const PAGE = 500;

class Broken extends Error {}

/**
 * Walks a series by index and checks each entry against what the service signed:
 * the signature (known kid, matching bytes), every stored field against the
 * signed payload, the index following the one before, and the link to the
 * previous entry by id and by hash of its signed bytes. The first entry that
 * fails is named, with why: an edited row, a removed one (a gap, or a head that
 * names an entry the chain does not reach), rows swapped, a forged signature.
 */
export async function verifySeries(ctx: Ctx, seriesId: string): Promise<VerifyResult> {
  const { db } = ctx.service;
  // The head and the first page are read in one transaction (it writes nothing), so an
  // entry issued while we verify is simply beyond the head we walk to: a series with no
  // entry yet whose first one is issued in between is not taken for a tampered head.
  const { series, first } = await db.tx(async () => {
    const head = await requireSeriesRow(ctx, seriesId);
    return { series: head, first: await entriesAfter(ctx, head, undefined) };
  }, { origin: LOCAL });
  let rows = first;
  // A copy of another instance's series verifies with that issuer's keys, as this company holds them.
  const keys = verifierFor(ctx.service, series.company_id, series.issuer);

  const seriesProblem = await checkSeries(keys, series);
  if (seriesProblem) return { valid: false, count: 0, broken: { id: series.id, reason: seriesProblem } };

  let count = 0;
  let expected = series.start;
  let previous: { id: string; hash: string } | undefined;
  // Each entry costs an ES256 check and a hash (about 85 µs): a long series lets other requests in every slice.
  let sliceStart = performance.now();
  while (rows.length > 0) {
    for (const row of rows) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await letOthersIn();
        sliceStart = performance.now();
      }
      if (series.last_entry_id === null) {
        return broken(count, row.id, 'the series head records no issued entry, yet this entry is stored in it');
      }
      try {
        previous = await checkEntry(keys, series, row, expected, previous);
      } catch (err) {
        if (err instanceof Broken) return broken(count, row.id, err.message);
        throw err;
      }
      count++;
      expected++;
    }
    rows = await entriesAfter(ctx, series, rows[rows.length - 1].idx);
  }

  if (series.last_entry_id !== null && previous?.id !== series.last_entry_id) {
    const reach = previous ? `ends at index ${expected - 1}` : 'holds no entry';
    return broken(count, series.last_entry_id, `missing: the series head names this entry at index ${series.last_index}, but the chain ${reach}`);
  }
  return { valid: true, count };
}

/** A page of the series' entries after `idx`, up to its head. */
function entriesAfter(ctx: Ctx, series: SeriesRow, idx: number | undefined): Promise<SeriesEntryRow[]> {
  const { db } = ctx.service;
  let q = db.q.selectFrom('series_entries').selectAll().where('company_id', '=', series.company_id).where('series_id', '=', series.id);
  if (idx !== undefined) q = q.where('idx', '>', idx);
  if (series.last_entry_id !== null) q = q.where('idx', '<=', series.last_index);
  return db.all(q.orderBy('idx').limit(PAGE));
}

const broken = (count: number, id: string, reason: string): VerifyResult => ({ valid: false, count, broken: { id, reason } });

async function checkSeries(keys: JwsVerifier, series: SeriesRow): Promise<string | undefined> {
  try {
    const sigs = parseSigs(series.sigs);
    const payload = await verifySig(keys, sigs[0]);
    const expected: Record<string, unknown> = {
      series_id: series.id,
      code: series.code,
      prefix: series.prefix,
      padding: series.padding,
      suffix: series.suffix,
      start: series.start,
      iss: series.issuer,
      csig: sigs[1] === undefined ? undefined : sha256Hex(sigs[1]),
    };
    for (const [field, value] of Object.entries(expected)) {
      if (payload[field] !== value) return `series edited: ${field} differs from the signed numbering`;
    }
    return undefined;
  } catch (err) {
    if (err instanceof Broken) return `series ${err.message}`;
    throw err;
  }
}

async function checkEntry(
  keys: JwsVerifier,
  series: SeriesRow,
  row: SeriesEntryRow,
  expected: number,
  previous: { id: string; hash: string } | undefined,
): Promise<{ id: string; hash: string }> {
  const sigs = parseSigs(row.sigs);
  const payload = await verifySig(keys, sigs[0]);

  let meta: unknown;
  try {
    meta = JSON.parse(row.meta);
  } catch {
    throw new Broken('edited: meta is not JSON');
  }
  const stored: Record<string, unknown> = {
    series_id: row.series_id,
    id: row.id,
    index: row.idx,
    code: row.code,
    previous_id: row.previous_id,
    at: row.created_at,
    iss: series.issuer,
    csig: sigs[1] === undefined ? undefined : sha256Hex(sigs[1]),
  };
  for (const [field, value] of Object.entries(stored)) {
    if ((payload[field] ?? undefined) !== (value ?? undefined)) {
      const hint = field === 'index' ? ' (moved or swapped)' : '';
      throw new Broken(`edited: ${field} differs from the signed payload${hint}`);
    }
  }
  if (canonicalJson(payload.meta) !== canonicalJson(meta)) throw new Broken('edited: meta differs from the signed payload');

  if (row.idx > expected) throw new Broken(`gap: index ${expected} is missing before this entry`);
  if (row.idx < expected) throw new Broken(`out of order: index ${row.idx} was expected to be ${expected}`);
  if ((payload.previous_id ?? null) !== (previous?.id ?? null)) {
    throw new Broken(`chain: the signed previous entry is ${String(payload.previous_id)}, not ${previous?.id ?? 'none'}`);
  }
  if (payload.prev !== (previous?.hash ?? '')) throw new Broken('chain: the hash of the previous entry does not match');
  if (row.code !== entryCode(series, row.idx)) throw new Broken('edited: the code does not follow the series numbering');

  return { id: row.id, hash: sha256Hex(decodeJws(sigs[0]).payloadBytes) };
}

function parseSigs(text: string): string[] {
  let sigs: unknown;
  try {
    sigs = JSON.parse(text);
  } catch {
    throw new Broken('edited: sigs is not JSON');
  }
  if (!Array.isArray(sigs) || sigs.length === 0 || !sigs.every((s) => typeof s === 'string')) {
    throw new Broken('edited: sigs must hold the service signature first');
  }
  return sigs as string[];
}

async function verifySig(keys: JwsVerifier, jws: string): Promise<Record<string, unknown>> {
  try {
    return await keys.verify(jws);
  } catch (err) {
    if (!(err instanceof SignatureError)) throw err;
    const what = { 'unknown-kid': 'unknown key', 'bad-signature': 'bad signature', malformed: 'malformed signature' }[err.problem];
    throw new Broken(`${what}: ${err.message}`);
  }
}
