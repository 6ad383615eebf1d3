import type { Ctx } from '../api/handler.ts';
import type { RetryPolicy } from './backoff.ts';
import type { RemoteApi } from './remote-client.ts';
import type { CompanyKey } from '../access/company-key.ts';

export interface SyncOptions {
  /** how often the automatic-sync timer looks for companies that are due */
  tickMs: number;
  retry: RetryPolicy;
  /** feed page size asked of the remote */
  pageSize: number;
  /** records per push request */
  batchSize: number;
  /** a push request is cut when its records pass this many bytes */
  batchBytes: number;
  /** attachment bytes per upload request */
  blobBatchBytes: number;
  /** the largest file taken from a remote (the attachment cap; tests lower it) */
  maxBlobBytes: number;
  /**
   * As the feed's server on SQLite: how long reading a page's records may take before the
   * page ends early with what it has (and has_more). A page is read in one snapshot and cannot
   * let other requests in meanwhile; 200 entries held the event loop for 22–27 ms.
   */
  feedPageMs: number;
}

export interface Progress {
  phase: 'connect' | 'push' | 'pull' | 'done';
  started_at: string;
  pushed: number;
  pulled: number;
  bytes_sent: number;
  bytes_received: number;
  pending_at_start: number;
  conflicts: number;
  parked: number;
}

/** Everything one sync of one company works with. */
export interface SyncRun {
  ctx: Ctx;
  companyKey: CompanyKey;
  /** the remote, through the typed client (answers parsed with the contract's schemas) */
  remote: RemoteApi;
  remoteInstanceId: string;
  options: SyncOptions;
  signal: AbortSignal;
  progress: Progress;
  /** this once, apply a pull even if it deletes more than half of the entries */
  allowMassDeletion: boolean;
  /** attachment bytes the remote sent that were refused in this run, with why */
  refusedBlobs: Map<string, string>;
}

/** A pull that would delete more than half of the company's entries. */
export class MassDeletionRefused extends Error {}
