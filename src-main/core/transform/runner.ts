import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { isLargeDocument } from '../gobl/engine-thread/index.ts';
import { asActor } from '../silo/audit-actor.ts';
import { findEntryRow } from '../silo/entries.ts';
import { isLargeStored } from '../silo/document.ts';
import type { Service } from '../service.ts';
import type { Step, WorkflowDefinition } from './definition.ts';
import { resolveProvider } from './hosted-providers.ts';
import { holdsClaim, isClaimed, LOCK_JOB_PG, LOCK_JOB_SKIP_PG, unchangedSince, type Claim } from './job-claims.ts';
import type { IntentEvent, IntentRow, JobRow } from './job-view.ts';
import type { StepResult } from './provider.ts';
import { findStep, route } from './routing.ts';
import { EntryReads, makeStepContext } from './step-context.ts';
import { loadDefinition } from './workflows.ts';
import { ownerOf } from '../access/company-key.ts';

export interface RunnerOptions {
  /** jobs worked on at once (steps that wait on the network do not hold up the rest) */
  concurrency: number;
  /** first retry delay after ERR; doubles each try, capped at a minute */
  retryBaseMs: number;
  /** tries of one step before an ERR becomes KO */
  maxAttempts: number;
  /** steps one job may run before it is stopped as a loop */
  stepCap: number;
  defaultTimeoutMs: number;
  /**
   * How long one round of steps may hold the event loop (and the write lock) before it
   * commits and lets requests in; a round that ran past it goes on at the next turn.
   */
  roundMs: number;
  /**
   * PostgreSQL, where other processes may queue work or leave it due (a lease that ran out):
   * the longest the runner goes without looking for due jobs, and a waiting request for its job's end.
   */
  pollMs: number;
  /** PostgreSQL: how far past a step's timeout its claim holds (job-claims.ts) before another runner may resume it */
  claimMarginMs: number;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: 4,
  retryBaseMs: 1000,
  maxAttempts: 5,
  stepCap: 100,
  defaultTimeoutMs: 30_000,
  roundMs: 10,
  pollMs: 1000,
  claimMarginMs: 30_000,
};

/** Due jobs read at a time. */
const PAGE = 32;

/** Jobs one round takes on at most; the rest wait for the next turn of the loop. */
const ROUND_JOBS = 64;

/**
 * Due jobs one turn looks at, at most. Past them (a long queue of steps waiting for a free
 * slot to run alone), jobs wait for a later turn: a step that ends starts one.
 */
const LOOKED_AT = 256;

/** A fault on a job or entry; a step's own faults carry JSON paths, the job's own (cancelled…) none. */
type Fault = { code: string; message: string; provider: string; paths: string[]; stated?: string; calculated?: string };

type StepOutcome = Outcome & { apply?: () => Promise<void> | void };

const failure = (err: unknown): Outcome => ({
  status: 'ERR',
  code: 'exception',
  message: String((err as Error)?.message ?? err).slice(0, 500),
});

type Outcome = { status: 'OK' | 'KO' | 'SKIP' | 'ERR' | 'TIMEOUT' | 'CANCEL'; code?: string; message?: string; faults?: Fault[] };

/** The engine's transactions: its writes are this instance's own, whoever queued the job. */
const OWN = { origin: LOCAL };

const CANCELLED: Fault = { code: 'cancelled', message: 'the job was cancelled', provider: 'transform', paths: [] };

// The runner's statements, raw SQL (the statements stay prepared): its loop runs them for every step.
const SQL = {
  job: 'SELECT * FROM jobs WHERE seq = ?',
  finished: 'SELECT completed_at FROM jobs WHERE seq = ?',
  cancelled: 'SELECT completed_at, cancel_requested FROM jobs WHERE seq = ?',
  // Due jobs in order, a page after (run_at, seq): the jobs_runnable index, walked.
  due: `SELECT seq, run_at FROM jobs WHERE completed_at IS NULL AND run_at <= ? AND (run_at, seq) > (?, ?)
        ORDER BY run_at, seq LIMIT ${PAGE}`,
  later: 'SELECT min(run_at) AS at FROM jobs WHERE completed_at IS NULL AND run_at > ?',
  intent: 'SELECT * FROM intents WHERE company_id = ? AND id = ?',
  events: 'UPDATE intents SET events = ?, completed = ?, updated_at = ? WHERE company_id = ? AND id = ?',
  newIntent: `INSERT INTO intents (id, company_id, job_id, seq, step_id, name, provider, completed, events, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, 0, '[]', ?, ?)`,
  save: `UPDATE jobs SET status = ?, current_intent_id = ?, in_rescue = ?, attempt = ?, steps_run = ?, run_at = ?, faults = ?,
         updated_at = ? WHERE seq = ?`,
  // The document as the job left it is kept with the job: the entry may change after.
  end: `UPDATE jobs SET status = ?, current_intent_id = NULL, in_rescue = ?, attempt = ?, steps_run = ?, run_at = ?, faults = ?, completed_at = ?,
        updated_at = ?, envelope = (SELECT data FROM entries WHERE company_id = ? AND id = ?) WHERE seq = ?`,
  stepFaults: 'SELECT seq, step_faults FROM entries WHERE company_id = ? AND id = ?',
  setStepFaults: 'UPDATE entries SET step_faults = ? WHERE seq = ?',
};

