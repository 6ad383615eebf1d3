import type { z } from 'zod';
import type { Ctx } from '../../api/handler.ts';
import type { SyncKind } from '../change-log.ts';

export interface ReadOptions {
  /** secret step config (a webhook's bearer token) in full: only for owner and user callers */
  revealSecrets: boolean;
  /** an entry's document as its stored text, unparsed (a JsonText): only for an answer writeJson writes out */
  documentAsText?: boolean;
}

/**
 * How sync handles one kind of record: read its full current state, tell whether
 * two states are the same, and write a state here. A record is named inside the
 * service by its ref (an attachment: its entry and file id); the string sync sends
 * (`entry-id:file-id`) is taken apart once, where it comes in (`refOf`). `apply` runs
 * inside the caller's transaction, whose origin says whose change it is, and goes
 * through the area's own write paths, so derived data (mentions, search, series
 * heads) stays right; the database records the change (change-triggers.ts).
 */
export interface RecordKind<R = any, Ref = any> {
  kind: SyncKind;
  schema: z.ZodType<R>;
  /** the record an id names as sync sends it (`entry-uuid:file-id` for attachments); undefined: not an id of this kind */
  refOf(id: string): Ref | undefined;
  read(ctx: Ctx, ref: Ref, opts: ReadOptions): Promise<R | undefined>;
  /** the part of a state that makes two states the same: no timestamps, no derived fields */
  content(record: R): unknown;
  /**
   * Work on a record that reads nothing of the database (GOBL's check of a large document),
   * done before the transaction that applies it, so the database is not held while it runs:
   * what it answers is handed to `apply` with the same record. Undefined: nothing to do ahead.
   * `mayApply` tells, at the cost of a read, whether the record will be written at all.
   */
  prepare?(ctx: Ctx, ref: Ref, record: R, mayApply: () => Promise<boolean>): Promise<unknown>;
  /** writes `record` as this instance's state of the record; null deletes it; `ahead`: what `prepare` answered for it */
  apply(ctx: Ctx, ref: Ref, record: R | null, ahead?: unknown): Promise<void>;
  /** the record this one cannot exist without (an attachment's entry, an entry's series), by its id */
  parentOf?(ref: Ref, record: R | undefined): { kind: SyncKind; id: string } | undefined;
  /** an entry's child (attachment, meta): its entry, which the change log keeps beside the change */
  entryOf?(ref: Ref): string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The ref of a record named by one uuid (entries, workflows, series, their entries, signers) is the uuid itself. */
export const uuidRef = (id: string): string | undefined => (UUID.test(id) ? id : undefined);
