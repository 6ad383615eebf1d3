import type { z } from 'zod';
import type { Fault } from '../gobl/index.ts';
import type { Envelope } from '../silo/document.ts';
import type { Service } from '../service.ts';
import type { Caller } from '../access/tokens.ts';
import type { HashedBytes } from '../files/hashed-bytes.ts';

/** Outcome statuses a step can end with (DESIGN §4). TIMEOUT is decided by the engine. */
export type StepStatus = 'OK' | 'ERR' | 'KO' | 'SKIP';

/**
 * What a provider answers. `apply` holds the step's writes: the engine runs it in
 * the same transaction that records the outcome, so a crash either keeps both the
 * effect and the outcome or neither, and a finished step is never redone. It runs
 * inside that transaction, so it awaits nothing but the database.
 */
export interface StepResult {
  status: StepStatus;
  code?: string;
  message?: string;
  faults?: Fault[];
  apply?: () => Promise<void> | void;
}

/** A file a step adds to the job's silo entry. */
export interface NewAttachment {
  id?: string;
  name: string;
  mime: string;
  desc?: string;
  /** the bytes, hashed once by the provider (`hashBytes`) */
  content: HashedBytes;
}

/** What a provider may read and, inside `apply`, change. */
export interface StepContext {
  service: Service;
  /** whom the job acts as: the company's owner (its companyKey is what the job's rows are stored under) */
  owner: Caller;
  job: {
    id: string;
    key: string | null;
    args: Record<string, unknown>;
    tags: string[];
    silo_entry_id: string;
    workflow_id: string;
  };
  step: { id: string; name: string };
  /** 1 on the first try of this step, more on retries after ERR */
  attempt: number;
  /** aborted when the step's timeout passes */
  signal: AbortSignal;
  /** the entry's current envelope and labels */
  entry(): Promise<{ envelope: Envelope; state: string; folder: string; tags: string[]; signed: boolean; version: number }>;
  /** writes (call only inside `apply`): re-derives digest, snippet, mentions, search like a PATCH */
  updateEntry(changes: { envelope?: Envelope; state?: string; folder?: string; tags?: string[] }): Promise<void>;
  /** stores bytes and attaches them to the entry (call only inside `apply`); same id + bytes is a no-op */
  attach(file: NewAttachment): Promise<{ id: string; hash: string; size: number }>;
  /**
   * `envelope` signed with this instance's key as GOBL signs (compact ES256 JWS over {uuid, dig, iat}).
   * Sealing the envelope entry() handed out, unsigned and found clean by GOBL, lets updateEntry store
   * it as PATCH with `sign` stores its own signature: taken as made, with no faults. Optional so a
   * context made by hand may leave it out (a step then signs with signEnvelope).
   */
  seal?(envelope: Envelope): Envelope;
}

export interface Provider<C = unknown> {
  /** the key a workflow step names in `provider` (or `action`) */
  id: string;
  description: string;
  /** zod schema of the step's `config`; a workflow whose config fails it is refused with 422 */
  config: z.ZodType<C>;
  /** config fields holding secrets (a webhook's bearer token): masked whenever a workflow is shown */
  secretFields?: string[];
  /** how long one attempt may run before it is routed as TIMEOUT (default 30 s) */
  timeoutMs?: number;
  /**
   * `run` awaits nothing but the database, never changes what entry() hands it in place,
   * and writes only in `apply`: the engine may then run the step inside the same
   * transaction as the job's steps before it (runner.ts), with no timeout. A step that
   * reaches anything outside the database (a file, the network, a renderer) or waits on
   * anything else must leave this unset.
   */
  inline?: boolean;
  /**
   * An inline step that hands the entry's document to the GOBL engine, which works on a large
   * one on its own thread (engine-thread): on such a document the step runs alone, outside the
   * round's transaction, or the database would wait on the engine (a 13,000-line invoice: half a
   * second) with every other request behind it. On a small one it stays inline.
   */
  engineBound?: boolean;
  run(ctx: StepContext, config: C): StepResult | Promise<StepResult>;
}

export function defineProvider<C>(provider: Provider<C>): Provider<C> {
  return provider;
}