/** A job as the engine works on it: its row as it will be written back, its faults so far, and what its steps share. */
interface Working {
  row: JobRow;
  faults: Fault[];
  ctx: Ctx;
  /** read when a step is looked up (#def): a cancel needs none */
  def: WorkflowDefinition | undefined;
  job: { id: string; key: string | null; args: Record<string, unknown>; tags: string[]; silo_entry_id: string; workflow_id: string };
  /** the entry's parsed envelope, shared by the steps run back to back */
  reads: EntryReads;
}

/** A due job as a turn read it, before its round. */
interface DueJob {
  w: Working;
  intent: IntentRow | undefined;
  /** its row as read (w.row is the copy the round works on) */
  read: JobRow;
}

/** What a round leaves to do once it has committed. */
interface Round {
  ended: number[];
  /** jobs whose step waits on something outside the database: they run on their own (#runAlone) */
  launch: number[];
  /** the round stopped with work left (its time limit, or as many jobs as a round takes) */
  more: boolean;
}

/**
 * The job engine: a queue that lives in SQLite (the jobs table) and a loop that runs the
 * steps of due jobs. Each step's effects, its events and the routing to the next step are
 * written in the transaction that records its outcome, so a crash at any moment either
 * keeps a finished step or redoes an unfinished one; on start every unfinished job simply
 * becomes due again.
 *
 * Steps that only read and write the database (`inline` providers: state, validate, close…)
 * run in rounds: every due job's such steps back to back, in one transaction, up to
 * `roundMs`, and the round commits before any of its jobs is answered as ended. A step's
 * outcome and its effects are still written together, and nothing outside the database
 * sees them before the commit; a crash redoes the whole round, as nothing of it was kept.
 * A step that reaches outside the database (a webhook, a file, a PDF renderer) runs alone
 * after the round has committed, as `concurrency` allows, its RUN written first.
 *
 * A job is named here by its `seq`: the client's id is unique only within its
 * company, and two companies may run jobs under the same id at once.
 *
 * One turn of the loop (#pump) runs at a time: a notify while one is under way runs
 * another once it has ended, so two turns never take on the same due job.
 *
 * On PostgreSQL several processes may run a runner each on one database: a job is then
 * claimed in the database before a step of it runs (job-claims.ts), and each runner also
 * looks for due work every `pollMs`, as a job another process queued, or a claim a dead
 * process left, notifies nobody here.
 */
export class JobRunner {
  readonly #service: Service;
  readonly #opts: RunnerOptions;
  readonly #inFlight = new Set<number>();
  readonly #waiters = new Map<number, Set<() => void>>();
  #timer: NodeJS.Timeout | undefined;
  #scheduled = false;
  #running = false;
  /** the turn under way, if any (#turn) */
  #pumping: Promise<void> | undefined;
  /** a notify came while a turn was under way: another follows it */
  #again = false;
  #idle: Array<() => void> = [];
  readonly #definitions = new Map<string, WorkflowDefinition>();

  constructor(service: Service, opts: Partial<RunnerOptions> = {}) {
    this.#service = service;
    this.#opts = { ...DEFAULT_RUNNER_OPTIONS, ...opts };
  }

  start(): void {
    this.#running = true;
    this.notify();
  }

