import type { Ctx } from '../api/handler.ts';
import { isSyncKind, recordKinds } from './records/index.ts';

/** A synced change's record as parsed, with what its kind worked out for it ahead of the write (RecordKind.prepare). */
export interface PreparedRecord {
  record: unknown;
  ahead: unknown;
}

/** What a pushed or pulled change carries: its kind, id and record (none when deleted). */
interface SyncedChange {
  kind: string;
  id: string;
  deleted?: boolean;
  record?: unknown;
}

/**
 * Parses the changes of a batch or page once, and works out ahead, outside any transaction, what
 * they need that reads nothing of the database: a large document's check by GOBL, on the engine's
 * thread, half a second for 13,000 lines, during which the slice's transaction would otherwise
 * hold the database and every other request wait. A change that does not parse, or whose work
 * fails here, is left to its apply, which parses, checks and fails it as before.
 */
export async function prepareRecords<C extends SyncedChange>(
  ctx: Ctx,
  changes: readonly C[],
  /** whether a change may be written at all (not a repeat, not a conflict): asked only before work worth sparing */
  mayApply: (change: C) => Promise<boolean> = async () => true,
): Promise<Map<C, PreparedRecord>> {
  const prepared = new Map<C, PreparedRecord>();
  for (const change of changes) {
    if (change.deleted || !isSyncKind(change.kind)) continue;
    const kind = recordKinds[change.kind];
    const ref: unknown = kind.refOf(change.id);
    const parsed = ref === undefined ? undefined : kind.schema.safeParse(change.record);
    if (!parsed?.success) continue;
    let ahead: unknown;
    try {
      ahead = await kind.prepare?.(ctx, ref, parsed.data, () => mayApply(change));
    } catch {
      // Its apply does the same work again, and answers the error where it belongs.
    }
    prepared.set(change, { record: parsed.data, ahead });
  }
  return prepared;
}
