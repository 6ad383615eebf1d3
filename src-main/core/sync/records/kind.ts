import type { z } from 'zod';
import type { Ctx } from '../../api/handler.ts';
import type { SyncKind } from '../change-log.ts';

export interface ReadOptions {
  /** secret step config (a webhook's bearer token) in full: only for owner and user callers */
  revealSecrets: boolean;
}

/**
 * How sync handles one kind of record: read its full current state, tell whether
 * two states are the same, and write a state here. `apply` runs inside the
 * caller's transaction and goes through the area's own write paths (which record
 * the change), so derived data (mentions, search, series heads) stays right.
 */
export interface RecordKind<R = any> {
  kind: SyncKind;
  schema: z.ZodType<R>;
  /** is this a well-formed id of this kind (e.g. `entry-uuid:file-id` for attachments) */
  validId(id: string): boolean;
  read(ctx: Ctx, id: string, opts: ReadOptions): R | undefined;
  /** the part of a state that makes two states the same: no timestamps, no derived fields */
  content(record: R): unknown;
  /** writes `record` as this instance's state of `id`; null deletes it */
  apply(ctx: Ctx, id: string, record: R | null): void;
  /** the record this one cannot exist without (an attachment's entry, an entry's series) */
  parentOf?(id: string, record: R | undefined): { kind: SyncKind; id: string } | undefined;
}
