import { v7 as uuidv7 } from 'uuid';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { Service } from '../service.ts';
import type { Step, WorkflowDefinition } from './definition.ts';
import { resolveProvider } from './hosted-providers.ts';
import type { IntentEvent, IntentRow, JobRow } from './job-view.ts';
import type { StepResult } from './provider.ts';
import { findStep, route, type RouteDecision } from './routing.ts';
import { makeStepContext } from './step-context.ts';
import { loadDefinition } from './workflows.ts';

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
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: 4,
  retryBaseMs: 1000,
  maxAttempts: 5,
  stepCap: 100,
  defaultTimeoutMs: 30_000,
};

/** A fault on a job or entry; a step's own faults carry JSON paths, the job's own (cancelled…) none. */
type Fault = { code: string; message: string; provider: string; paths: string[]; stated?: string; calculated?: string };

type StepOutcome = Outcome & { apply?: () => void };

const failure = (err: unknown): Outcome => ({
  status: 'ERR',
  code: 'exception',
  message: String((err as Error)?.message ?? err).slice(0, 500),
});

type Outcome = { status: 'OK' | 'KO' | 'SKIP' | 'ERR' | 'TIMEOUT' | 'CANCEL'; code?: string; message?: string; faults?: Fault[] };

/**
 * The job engine: a queue that lives in SQLite (the jobs table) and a loop that
 * runs one step of a due job at a time per slot. Each step's effects, its outcome
 * event and the routing to the next step are written in one transaction, so a
 * crash at any moment either keeps a finished step or redoes an unfinished one;
 * on start every unfinished job simply becomes due again.
 *
 * A job is named here by its `seq`: the client's id is unique only within its
 * company, and two companies may run jobs under the same id at once.
 */
export class JobRunner {
  readonly #service: Service;
  readonly #opts: RunnerOptions;
  readonly #inFlight = new Set<number>();
  readonly #waiters = new Map<number, Set<() => void>>();
  #timer: NodeJS.Timeout | undefined;
  #scheduled = false;
  #running = false;
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

