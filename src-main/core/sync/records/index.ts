import type { Ctx } from '../../api/handler.ts';
import { canonicalJson } from '../../gobl/index.ts';
import { canonicalSha256PartsInTurns } from '../../gobl/canonical-in-turns.ts';
import { isLargeDocument } from '../../gobl/engine-thread/index.ts';
import type { SyncKind } from '../change-log.ts';
import type { ChangeRow } from '../change-rows.ts';
import { attachmentKind } from './attachment.ts';
import { entryKind } from './entry.ts';
import type { ReadOptions, RecordKind } from './kind.ts';
import { metaKind } from './meta.ts';
import { seriesEntryKind } from './series-entry.ts';
import { seriesKind } from './series.ts';
import { trustedJwksKind } from './trusted-jwks.ts';
import { workflowKind } from './workflow.ts';

export const recordKinds: Record<SyncKind, RecordKind> = {
  entry: entryKind,
  attachment: attachmentKind,
  meta: metaKind,
  workflow: workflowKind,
  series: seriesKind,
  series_entry: seriesEntryKind,
  trusted_jwks: trustedJwksKind,
};

export const isSyncKind = (kind: string): kind is SyncKind => Object.hasOwn(recordKinds, kind);

/** Two states of a record are the same (undefined or null: deleted). A new record costs no serialising. */
export function sameState(kind: SyncKind, a: unknown, b: unknown): boolean {
  const absentA = a === undefined || a === null;
  const absentB = b === undefined || b === null;
  if (absentA || absentB) return absentA && absentB;
  return contentKey(kind, a) === contentKey(kind, b);
}

/**
 * sameState, with a large state (an entry whose document GOBL works on off the event loop) hashed
 * a piece at a time on each side and the hashes compared: written out whole, two 4.4 MB documents
 * held the event loop some 80 ms in the transaction that applies a synced change.
 */
export async function sameStateInTurns(kind: SyncKind, a: unknown, b: unknown): Promise<boolean> {
  if (a === undefined || a === null || b === undefined || b === null) return sameState(kind, a, b);
  const [contentA, contentB] = [recordKinds[kind].content(a), recordKinds[kind].content(b)];
  if (!isLargeDocument(contentA) && !isLargeDocument(contentB)) return canonicalJson(contentA) === canonicalJson(contentB);
  const { whole: hashA } = await canonicalSha256PartsInTurns(contentA, undefined);
  const { whole: hashB } = await canonicalSha256PartsInTurns(contentB, undefined);
  return hashA.equals(hashB);
}

/** One string per state of a record: equal exactly when two states are the same (null: deleted). */
export function contentKey(kind: SyncKind, record: unknown | undefined | null): string {
  if (record === undefined || record === null) return 'deleted';
  return canonicalJson(recordKinds[kind].content(record));
}

/**
 * A record's current state, by the id sync names it with (a change row's, a parked
 * or conflict row's): the id is taken apart here, where it leaves the log, and
 * nowhere else. An id that names nothing of its kind reads as absent.
 */
export async function readById(ctx: Ctx, kind: SyncKind, id: string, opts: ReadOptions): Promise<unknown> {
  const handler = recordKinds[kind];
  const ref = handler.refOf(id);
  return ref === undefined ? undefined : await handler.read(ctx, ref, opts);
}

/** The record a change row's record cannot exist without: an entry child's entry is on the row; a series entry names its series. */
export function parentOfRow(row: ChangeRow, record: unknown): { kind: SyncKind; id: string } | undefined {
  if (row.entry_id !== null) return { kind: 'entry', id: row.entry_id };
  const kind = recordKinds[row.kind as SyncKind];
  if (!kind.parentOf) return undefined;
  const ref = kind.refOf(row.record_id);
  return ref === undefined ? undefined : kind.parentOf(ref, record);
}
