import { toApiError } from '../api/errors.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { commitOneByOne, commitSlice, type ImportResult, type OnDuplicate, type PreparedItem } from './bulk-commit.ts';
import { prepareNewEntry } from './entries.ts';
import { letOthersIn } from '../let-others-in.ts';

export type { ImportResult, OnDuplicate } from './bulk-commit.ts';

/** One item of an import: a new entry as POST takes it, with an optional id (the contract's item, parsed). */
export type ImportItem = ParsedInput<Operations['importEntries']>['body']['entries'][number];

export interface ImportSummary {
  results: ImportResult[];
  created: number;
  existing: number;
  duplicates: number;
  failed: number;
}

/**
 * How long one slice of an import may work before it lets other requests in: GOBL's
 * work on some items, then the transaction writing them. Well under the 50 ms no
 * request should wait behind it.
 */
export const IMPORT_SLICE_MS = 20;
/** What writing one item is first taken to cost (ms), until a slice has measured it. */
const FIRST_WRITE_MS = 0.5;

async function prepareItem(ctx: Ctx, item: ImportItem, index: number): Promise<PreparedItem> {
  try {
    return { index, p: await prepareNewEntry(ctx, item.id, item) };
  } catch (err) {
    return { index, error: toApiError(err).toBody() };
  }
}

/** Writes prepared items in one transaction; should the bulk write fail, the slice is written again item by item. */
async function commit(ctx: Ctx, items: PreparedItem[], onDuplicate: OnDuplicate, seenFiles: Map<string, string>): Promise<ImportResult[]> {
  const { db } = ctx.service;
  const files = new Map(seenFiles);
  try {
    const results = await db.tx(() => commitSlice(ctx, items, onDuplicate, files), { origin: LOCAL });
    for (const [hash, id] of files) seenFiles.set(hash, id);
    return results;
  } catch {
    return db.tx(() => commitOneByOne(ctx, items, onDuplicate, seenFiles), { origin: LOCAL });
  }
}

function summary(results: ImportResult[]): ImportSummary {
  const count = (s: ImportResult['status']) => results.filter((r) => r.status === s).length;
  return { results, created: count('created'), existing: count('exists'), duplicates: count('duplicate'), failed: count('error') };
}

/**
 * Stores many documents at once. Each item goes through GOBL as a single POST would
 * (built when partial, checked when complete), then the batch is written in one
 * transaction (bulk-commit.ts). Each item stands alone: an invalid or conflicting
 * one is reported in its result and the others are still stored. Replaying the same
 * batch changes nothing.
 *
 * A document the company already holds under another id (the same digest, or for a
 * scanned file the same bytes under any name) is a duplicate: stored and named in
 * `duplicate_of` with `store`, left out with `skip` (the caller then decides for all
 * of them at once, and sends those it wants kept again with `store`).
 */
export async function importEntries(ctx: Ctx, items: ImportItem[], onDuplicate: OnDuplicate = 'store'): Promise<ImportSummary> {
  const prepared: PreparedItem[] = [];
  for (const [index, item] of items.entries()) prepared.push(await prepareItem(ctx, item, index));
  return summary(await commit(ctx, prepared, onDuplicate, new Map()));
}

/**
 * importEntries for a request: the same results, made in slices of about
 * IMPORT_SLICE_MS (GOBL's work on some items, then their transaction), yielding to
 * the event loop between slices so that a thousand-entry import never holds up
 * another request for long. A slice stops taking items when the time spent plus what
 * writing them will take (as the slices before measured it) reaches the budget.
 * Items written in one slice are seen by the next, as one by one (a replayed id, a
 * key, a digest).
 */
export async function importEntriesSliced(ctx: Ctx, items: ImportItem[], onDuplicate: OnDuplicate = 'store', sliceMs = IMPORT_SLICE_MS): Promise<ImportSummary> {
  const results: ImportResult[] = [];
  const seenFiles = new Map<string, string>();
  let writeMsPerItem = FIRST_WRITE_MS;
  let slice: PreparedItem[] = [];
  // The request's body was just read and checked in this same turn: let others in before the first slice.
  await letOthersIn();
  let started = performance.now();
  for (let index = 0; index < items.length; index++) {
    slice.push(await prepareItem(ctx, items[index], index));
    const last = index === items.length - 1;
    if (last || performance.now() - started + slice.length * writeMsPerItem >= sliceMs) {
      // GOBL's work and the write are two turns: a request that came meanwhile waits for one of them, not both.
      await letOthersIn();
      const writing = performance.now();
      results.push(...(await commit(ctx, slice, onDuplicate, seenFiles)));
      // A slow write (a commit at a million entries, a checkpoint) shrinks the next slices at once; a fast one lets them grow back slowly.
      const measured = (performance.now() - writing) / slice.length;
      writeMsPerItem = Math.max(measured, 0.75 * writeMsPerItem + 0.25 * measured);
      slice = [];
      if (!last) await letOthersIn();
      started = performance.now();
    }
  }
  return summary(results);
}
