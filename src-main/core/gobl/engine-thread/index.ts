// The GOBL engine off the event loop: a small document is built and checked here and now (a
// round trip to another thread would cost it more than it saves), a large one on the engine's
// own thread (thread.ts), so that no document holds the service up however many lines it has.
import type { DerivedParts } from './ahead.ts';
import { runEngineJob, type EngineJob } from './jobs.ts';
import { EngineThread, EngineThreadUnavailable, type OffLoop } from './thread.ts';
import { ENGINE_THREAD_FROM, outweighs } from './weight.ts';

export type { EngineJob, ExaminedToStore, OutcomeOf } from './jobs.ts';
export type { OffLoop } from './thread.ts';
export type { DerivedAhead, DerivedParts } from './ahead.ts';

/** A document the engine works on off the event loop (weight.ts): the service digests and writes such a one a piece at a time too. */
export const isLargeDocument = (value: unknown): boolean => outweighs(value, ENGINE_THREAD_FROM);

/**
 * Whether a document written out as JSON text of `chars` characters is a large one, told without
 * reading it: an invoice weighs ENGINE_THREAD_FROM at about 23 KB (65 lines). Told wrong, work
 * meant to be done off the event loop or ahead of a write is done in it, or ahead when it need not be.
 */
export const isLargeText = (chars: number): boolean => chars >= ENGINE_THREAD_FROM * 16;

let thread: EngineThread | undefined;

/** The process's engine thread (one for every service the process opens: the engine keeps no state of theirs). */
export function engineThread(): EngineThread {
  thread ??= new EngineThread();
  return thread;
}

/**
 * Runs a job of the GOBL engine: inline for a small document, on the engine thread for a large
 * one, which comes back with the stored envelope's text and derived parts worked out there too.
 * Throws BuildError as the engine does.
 */
export function runOffLoop<J extends EngineJob>(job: J): Promise<OffLoop<J>> {
  return runOn(engineThread(), job);
}

/** derivedPartsOf the envelope stored as `text`, a large one's on the engine thread. */
export async function derivedPartsOffLoop(text: string): Promise<DerivedParts> {
  return (await runOffLoop({ op: 'parts', data: text })).outcome;
}

/** runOffLoop on `thread`: a thread that cannot start leaves its jobs to be run inline. */
export async function runOn<J extends EngineJob>(thread: EngineThread, job: J): Promise<OffLoop<J>> {
  if ((job.op === 'parts' ? isLargeText(job.data.length) : isLargeDocument(job.data)) && thread.available) {
    try {
      return await thread.run(job);
    } catch (error) {
      if (!(error instanceof EngineThreadUnavailable)) throw error;
    }
  }
  return { outcome: runEngineJob(job) };
}
