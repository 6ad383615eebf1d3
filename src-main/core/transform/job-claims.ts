import type { JobRow } from './job-view.ts';

/*
 * How a job stays one runner's when several `serve` processes run on one PostgreSQL
 * database (runner.ts). On SQLite one process holds the data folder and its write
 * transaction is the only one, so the runner's own bookkeeping (jobs in flight, one turn
 * at a time) is the whole claim, and none of this runs there.
 *
 * - A round (inline steps, one transaction) takes each job it read as due with
 *   `FOR UPDATE SKIP LOCKED`, and only if the row is still as it was read: a job another
 *   runner holds is skipped, and one another runner has moved on since (its intent, its
 *   try, its run_at changed) is skipped too. The lock lasts until the round commits.
 * - A step that runs alone (outside any transaction: the network, a file, a renderer)
 *   is claimed first: in one short transaction the row is locked, found still due, and
 *   its RUN is written with `run_at` pushed to the end of a lease (the step's timeout and
 *   a margin). Due-job queries look only at `run_at <= now`, so no other runner takes it
 *   while the lease holds. The outcome is recorded only while the claim is still the one
 *   taken (run_at and attempt as written): a runner that froze past its lease finds its
 *   claim gone and drops its outcome rather than recording a step twice.
 * - A process that dies mid-step leaves the lease behind: once it has passed, the job is
 *   due again and any runner resumes it (as another try of the step, as a restart does on
 *   SQLite). No owner has to come back for it.
 */

export interface Claim {
  /** run_at as the claim wrote it: the end of its lease */
  runAt: number;
  /** the try the claim started */
  attempt: number;
}

/** PostgreSQL only: the job row, locked until the transaction ends, unless another transaction holds it. */
export const LOCK_JOB_SKIP_PG = 'SELECT * FROM jobs WHERE seq = ? FOR UPDATE SKIP LOCKED';
/** PostgreSQL only: the job row, locked until the transaction ends (waiting for whoever holds it). */
export const LOCK_JOB_PG = 'SELECT * FROM jobs WHERE seq = ? FOR UPDATE';

/** The row is still as a runner read it before its transaction: nobody has run a step of it since. */
export function unchangedSince(row: JobRow, read: Pick<JobRow, 'run_at' | 'attempt' | 'current_intent_id'>): boolean {
  return row.completed_at === null && row.run_at === read.run_at && row.attempt === read.attempt && row.current_intent_id === read.current_intent_id;
}

/**
 * A step of the job runs alone under a runner's lease now: RUN, due only in the future. (A job
 * waiting for its retry is ERR; one going on to its next step is due at once.)
 */
export function isClaimed(row: JobRow, now: number): boolean {
  return row.completed_at === null && row.status === 'RUN' && row.run_at > now;
}

/** The claim written is still in force: the outcome of its step may be recorded. */
export function holdsClaim(row: JobRow | undefined, claim: Claim): row is JobRow {
  return row !== undefined && row.completed_at === null && row.run_at === claim.runAt && row.attempt === claim.attempt;
}
