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
 * Works out ahead, outside any transaction, what the changes of a batch or page need that
 * reads nothing of the database: a large document's check by GOBL, on the engine's thread, half a
 * second for 13,000 lines, during which the slice's transaction would otherwise hold the database
 * and every other request wait. A change its kind has nothing to do for ahead, or that does not
 * parse or fails here, is left to its apply, which parses, checks and fails it as before.
 */
export async function prepareRecords<C extends SyncedChange>(
  ctx: Ctx,
  changes: readonly C[],
  /** whether a change may be written at all (not a repeat, not a conflict): the work is not done for nothing */
  mayApply: (change: C) => Promise<boolean> = async () => true,
): Promise<Map<C, PreparedRecord>> {
  const prepared = new Map<C, PreparedRecord>();
  for (const change of changes) {
    if (change.deleted || !isSyncKind(change.kind)) continue;
    const kind = recordKinds[change.kind];
    if (!kind.prepare) continue;
    const ref: unknown = kind.refOf(change.id);
    const parsed = ref === undefined ? undefined : kind.schema.safeParse(change.record);
    if (!parsed?.success || !(await mayApply(change))) continue;
    try {
      const ahead = await kind.prepare(ctx, ref, parsed.data);
      if (ahead !== undefined) prepared.set(change, { record: parsed.data, ahead });
    } catch {
      // Its apply does the same work again, and answers the error where it belongs.
    }
  }
  return prepared;
}
