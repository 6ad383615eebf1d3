import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseJsonInTurns, WRITTEN_JSON_DEPTH } from '../../api/json-in-turns.ts';
import { BuildError } from '../engine/types.ts';
import { parseJsonPreservingNumbers } from '../shape/json-text.ts';
import type { DerivedAhead } from './ahead.ts';
import type { EngineJob, OutcomeOf } from './jobs.ts';
import { READY, toWire, type WireAnswer } from './wire.ts';

/** A thread with nothing to do for this long is stopped (its memory given back); the next large document starts another. */
export const ENGINE_THREAD_IDLE_MS = 30_000;

// From the sources the thread runs worker.ts; a bundle (electron-vite, the service build) builds
// it as gobl-engine-thread.js beside its other chunks (scripts/service-externals.ts ENGINE_THREAD_ENTRY).
const WORKER_FILES = ['./worker.ts', './gobl-engine-thread.js'];

function workerFile(): string | undefined {
  for (const name of WORKER_FILES) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** A job's outcome, and what was derived ahead on the thread for the envelope it stores (none inline). */
export interface OffLoop<J extends EngineJob> {
  outcome: OutcomeOf<J>;
  ahead?: DerivedAhead;
}

/**
 * The thread could not start (its code fails to load in this build): the job never ran, and
 * no later one is sent to it. runOffLoop works such a job inline; a thread that dies after it
 * started (out of memory on a hostile document) fails its jobs instead, since the same
 * document inline would take the service down with it.
 */
export class EngineThreadUnavailable extends Error {}

interface Waiting {
  resolve: (outcome: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The thread the GOBL engine runs large documents on, so that one 5 MB invoice (half a second of
 * building and checking) never holds up the service's other requests. One thread, started on the
 * first job and stopped when idle: jobs queue on it in order. When it dies (out of memory on a
 * hostile document), the jobs it held fail and the next job starts a new thread.
 */
export class EngineThread {
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #idleTimer: NodeJS.Timeout | undefined;
  /** the running thread said it is ready (its code loaded, GOBL's data read) */
  #ready = false;
  #broken = false;
  readonly #file: string | undefined;
  readonly #idleMs: number;

  constructor(options: { file?: string; idleMs?: number } = {}) {
    this.#file = options.file ?? workerFile();
    this.#idleMs = options.idleMs ?? ENGINE_THREAD_IDLE_MS;
  }

  /** Whether this build has the thread's code and it started when asked (otherwise every job runs inline). */
  get available(): boolean {
    return this.#file !== undefined && !this.#broken;
  }

  /** How many jobs are sent and not answered yet. */
  get pending(): number {
    return this.#waiting.size;
  }

  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * Runs `job` on the thread: its outcome, or the BuildError GOBL's refusal is on any thread; and
   * `ahead`, the text and derived parts of the envelope the outcome has the silo store (a build's,
   * a clean rebuild, or the envelope checked).
   */
  async run<J extends EngineJob>(job: J): Promise<OffLoop<J>> {
    if (this.#broken) throw new EngineThreadUnavailable('the GOBL engine thread could not start');
    const id = this.#nextId++;
    const wire = await toWire(id, job);
    const worker = this.#start();
    const answer = await new Promise<WireAnswer>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (outcome: unknown) => void, reject });
      clearTimeout(this.#idleTimer);
      worker.ref();
      try {
        worker.postMessage(wire);
      } catch (error) {
        this.#settled(id);
        reject(error as Error);
      }
    });
    if ('refused' in answer) throw new BuildError(answer.refused);
    if ('failed' in answer) throw new Error(`the GOBL engine failed: ${answer.failed}`);
    const outcome = (await readOutput(answer.output)) as OutcomeOf<J>;
    if (job.op === 'check') return { outcome, ahead: answer.parts && { text: wire.input, parts: answer.parts } };
    if (answer.text === undefined || !answer.parts) return { outcome };
    (outcome as unknown as Record<string, unknown>)[job.op === 'build' ? 'envelope' : 'rebuilt'] = await readOutput(answer.text);
    return { outcome, ahead: { text: answer.text, parts: answer.parts } };
  }

  /** Stops the thread now; jobs it held fail. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#lost(worker, new Error('the GOBL engine thread was stopped'), true);
    await worker.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    if (!this.#file) throw new Error('the GOBL engine thread is not part of this build');
    const worker = new Worker(this.#file);
    this.#ready = false;
    worker.on('message', (message: WireAnswer | typeof READY) => {
      if (message === READY) {
        this.#ready = true;
        return;
      }
      const waiting = this.#settled(message.id);
      waiting?.resolve(message);
    });
    worker.on('error', (error: Error) => this.#lost(worker, new Error(`the GOBL engine thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the GOBL engine thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #settled(id: number): Waiting | undefined {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    if (this.#waiting.size === 0 && this.#worker) {
      // Idle: the thread no longer keeps the process alive, and goes when it stays idle.
      const worker = this.#worker;
      worker.unref();
      clearTimeout(this.#idleTimer);
      this.#idleTimer = setTimeout(() => {
        if (this.#worker === worker && this.#waiting.size === 0) void this.stop();
      }, this.#idleMs);
      this.#idleTimer.unref();
    }
    return waiting;
  }

  #lost(worker: Worker, error: Error, stopped = false): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (!this.#ready && !stopped) {
      this.#broken = true;
      error = new EngineThreadUnavailable(`the GOBL engine thread could not start: ${error.message}`);
    }
    clearTimeout(this.#idleTimer);
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const w of waiting) w.reject(error);
  }
}

/**
 * An answer's JSON back to values, numbers a float would change kept as written. A large one in
 * turns: reading back a 5 MB envelope in one JSON.parse would hold the loop 30–40 ms.
 */
function readOutput(text: string): Promise<unknown> {
  return parseJsonInTurns(text, { maxDepth: WRITTEN_JSON_DEPTH, keepNumbers: parseJsonPreservingNumbers });
}