  /** Stops taking new steps and resolves once the steps under way have ended. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    if (this.#inFlight.size === 0) return;
    await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Something changed (a job was queued, cancelled): look for due work soon. */
  notify(): void {
    if (this.#scheduled || !this.#running) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  /** Resolves when the job (by its seq) ends or after `ms`, whichever comes first. */
  waitFor(jobSeq: number, ms: number): Promise<void> {
    if (ms <= 0 || this.#isFinished(jobSeq)) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.#waiters.get(jobSeq) ?? new Set();
      this.#waiters.set(jobSeq, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) this.#waiters.delete(jobSeq);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  isRunning(jobSeq: number): boolean {
    return this.#inFlight.has(jobSeq);
  }

  /** Ends a job (by its seq) that is not running right now; a running one ends after its step. */
  cancelIdle(jobSeq: number): void {
    if (this.#inFlight.has(jobSeq)) return;
    const job = this.#job(jobSeq);
    if (job && !job.completed_at) this.#cancelNow(job);
  }

  #job(seq: number): JobRow | undefined {
    const { store } = this.#service;
    return store.first(store.q.selectFrom('jobs').selectAll().where('seq', '=', seq));
  }

  /** Workflow versions never change once written, so each is parsed once (per company: the id is the company's). */
  #definition(ctx: Ctx, workflowId: string, version: number): WorkflowDefinition {
    const key = JSON.stringify([ctx.caller.companyId, workflowId, version]);
    let def = this.#definitions.get(key);
    if (!def) {
      def = loadDefinition(ctx, workflowId, version).def;
      if (this.#definitions.size > 500) this.#definitions.clear();
      this.#definitions.set(key, def);
    }
    return def;
  }

  #isFinished(jobSeq: number): boolean {
    const { store } = this.#service;
    const row = store.first(store.q.selectFrom('jobs').select('completed_at').where('seq', '=', jobSeq));
    return !row || row.completed_at !== null;
  }

  #pump(): void {
    if (!this.#running) return;
    const { store } = this.#service;
    clearTimeout(this.#timer);
    const now = Date.now();
    while (this.#inFlight.size < this.#opts.concurrency) {
      const candidates = store.all(
        store.q
          .selectFrom('jobs')
          .select(['seq', 'id'])
          .where('completed_at', 'is', null)
          .where('run_at', '<=', now)
          .orderBy('run_at')
          .orderBy('seq')
          .limit(this.#inFlight.size + 1),
      );
      const next = candidates.find((c) => !this.#inFlight.has(c.seq));
      if (!next) break;
      this.#inFlight.add(next.seq);
      this.#runStep(next.seq)
        .catch((err) => this.#service.log?.(`job ${next.id}: ${(err as Error).stack ?? err}`))
        .finally(() => {
          this.#inFlight.delete(next.seq);
          if (!this.#running && this.#inFlight.size === 0) this.#idle.splice(0).forEach((r) => r());
          this.notify();
        });
    }
    const later = store.first(
      store.q
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('run_at').as('at'))
        .where('completed_at', 'is', null)
        .where('run_at', '>', now),
    );
    if (later?.at != null) this.#timer = setTimeout(() => this.notify(), Math.max(0, Number(later.at) - Date.now()));
  }

  async #runStep(jobSeq: number): Promise<void> {
    const { store } = this.#service;
    const job = this.#job(jobSeq);
    if (!job || job.completed_at || !this.#running) return;
    // Everything the step reads or writes is the job's company's: its workflow, its entry, its series.
    const ctx: Ctx = { service: this.#service, caller: { companyId: job.company_id, kind: 'owner' } };
    const def = this.#definition(ctx, job.workflow_id, job.workflow_version);

    if (job.cancel_requested) {
      this.#cancelNow(job);
      return;
    }
    const intent = job.current_intent_id ? this.#intent(job, job.current_intent_id) : undefined;
    const located = intent ? findStep(def, intent.step_id) : undefined;
    if (!intent || !located) {
      store.tx(() => this.#end(job, 'KO', [{ code: 'broken-job', message: 'the job points at no step', provider: 'transform', paths: [] }]));
      this.#wake(jobSeq);
      return;
    }
    if (job.steps_run >= this.#opts.stepCap) {
      store.tx(() => {
        this.#appendEvent(intent, { status: 'KO', code: 'too-many-steps', message: `stopped after ${job.steps_run} steps` }, true);
        this.#end(job, 'KO', [{ code: 'too-many-steps', message: `the job ran ${job.steps_run} steps; is there a loop?`, provider: 'transform', paths: [] }]);
      });
      this.#wake(jobSeq);
      return;
    }

    const attempt = job.attempt + 1;
    const startedAt = nowIso();
    const markRun = () => {
      this.#appendEvent(intent, { status: 'RUN' }, false, startedAt);
      store.run(
        store.q
          .updateTable('jobs')
          .set({ status: 'RUN', attempt, steps_run: job.attempt === 0 ? job.steps_run + 1 : job.steps_run, updated_at: startedAt })
          .where('seq', '=', jobSeq),
      );
    };

    const pending = this.#execute(ctx, job, located.step, attempt);
    if (pending instanceof Promise) {
      // A step that waits (on the network, on rendering): show it running meanwhile.
      store.tx(markRun);
      this.#record(ctx, jobSeq, def, located.step, located.inRescue, await pending);
    } else {
      // A step that answered at once: its RUN event, effects, outcome and routing in one commit.
      this.#record(ctx, jobSeq, def, located.step, located.inRescue, pending, markRun);
    }
  }

  /**
   * Calls the provider. A synchronous answer comes back as it is; a promise is
   * raced against the step's timeout. An exception is an ERR (worth a retry),
   * never a crash of the engine.
   */
  #execute(ctx: Ctx, job: JobRow, step: Step, attempt: number): StepOutcome | Promise<StepOutcome> {
    const provider = resolveProvider(this.#service.providers, step.provider);
    if (!provider) return { status: 'KO', code: 'unknown-provider', message: `no provider ${step.provider}` };
    const config = provider.config.safeParse(step.config);
    if (!config.success) return { status: 'KO', code: 'bad-config', message: config.error.message };

    const timeoutMs = provider.timeoutMs ?? this.#opts.defaultTimeoutMs;
    const abort = new AbortController();
    const stepCtx = makeStepContext(
      ctx,
      {
        id: job.id,
        key: job.key,
        args: JSON.parse(job.args),
        tags: JSON.parse(job.tags),
        silo_entry_id: job.silo_entry_id,
        workflow_id: job.workflow_id,
      },
      { id: step.id, name: step.name },
      attempt,
      abort.signal,
    );
    let answer: StepResult | Promise<StepResult>;
    try {
      answer = provider.run(stepCtx, config.data);
    } catch (err) {
      return failure(err);
    }
    if (!(answer instanceof Promise)) return answer;

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<StepOutcome>((resolve) => {
      timer = setTimeout(() => {
        abort.abort(new Error('step timed out'));
        resolve({ status: 'TIMEOUT', code: 'timeout', message: `the step ran past ${timeoutMs} ms` });
      }, timeoutMs);
    });
    return Promise.race([answer.catch(failure), timeout]).finally(() => clearTimeout(timer));
  }

  /** One transaction: the step's effects, its outcome, faults, and where the job goes next. */
  #record(
    ctx: Ctx,
    jobSeq: number,
    def: WorkflowDefinition,
    step: Step,
    inRescue: boolean,
    outcome: StepOutcome,
    before?: () => void,
  ): void {
    const { store } = this.#service;
    let ended = false;
    store.tx(() => {
      before?.();
      const job = this.#job(jobSeq)!;
      const intent = this.#intent(job, job.current_intent_id!);
      let result: Outcome = outcome;

      if (outcome.apply && (outcome.status === 'OK' || outcome.status === 'SKIP' || outcome.status === 'KO')) {
        try {
          store.tx(() => outcome.apply!());
        } catch (err) {
          result = { status: 'ERR', code: 'apply-failed', message: String((err as Error)?.message ?? err).slice(0, 500) };
        }
      }
      // A fault belongs to the step that raised it, whatever checked the document underneath.
      const faults = (result.faults ?? []).map((f) => ({ ...f, provider: step.provider }));
      this.#setStepFaults(job, step.provider, faults);
      const jobFaults = [...JSON.parse(job.faults), ...faults];

      if (result.status === 'ERR') {
        if (job.attempt < this.#opts.maxAttempts) {
          this.#appendEvent(intent, result, false);
          const delay = Math.min(60_000, this.#opts.retryBaseMs * 2 ** (job.attempt - 1));
          store.run(
            store.q
              .updateTable('jobs')
              .set({ status: 'ERR', run_at: Date.now() + delay, faults: JSON.stringify(jobFaults), updated_at: nowIso() })
              .where('seq', '=', jobSeq),
          );
          return;
        }
        result = { status: 'KO', code: 'retries-exhausted', message: `gave up after ${job.attempt} tries: ${result.message ?? result.code}` };
      }
      this.#appendEvent(intent, result, true);

      const decision: RouteDecision =
        job.cancel_requested === 1
          ? { kind: 'end', status: 'KO', reason: 'cancelled' }
          : route(def, step, inRescue, result.status as 'OK' | 'KO' | 'SKIP' | 'TIMEOUT', result.code);
      const updatedJob = { ...job, faults: JSON.stringify(jobFaults) };
      if (decision.kind === 'end') {
        const extra = job.cancel_requested === 1 ? [{ code: 'cancelled', message: 'the job was cancelled', provider: 'transform', paths: [] }] : [];
        this.#end(updatedJob, decision.status, extra);
        ended = true;
        return;
      }
      const nextIntent = this.#newIntent(job, intent.seq + 1, decision.step);
      store.run(
        store.q
          .updateTable('jobs')
          .set({
            status: 'RUN',
            current_intent_id: nextIntent,
            in_rescue: decision.inRescue ? 1 : 0,
            attempt: 0,
            run_at: Date.now(),
            faults: updatedJob.faults,
            updated_at: nowIso(),
          })
          .where('seq', '=', jobSeq),
      );
    });
    if (ended) this.#wake(jobSeq);
  }

  #cancelNow(job: JobRow): void {
    const { store } = this.#service;
    store.tx(() => {
      const intent = job.current_intent_id ? this.#intent(job, job.current_intent_id) : undefined;
      if (intent) this.#appendEvent(intent, { status: 'CANCEL', code: 'cancelled', message: 'cancelled by request' }, true);
      this.#end(job, 'KO', [{ code: 'cancelled', message: 'the job was cancelled', provider: 'transform', paths: [] }]);
    });
    this.#wake(job.seq);
  }

  #intent(job: JobRow, id: string): IntentRow {
    const { store } = this.#service;
    return store.first(store.q.selectFrom('intents').selectAll().where('company_id', '=', job.company_id).where('id', '=', id))!;
  }

  #newIntent(job: JobRow, seq: number, step: Step): string {
    const { store } = this.#service;
    const id = uuidv7();
    const at = nowIso();
    store.run(
      store.q.insertInto('intents').values({
        id, company_id: job.company_id, job_id: job.id, seq, step_id: step.id, name: step.name, provider: step.provider, completed: 0, events: '[]',
        created_at: at, updated_at: at,
      }),
    );
    return id;
  }

  #appendEvent(
    intent: IntentRow,
    outcome: { status: string; code?: string; message?: string },
    completed: boolean,
    at: string = nowIso(),
  ): void {
    const { store } = this.#service;
    const fresh = store.first(
      store.q.selectFrom('intents').select('events').where('company_id', '=', intent.company_id).where('id', '=', intent.id),
    )!;
    const events = JSON.parse(fresh.events) as IntentEvent[];
    events.push({
      at,
      index: events.length + 1,
      status: outcome.status,
      ...(outcome.code !== undefined ? { code: outcome.code } : {}),
      ...(outcome.message !== undefined ? { message: outcome.message } : {}),
    });
    store.run(
      store.q
        .updateTable('intents')
        .set({ events: JSON.stringify(events), completed: completed ? 1 : 0, updated_at: nowIso() })
        .where('company_id', '=', intent.company_id)
        .where('id', '=', intent.id),
    );
  }

  /** Faults a provider raised on the job's entry replace what the same provider raised before. */
  #setStepFaults(job: JobRow, provider: string, faults: Fault[]): void {
    const { store } = this.#service;
    const row = store.first(
      store.q.selectFrom('entries').select(['seq', 'step_faults']).where('company_id', '=', job.company_id).where('id', '=', job.silo_entry_id),
    );
    if (!row) return;
    const kept = (JSON.parse(row.step_faults) as Fault[]).filter((f) => f.provider !== provider);
    if (kept.length === 0 && faults.length === 0 && row.step_faults === '[]') return;
    store.run(store.q.updateTable('entries').set({ step_faults: JSON.stringify([...kept, ...faults]) }).where('seq', '=', row.seq));
  }

  #end(job: JobRow, status: 'OK' | 'KO', extraFaults: Fault[]): void {
    const { store } = this.#service;
    const at = nowIso();
    const entry = store.first(
      store.q.selectFrom('entries').select('data').where('company_id', '=', job.company_id).where('id', '=', job.silo_entry_id),
    );
    store.run(
      store.q
        .updateTable('jobs')
        .set({
          status,
          current_intent_id: null,
          completed_at: at,
          updated_at: at,
          envelope: entry?.data ?? null,
          faults: JSON.stringify([...JSON.parse(job.faults), ...extraFaults]),
        })
        .where('seq', '=', job.seq),
    );
  }

  #wake(jobSeq: number): void {
    for (const done of [...(this.#waiters.get(jobSeq) ?? [])]) done();
  }
}
