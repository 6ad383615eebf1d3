import { canonicalJson } from '../../gobl/index.ts';
import type { SyncKind } from '../change-log.ts';
import { attachmentKind } from './attachment.ts';
import { entryKind } from './entry.ts';
import type { RecordKind } from './kind.ts';
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

/** One string per state of a record: equal exactly when two states are the same (null: deleted). */
export function contentKey(kind: SyncKind, record: unknown | undefined | null): string {
  if (record === undefined || record === null) return 'deleted';
  return canonicalJson(recordKinds[kind].content(record));
}
