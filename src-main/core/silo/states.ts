import type { Selectable } from 'kysely';
import { canonicalJson } from '../gobl/index.ts';
import { conflict, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { EntryStatesTable } from '../db/tables.ts';
import { parseFaults } from '../gobl/fault.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { requireEntryRow } from './entries.ts';
import { impliedFirstState, storeImpliedFirstState } from './implied-first-state.ts';

type StateRow = Selectable<EntryStatesTable>;

export interface StateInput {
  key: string;
  meta?: Record<string, string>;
  notes?: string;
}

/** How far ahead of this machine's clock a state's time may be (another client's clock runs fast). */
const FUTURE_SKEW_MS = 5 * 60 * 1000;
/** Enough history for any entry a person works on; a list this long is a loop somewhere. */
const MAX_STATES = 1000;

/** A state in the hosted service's SiloState shape. */
export function stateView(row: StateRow) {
  return {
    id: `${row.entry_id}:${row.at}`,
    key: row.key,
    created_at: row.at,
    src: row.src,
    ...(row.src_id ? { src_id: row.src_id } : {}),
    ...(row.notes ? { notes: row.notes } : {}),
    meta: JSON.parse(row.meta) as Record<string, string>,
    faults: parseFaults(row.faults),
  };
}

export type StateView = ReturnType<typeof stateView>;

/** The entry's states, newest first: its current state, then each one before it. */
export async function listEntryStates(ctx: Ctx, entryId: string): Promise<{ list: StateView[] }> {
  const { db } = ctx.service;
  const entry = await requireEntryRow(ctx, entryId);
  // By company and entry (the index's order): an entry id is only unique within its company (issue 12).
  const rows = await db.all(
    db.q
      .selectFrom('entry_states')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('entry_id', '=', entryId)
      .orderBy('at', 'desc')
      .orderBy('seq', 'desc')
      .limit(MAX_STATES),
  );
  // None stored: its state never changed, and the one it has is its first (implied-first-state.ts).
  return { list: (rows.length > 0 ? rows : [impliedFirstState(entry)]).map(stateView) };
}

/**
 * Records that the entry took `input.key` at `at` (now, for POST). The newest state by
 * time is the entry's `state`: a state recorded with an earlier time joins the history
 * without changing it. PUT under a time already recorded through this API answers that
 * state when the body is the same, and is a 409 when it is not. A time ahead of this
 * machine's clock is refused, or it would hide every later change.
 */
export function putEntryState(ctx: Ctx, entryId: string, input: StateInput, at?: string): Promise<StateView> {
  const { db } = ctx.service;
  const now = nowIso();
  const when = at === undefined ? now : new Date(at).toISOString();
  if (at !== undefined && Date.parse(when) > Date.parse(now) + FUTURE_SKEW_MS) {
    throw validationError('the state time is in the future', { at: 'must not be later than now' });
  }
  const meta = canonicalJson(input.meta ?? {});
  const notes = input.notes ?? '';
  return db.tx(async () => {
    // Locked: two states recorded at once take turns, each reading the other's as the newest (PostgreSQL).
    const entry = await requireEntryRow(ctx, entryId, 'for-update');
    if (at !== undefined) {
      const same = await db.first(
        db.q
          .selectFrom('entry_states')
          .selectAll()
          .where('company_id', '=', entry.company_id)
          .where('entry_id', '=', entryId)
          .where('at', '=', when)
          .where('src', '=', 'api'),
      );
      if (same) {
        if (same.key === input.key && same.notes === notes && canonicalJson(JSON.parse(same.meta)) === meta) return stateView(same);
        throw conflict(`entry ${entryId} already has a state at ${when}, with another body`);
      }
    }
    // Recorded beside it, the first state stops being implied: it is stored first, as it was.
    await storeImpliedFirstState(db, entry.company_id, entryId);
    const values = {
      entry_id: entryId,
      company_id: entry.company_id,
      at: when,
      key: input.key,
      src: 'api',
      src_id: ctx.caller.tokenId ?? '',
      notes,
      meta,
    };
    const inserted = (await db.first(db.q.insertInto('entry_states').values(values).returning('seq')))!;
    const newest = (await db.first(
      db.q
        .selectFrom('entry_states')
        .select('key')
        .where('company_id', '=', entry.company_id)
        .where('entry_id', '=', entryId)
        .orderBy('at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1),
    ))!;
    if (newest.key !== entry.state) {
      // The entry's own state follows its newest one; the trigger that records state changes sees this one recorded already.
      await db.run(
        db.q
          .updateTable('entries')
          .set((eb) => ({ state: newest.key, version: eb('version', '+', 1), updated_at: now }))
          .where('company_id', '=', entry.company_id)
          .where('id', '=', entryId),
      );
    }
    return stateView({ ...values, seq: inserted.seq, faults: '[]' });
  }, { origin: LOCAL });
}