  /** Stops taking new steps and resolves once the round and the steps under way have ended. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#pumping;
    if (this.#inFlight.size === 0) return;
    await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Something changed (a job was queued, cancelled, a step ended): run due work at the next turn of the loop. */
  notify(): void {
    if (this.#scheduled || !this.#running) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#turn();
    });
  }

  /** Runs a turn of the loop, unless one is under way: that one is followed by another. */
  #turn(): void {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump()
      .catch((err) => this.#service.log?.(`job engine: ${(err as Error).stack ?? err}`))
      .finally(() => {
        this.#pumping = undefined;
        if (this.#again) {
          this.#again = false;
          this.notify();
        } else if (this.#running && this.#timer === undefined && this.#service.db.dialect === 'postgres') {
          // A turn that failed set no timer: keep looking, as other processes count on it.
          this.#timer = setTimeout(() => this.notify(), this.#opts.pollMs);
        }
      });
  }

  /**
   * Resolves when the job (by its seq) ends or after `ms`, whichever comes first. On
   * PostgreSQL another process may be the one that ends it: the job is looked at again
   * every `pollMs` meanwhile.
   */
  async waitFor(jobSeq: number, ms: number): Promise<void> {
    if (ms <= 0) return;
    // Listening before looking: a job that ends while it is looked up still answers this.
    let done!: () => void;
    let poll: NodeJS.Timeout | undefined;
    const ended = new Promise<void>((resolve) => {
      const set = this.#waiters.get(jobSeq) ?? new Set();
      this.#waiters.set(jobSeq, set);
      done = () => {
        clearTimeout(timer);
        clearInterval(poll);
        set.delete(done);
        if (set.size === 0) this.#waiters.delete(jobSeq);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
    try {
      if (await this.#isFinished(jobSeq)) done();
    } catch (err) {
      done();
      throw err;
    }
    if (this.#service.db.dialect === 'postgres' && this.#waiters.get(jobSeq)?.has(done)) {
      poll = setInterval(() => {
        this.#isFinished(jobSeq).then(
          (finished) => finished && done(),
          () => done(),
        );
      }, this.#opts.pollMs);
    }
    return ended;
  }

  isRunning(jobSeq: number): boolean {
    return this.#inFlight.has(jobSeq);
  }

  /**
   * Ends a job (by its seq) that is not running right now; a running one ends after its
   * step. On PostgreSQL the row is locked first (a round of another runner that holds it
   * is waited for), and a job another runner has claimed for a step is left to it: its
   * cancel_requested ends it once the step is recorded, or when its claim runs out.
   */
  async cancelIdle(jobSeq: number): Promise<void> {
    if (this.#inFlight.has(jobSeq)) return;
    const { db } = this.#service;
    const shared = db.dialect === 'postgres';
    // Looked at and ended in one transaction: a round that ends the job meanwhile is never undone.
    const ended = await db.tx(async () => {
      if (this.#inFlight.has(jobSeq)) return false;
      const row = shared ? await db.sqlFirst<JobRow>(LOCK_JOB_PG, [jobSeq]) : await this.#job(jobSeq);
      if (!row || row.completed_at) return false;
      if (shared && isClaimed(row, Date.now())) return false;
      await this.#cancel(await this.#working(row));
      return true;
    }, OWN);
    if (ended) this.#wake(jobSeq);
  }

  #job(seq: number): Promise<JobRow | undefined> {
    return this.#service.db.sqlFirst<JobRow>(SQL.job, [seq]);
  }

  async #isFinished(jobSeq: number): Promise<boolean> {
    const row = await this.#service.db.sqlFirst<{ completed_at: string | null }>(SQL.finished, [jobSeq]);
    return !row || row.completed_at !== null;
  }

  /** Workflow versions never change once written, so each is parsed once (per company: the id is the company's). */
  async #definition(ctx: Ctx, workflowId: string, version: number): Promise<WorkflowDefinition> {
    const key = `${ctx.caller.companyKey}\u0000${workflowId}\u0000${version}`;
    let def = this.#definitions.get(key);
    if (!def) {
      def = (await loadDefinition(ctx, workflowId, version)).def;
      if (this.#definitions.size > 500) this.#definitions.clear();
      this.#definitions.set(key, def);
    }
    return def;
  }

  /** Runs a step's work with what it writes put down to its job, as history and the audit log name it. */
  #asJob<T>(w: Working, fn: () => T): T {
    if (!w.def) return fn();
    return asActor(this.#service.db, { via: 'workflow', id: w.job.id, name: `Workflow “${w.def.name}”` }, fn);
  }

  /** The job's workflow version, read the first time a step of it is looked up. */
  async #def(w: Working): Promise<WorkflowDefinition> {
    return (w.def ??= await this.#definition(w.ctx, w.row.workflow_id, w.row.workflow_version));
  }

  async #working(row: JobRow): Promise<Working> {
    // Everything a step reads or writes is the job's company's: its workflow, its entry, its series.
    const ctx: Ctx = { service: this.#service, caller: await ownerOf(this.#service.db, row.company_id) };
    return {
      row: { ...row },
      faults: JSON.parse(row.faults) as Fault[],
      ctx,
      def: undefined,
      job: {
        id: row.id,
        key: row.key,
        args: JSON.parse(row.args) as Record<string, unknown>,
        tags: JSON.parse(row.tags) as string[],
        silo_entry_id: row.silo_entry_id,
        workflow_id: row.workflow_id,
      },
      reads: new EntryReads(),
    };
  }

  /**
   * One round: the due jobs in order, each as far as its inline steps take it, in one
   * transaction (each job in a savepoint of its own, so one job's failure costs the others
   * nothing). Then, committed: ended jobs are answered, and steps that run alone start.
   */
  async #pump(): Promise<void> {
    if (!this.#running) return;
    const { db } = this.#service;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const deadline = performance.now() + this.#opts.roundMs;
    const round: Round = { ended: [], launch: [], more: false };
    // One moment for what is due and what is due later: a job due between two readings of
    // the clock (a timer that fired a millisecond early) would be neither, and wake nothing.
    const now = Date.now();
    const work = await this.#dueWork(now, round);
    const fromDue = { launch: [...round.launch], more: round.more };
    let kept = true;
    if (work.length > 0) {
      try {
        await db.tx(async () => {
          // PostgreSQL runs this again after a deadlock or serialization failure: the round starts over.
          Object.assign(round, { ended: [], launch: [...fromDue.launch], more: fromDue.more });
          for (const [i, job] of work.entries()) {
            if (i > 0 && performance.now() > deadline) {
              round.more = true;
              return;
            }
            try {
              await db.tx(() => this.#advanceDue(job, deadline, round), OWN);
            } catch (err) {
              // Rolled back to its savepoint: the job stays due, and waits for the next round.
              this.#service.log?.(`job ${job.w.row.id}: ${(err as Error).stack ?? err}`);
            }
          }
        }, OWN);
      } catch (err) {
        // Nothing of the round was kept: its jobs are due as they were, and run again at the next
        // round; jobs due later still wake the engine when their time comes (the timer below).
        this.#service.log?.(`job round: ${(err as Error).stack ?? err}`);
        kept = false;
      }
    }
    if (kept) {
      for (const seq of round.ended) this.#wake(seq);
      for (const seq of round.launch) {
        if (this.#inFlight.size >= this.#opts.concurrency) break;
        this.#track(seq, () => this.#runAlone(seq));
      }
      if (round.more) {
        this.notify();
        return;
      }
    }
    const later = await db.sqlFirst<{ at: number | null }>(SQL.later, [now]);
    // Stopped meanwhile: no timer outlives the engine.
    if (!this.#running) return;
    const untilLater = later?.at != null ? Math.max(0, later.at - Date.now()) : undefined;
    // On PostgreSQL other processes queue work too: look again within pollMs whatever is due here.
    const delay = db.dialect === 'postgres' ? Math.min(untilLater ?? Infinity, this.#opts.pollMs) : untilLater;
    if (delay !== undefined) this.#timer = setTimeout(() => this.notify(), delay);
  }

  /**
   * The due jobs in order, but those running a step alone now: each whose next step runs in
   * a round, read as the round will start from it; those whose next step runs alone go to
   * `round.launch`. Read outside any transaction, so a turn that only starts steps running
   * alone, or finds nothing due, writes nothing. Other requests may run between this read
   * and the round; of a job no step is running for, they can only cancel it (cancelIdle),
   * which the round looks at again (#advanceDue). Nothing else writes a job or its intents.
   */
  async #dueWork(now: number, round: Round): Promise<DueJob[]> {
    const work: DueJob[] = [];
    let after: [number, number] = [-1, 0];
    let looked = 0;
    for (;;) {
      const page = await this.#service.db.sql<{ seq: number; run_at: number }>(SQL.due, [now, after[0], after[1]]);
      for (const { seq, run_at } of page) {
        after = [run_at, seq];
        if (this.#inFlight.has(seq)) continue;
        if (++looked > LOOKED_AT) return work;
        const row = await this.#job(seq);
        if (!row || row.completed_at) continue;
        const w = await this.#working(row);
        const intent = row.current_intent_id ? await this.#intent(row, row.current_intent_id) : undefined;
        let alone: boolean;
        try {
          alone = !row.cancel_requested && (await this.#runsAlone(w, intent));
        } catch (err) {
          // Its workflow cannot be read: the job stays as it is, and is logged, not run.
          this.#service.log?.(`job ${row.id}: ${(err as Error).stack ?? err}`);
          continue;
        }
        if (alone) round.launch.push(seq);
        else work.push({ w, intent, read: row });
        if (work.length >= ROUND_JOBS) {
          round.more = true;
          return work;
        }
      }
      if (page.length < PAGE) return work;
    }
  }

  /**
   * Whether the job's next step runs alone: one that reaches outside the database, or one that
   * would wait on the GOBL engine's thread for a large document (provider.ts engineBound). An
   * unknown, missing or capped one is the engine's to end.
   */
  async #runsAlone(w: Working, intent: IntentRow | undefined): Promise<boolean> {
    const located = intent ? findStep(await this.#def(w), intent.step_id) : undefined;
    if (!located || w.row.steps_run >= this.#opts.stepCap) return false;
    const provider = resolveProvider(this.#service.providers, located.step.provider);
    if (provider === undefined) return false;
    return !provider.inline || (provider.engineBound === true && (await this.#holdsLargeDocument(w)));
  }

  /**
   * Whether the job's entry holds a document GOBL works on off the event loop: weighed as its
   * steps last saw it, else told by its stored text's length, which the row's header gives
   * without unpacking or parsing it (a 4.4 MB document: a block of 40-60 ms).
   */
  async #holdsLargeDocument(w: Working): Promise<boolean> {
    const envelope = w.reads.lastEnvelope;
    if (envelope !== undefined) return isLargeDocument(envelope);
    const row = await findEntryRow(w.ctx, w.job.silo_entry_id);
    return row !== undefined && isLargeStored(row.data);
  }

  /** A step running on its own: another round may start once it has ended. */
  #track(seq: number, work: () => Promise<void>): void {
    this.#inFlight.add(seq);
    void work()
      .catch((err) => this.#service.log?.(`job ${seq}: ${(err as Error).stack ?? err}`))
      .finally(() => {
        this.#inFlight.delete(seq);
        if (!this.#running && this.#inFlight.size === 0) this.#idle.splice(0).forEach((r) => r());
        this.notify();
      });
  }

  /**
   * A job read before the round began, advanced in it: as it stands now, that is, unless
   * it was cancelled meanwhile (ended, or only asked to end).
   */
  async #advanceDue(job: DueJob, deadline: number, round: Round): Promise<void> {
    const { db } = this.#service;
    if (db.dialect === 'postgres') return this.#advanceClaimed(job, deadline, round);
    const { w, intent: first } = job;
    const now = await db.sqlFirst<{ completed_at: string | null; cancel_requested: number }>(SQL.cancelled, [w.row.seq]);
    if (!now || now.completed_at !== null) return;
    w.row.cancel_requested = now.cancel_requested;
    await this.#advance(w, first, deadline, round);
  }

  /**
   * #advanceDue on PostgreSQL, where other runners share the jobs (job-claims.ts): the row is
   * locked for the round unless another runner holds it, and the job is advanced only if no
   * step of it has run since it was read. It is worked on from the locked row, so a round
   * tried again (pg-db.ts) starts from the database, never from what the last try left.
   */
  async #advanceClaimed(job: DueJob, deadline: number, round: Round): Promise<void> {
    const { db } = this.#service;
    const row = await db.sqlFirst<JobRow>(LOCK_JOB_SKIP_PG, [job.read.seq]);
    if (!row || !unchangedSince(row, job.read)) return;
    const w = await this.#working(row);
    w.def = job.w.def;
    const intent = row.current_intent_id ? await this.#intent(row, row.current_intent_id) : undefined;
    await this.#advance(w, intent, deadline, round);
  }

  /** Runs a job's inline steps back to back, inside the round's transaction, until one runs alone, it waits or it ends. */
  async #advance(w: Working, first: IntentRow | undefined, deadline: number, round: Round): Promise<void> {
    const seq = w.row.seq;
    if (w.row.cancel_requested) {
      await this.#cancel(w);
      round.ended.push(seq);
      return;
    }
    let intent = first;
    for (let ran = 0; ; ran++) {
      const located = intent ? findStep(await this.#def(w), intent.step_id) : undefined;
      if (!intent || !located || w.row.steps_run >= this.#opts.stepCap) {
        await this.#stop(w, intent);
        round.ended.push(seq);
        return;
      }
      // The next step runs alone, once the round has committed: the job is saved as far as it got.
      if (ran > 0 && (await this.#runsAlone(w, intent))) {
        await this.#save(w);
        round.launch.push(seq);
        return;
      }
      if (ran > 0 && performance.now() > deadline) {
        await this.#save(w);
        round.more = true;
        return;
      }
      const events = this.#markRun(w, intent);
      // An inline step awaits only the database: it runs inside the round's transaction, untimed (no timer in there).
      const outcome = await this.#execute(w, located.step, w.row.attempt, false);
      const next = await this.#settle(w, intent, events, located.step, located.inRescue, outcome);
      if (next === 'ended') round.ended.push(seq);
      if (typeof next === 'string') return;
      intent = next;
    }
  }

  /** A step of a provider that reaches outside the database: run outside any transaction, its RUN committed while it waits. */
  async #runAlone(seq: number): Promise<void> {
    const { db } = this.#service;
    if (db.dialect === 'postgres') return this.#runAloneClaimed(seq);
    // Nothing but this writes the job while it runs alone (it is in flight): what is read here holds.
    const row = await this.#job(seq);
    if (!row || row.completed_at || !this.#running) return;
    const w = await this.#working(row);
    if (row.cancel_requested) {
      await db.tx(() => this.#cancel(w), OWN);
      this.#wake(seq);
      return;
    }
    const intent = row.current_intent_id ? await this.#intent(row, row.current_intent_id) : undefined;
    const located = intent ? findStep(await this.#def(w), intent.step_id) : undefined;
    if (!intent || !located || row.steps_run >= this.#opts.stepCap) {
      await db.tx(() => this.#stop(w, intent), OWN);
      this.#wake(seq);
      return;
    }
    const startedAt = nowIso();
    // Outside any transaction: the step may wait on the network, a file, a renderer.
    const pending = this.#execute(w, located.step, w.row.attempt + 1, true);
    if (pending instanceof Promise) {
      // A step that waits (on the network, on rendering): show it running meanwhile.
      await db.tx(async () => {
        await this.#writeEvents(intent, this.#markRun(w, intent, startedAt), false);
        await this.#save(w);
      }, OWN);
      await this.#finish(seq, located.step, located.inRescue, await pending);
      return;
    }
    // A step that answered at once: its RUN event, effects, outcome and routing in one commit.
    const ended = await db.tx(async () => {
      const next = await this.#settle(w, intent, this.#markRun(w, intent, startedAt), located.step, located.inRescue, pending);
      if (typeof next !== 'string') await this.#save(w);
      return next === 'ended';
    }, OWN);
    if (ended) this.#wake(seq);
  }

  /**
   * #runAlone on PostgreSQL, where other runners share the jobs (job-claims.ts): the step is
   * claimed before it starts — the row locked unless another runner holds it, found still
   * due, its RUN written with run_at at the end of a lease — and its outcome is recorded
   * only under that claim. A step that answers at once takes two commits here, not one.
   */
  async #runAloneClaimed(seq: number): Promise<void> {
    const { db } = this.#service;
    if (!this.#running) return;
    const claimed = await db.tx(async () => {
      const row = await db.sqlFirst<JobRow>(LOCK_JOB_SKIP_PG, [seq]);
      // Held by another runner's transaction, ended, or not due: another runner has claimed it, or it waits for its retry.
      if (!row || row.completed_at || row.run_at > Date.now()) return undefined;
      const w = await this.#working(row);
      if (row.cancel_requested) {
        await this.#cancel(w);
        return 'ended' as const;
      }
      const intent = row.current_intent_id ? await this.#intent(row, row.current_intent_id) : undefined;
      const located = intent ? findStep(await this.#def(w), intent.step_id) : undefined;
      if (!intent || !located || row.steps_run >= this.#opts.stepCap) {
        await this.#stop(w, intent);
        return 'ended' as const;
      }
      const events = this.#markRun(w, intent);
      const timeoutMs = resolveProvider(this.#service.providers, located.step.provider)?.timeoutMs ?? this.#opts.defaultTimeoutMs;
      w.row.run_at = Date.now() + timeoutMs + this.#opts.claimMarginMs;
      await this.#writeEvents(intent, events, false);
      await this.#save(w);
      const claim: Claim = { runAt: w.row.run_at, attempt: w.row.attempt };
      return { w, located, claim };
    }, OWN);
    if (claimed === 'ended') this.#wake(seq);
    if (claimed === undefined || claimed === 'ended') return;
    const { w, located, claim } = claimed;
    // Outside any transaction: the step may wait on the network, a file, a renderer.
    const outcome = await this.#execute(w, located.step, w.row.attempt, true);
    await this.#finish(seq, located.step, located.inRescue, outcome, claim);
  }

  /**
   * Records the outcome of a step that answered later, against the job as it stands now (it
   * may have been cancelled meanwhile). Under a claim (PostgreSQL), only while it still holds.
   */
  async #finish(seq: number, step: Step, inRescue: boolean, outcome: StepOutcome, claim?: Claim): Promise<void> {
    const { db } = this.#service;
    const ended = await db.tx(async () => {
      const row = claim ? await db.sqlFirst<JobRow>(LOCK_JOB_PG, [seq]) : await this.#job(seq);
      // The lease ran out before this step answered: the job is another runner's now (or was cancelled since).
      if (claim && !holdsClaim(row, claim)) return 'lost';
      const w = await this.#working(row!);
      const intent = await this.#intent(w.row, w.row.current_intent_id!);
      const next = await this.#settle(w, intent, JSON.parse(intent.events) as IntentEvent[], step, inRescue, outcome);
      if (typeof next !== 'string') await this.#save(w);
      return next === 'ended';
    }, OWN);
    if (ended === 'lost') this.#service.log?.(`job ${seq}: its claim on step ${step.id} ran out before the step answered; the answer is dropped`);
    if (ended === true) this.#wake(seq);
  }

  /** Ends a job whose current step is missing, or that ran more steps than a job may: a loop. */
  async #stop(w: Working, intent: IntentRow | undefined): Promise<void> {
    if (!intent || !findStep(await this.#def(w), intent.step_id)) {
      await this.#end(w, 'KO', [{ code: 'broken-job', message: 'the job points at no step', provider: 'transform', paths: [] }]);
      return;
    }
    const ran = w.row.steps_run;
    const events = JSON.parse(intent.events) as IntentEvent[];
    pushEvent(events, { status: 'KO', code: 'too-many-steps', message: `stopped after ${ran} steps` });
    await this.#writeEvents(intent, events, true);
    await this.#end(w, 'KO', [{ code: 'too-many-steps', message: `the job ran ${ran} steps; is there a loop?`, provider: 'transform', paths: [] }]);
  }

  /** The step starts: another try of it, a RUN event. Answers the intent's events with it. */
  #markRun(w: Working, intent: IntentRow, at: string = nowIso()): IntentEvent[] {
    const events = JSON.parse(intent.events) as IntentEvent[];
    pushEvent(events, { status: 'RUN' }, at);
    if (w.row.attempt === 0) w.row.steps_run += 1;
    w.row.attempt += 1;
    w.row.status = 'RUN';
    w.row.updated_at = at;
    return events;
  }

  /**
   * Calls the provider. A synchronous answer comes back as it is; a promise is
   * raced against the step's timeout when `timed` (a step running alone; an inline
   * step in a round is awaited as it is). An exception is an ERR (worth a retry),
   * never a crash of the engine.
   */
  #execute(w: Working, step: Step, attempt: number, timed: boolean): StepOutcome | Promise<StepOutcome> {
    const provider = resolveProvider(this.#service.providers, step.provider);
    if (!provider) return { status: 'KO', code: 'unknown-provider', message: `no provider ${step.provider}` };
    const config = provider.config.safeParse(step.config);
    if (!config.success) return { status: 'KO', code: 'bad-config', message: config.error.message };

    const timeoutMs = provider.timeoutMs ?? this.#opts.defaultTimeoutMs;
    const abort = new AbortController();
    const stepCtx = makeStepContext(w.ctx, w.job, { id: step.id, name: step.name }, attempt, abort.signal, w.reads);
    let answer: StepResult | Promise<StepResult>;
    try {
      answer = this.#asJob(w, () => provider.run(stepCtx, config.data));
    } catch (err) {
      return failure(err);
    }
    if (!(answer instanceof Promise)) return answer;
    if (!timed) return answer.catch(failure);

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<StepOutcome>((resolve) => {
      timer = setTimeout(() => {
        abort.abort(new Error('step timed out'));
        resolve({ status: 'TIMEOUT', code: 'timeout', message: `the step ran past ${timeoutMs} ms` });
      }, timeoutMs);
    });
    return Promise.race([answer.catch(failure), timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * A step's outcome, in the caller's transaction: its effects (`apply`), faults and
   * events, and where the job goes next. Answers the next step's intent, `retry` (the
   * job waits for its next try, saved) or `ended`. A job going on to a next step is
   * saved by the caller (#save), once for all the steps it runs back to back.
   */
  async #settle(
    w: Working,
    intent: IntentRow,
    events: IntentEvent[],
    step: Step,
    inRescue: boolean,
    outcome: StepOutcome,
  ): Promise<IntentRow | 'retry' | 'ended'> {
    const { db } = this.#service;
    let result: Outcome = outcome;
    if (outcome.apply && (outcome.status === 'OK' || outcome.status === 'SKIP' || outcome.status === 'KO')) {
      try {
        await db.tx(async () => {
          await this.#asJob(w, () => outcome.apply!());
        }, OWN);
      } catch (err) {
        result = { status: 'ERR', code: 'apply-failed', message: String((err as Error)?.message ?? err).slice(0, 500) };
      }
    }
    // A fault belongs to the step that raised it, whatever checked the document underneath.
    const faults = (result.faults ?? []).map((f) => ({ ...f, provider: step.provider }));
    await this.#setStepFaults(w, step.provider, faults);
    w.faults.push(...faults);

    if (result.status === 'ERR') {
      if (w.row.attempt < this.#opts.maxAttempts) {
        pushEvent(events, result);
        await this.#writeEvents(intent, events, false);
        const delay = Math.min(60_000, this.#opts.retryBaseMs * 2 ** (w.row.attempt - 1));
        w.row.status = 'ERR';
        w.row.run_at = Date.now() + delay;
        w.row.updated_at = nowIso();
        await this.#save(w);
        return 'retry';
      }
      result = { status: 'KO', code: 'retries-exhausted', message: `gave up after ${w.row.attempt} tries: ${result.message ?? result.code}` };
    }
    pushEvent(events, result);
    await this.#writeEvents(intent, events, true);

    const decision =
      w.row.cancel_requested === 1
        ? ({ kind: 'end', status: 'KO', reason: 'cancelled' } as const)
        : route(await this.#def(w), step, inRescue, result.status as 'OK' | 'KO' | 'SKIP' | 'TIMEOUT', result.code);
    if (decision.kind === 'end') {
      await this.#end(w, decision.status, w.row.cancel_requested === 1 ? [CANCELLED] : []);
      return 'ended';
    }
    const next = await this.#newIntent(w.row, intent.seq + 1, decision.step);
    Object.assign(w.row, {
      status: 'RUN',
      current_intent_id: next.id,
      in_rescue: decision.inRescue ? 1 : 0,
      attempt: 0,
      run_at: Date.now(),
      updated_at: nowIso(),
    });
    return next;
  }

  /** Ends a job on request: its current step's intent says so. */
  async #cancel(w: Working): Promise<void> {
    const intent = w.row.current_intent_id ? await this.#intent(w.row, w.row.current_intent_id) : undefined;
    if (intent) {
      const events = JSON.parse(intent.events) as IntentEvent[];
      pushEvent(events, { status: 'CANCEL', code: 'cancelled', message: 'cancelled by request' });
      await this.#writeEvents(intent, events, true);
    }
    await this.#end(w, 'KO', [CANCELLED]);
  }

  async #intent(job: JobRow, id: string): Promise<IntentRow> {
    return (await this.#service.db.sqlFirst<IntentRow>(SQL.intent, [job.company_id, id]))!;
  }

  async #newIntent(job: JobRow, seq: number, step: Step): Promise<IntentRow> {
    const id = uuidv7();
    const at = nowIso();
    await this.#service.db.sqlRun(SQL.newIntent, [id, job.company_id, job.id, seq, step.id, step.name, step.provider, at, at]);
    return {
      id, company_id: job.company_id, job_id: job.id, seq, step_id: step.id, name: step.name, provider: step.provider, completed: 0, events: '[]',
      created_at: at, updated_at: at,
    };
  }

  /** The intent's events as they now stand (the list is the intent's whole story: it is rewritten, not appended to). */
  async #writeEvents(intent: IntentRow, events: IntentEvent[], completed: boolean): Promise<void> {
    const text = JSON.stringify(events);
    await this.#service.db.sqlRun(SQL.events, [text, completed ? 1 : 0, nowIso(), intent.company_id, intent.id]);
    intent.events = text;
  }

  /** Writes the job's row as the engine holds it (a job going on: status, next step, tries, faults). */
  async #save(w: Working): Promise<void> {
    const r = w.row;
    await this.#service.db.sqlRun(SQL.save, [
      r.status, r.current_intent_id, r.in_rescue, r.attempt, r.steps_run, r.run_at, JSON.stringify(w.faults), r.updated_at, r.seq,
    ]);
  }

  /** Faults a provider raised on the job's entry replace what the same provider raised before. */
  async #setStepFaults(w: Working, provider: string, faults: Fault[]): Promise<void> {
    const { db } = this.#service;
    const row = await db.sqlFirst<{ seq: number; step_faults: string }>(SQL.stepFaults, [w.row.company_id, w.row.silo_entry_id]);
    if (!row) return;
    // Nothing raised now, nothing held: no write (the usual case, a clean step on a clean entry).
    if (faults.length === 0 && row.step_faults === '[]') return;
    const kept = (JSON.parse(row.step_faults) as Fault[]).filter((f) => f.provider !== provider);
    await db.sqlRun(SQL.setStepFaults, [JSON.stringify([...kept, ...faults]), row.seq]);
  }

  async #end(w: Working, status: 'OK' | 'KO', extraFaults: Fault[]): Promise<void> {
    const r = w.row;
    const at = nowIso();
    w.faults.push(...extraFaults);
    await this.#service.db.sqlRun(SQL.end, [
      status, r.in_rescue, r.attempt, r.steps_run, r.run_at, JSON.stringify(w.faults), at, at, r.company_id, r.silo_entry_id, r.seq,
    ]);
  }

  #wake(jobSeq: number): void {
    for (const done of [...(this.#waiters.get(jobSeq) ?? [])]) done();
  }
}

function pushEvent(events: IntentEvent[], outcome: { status: string; code?: string; message?: string }, at: string = nowIso()): void {
  events.push({
    at,
    index: events.length + 1,
    status: outcome.status,
    ...(outcome.code !== undefined ? { code: outcome.code } : {}),
    ...(outcome.message !== undefined ? { message: outcome.message } : {}),
  });
}
