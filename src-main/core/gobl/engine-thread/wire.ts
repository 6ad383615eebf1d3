// A job and its answer as they cross between the service's thread and the engine's: the document
// as JSON text (a string is copied whole, where structured cloning a 14,000-line invoice held the
// receiving thread 40 ms), numbers a float would change kept as written (RawNumber ↔ raw JSON).
import { BuildError, type EngineFault } from '../engine/types.ts';
import { stringifyInTurns } from '../../api/json-write-in-turns.ts';
import { parseJsonPreservingNumbers } from '../shape/json-text.ts';
import { derivedPartsOf, type DerivedParts } from './ahead.ts';
import { runEngineJob, type EngineJob } from './jobs.ts';

export interface WireJob {
  id: number;
  op: EngineJob['op'];
  /** the document, as JSON */
  input: string;
  headUuid?: string;
  /** "now", in ms since the epoch */
  now?: number;
  givenDigest?: string;
  /** a correction's options, as given */
  options?: unknown;
}

/** What the thread posts once its code is loaded and GOBL's data read, before any answer. */
export const READY = 'ready';

export type WireAnswer =
  /** `output`: the outcome as JSON, but for the envelope the job stores (a build's, a clean rebuild), which is `text` */
  | { id: number; output: string; text?: string; parts?: DerivedParts }
  | { id: number; refused: EngineFault[] }
  | { id: number; failed: string };

/** The job as sent; its document written out a piece at a time (a 13,000-line invoice is 20 ms of JSON.stringify). */
export async function toWire(id: number, job: EngineJob): Promise<WireJob> {
  if (job.op === 'parts') return { id, op: job.op, input: job.data };
  const wire: WireJob = { id, op: job.op, input: (await stringifyInTurns(job.data)) ?? 'null' };
  if (job.op !== 'check') {
    if (job.op !== 'correct' && job.headUuid !== undefined) wire.headUuid = job.headUuid;
    if (job.now !== undefined) wire.now = job.now.getTime();
  }
  if (job.op === 'examine' && job.givenDigest !== undefined) wire.givenDigest = job.givenDigest;
  if (job.op === 'correct') wire.options = job.options;
  return wire;
}

function fromWire(wire: WireJob): EngineJob {
  if (wire.op === 'parts') return { op: 'parts', data: wire.input };
  const data = parseJsonPreservingNumbers(wire.input);
  const now = wire.now === undefined ? undefined : new Date(wire.now);
  switch (wire.op) {
    case 'build':
      return { op: 'build', data, headUuid: wire.headUuid, now };
    case 'examine':
      return { op: 'examine', data, headUuid: wire.headUuid, now, givenDigest: wire.givenDigest };
    case 'correct':
      return { op: 'correct', data, options: wire.options, now };
    default:
      return { op: 'check', data };
  }
}

/**
 * Runs a job that came over the wire (on the engine's thread): its outcome as JSON, with the
 * envelope it would store as text of its own and that envelope's derived parts; or why there
 * is no outcome.
 */
export function answerJob(wire: WireJob): WireAnswer {
  try {
    const job = fromWire(wire);
    const outcome = runEngineJob(job);
    if (job.op === 'parts' || job.op === 'correct') return { id: wire.id, output: JSON.stringify(outcome) };
    if (job.op === 'check') return { id: wire.id, output: JSON.stringify(outcome), parts: derivedPartsOf(job.data) };
    const { envelope, rebuilt, ...rest } = outcome as { envelope?: unknown; rebuilt?: unknown };
    const stored = job.op === 'build' ? envelope : (rest as { faults: unknown[] }).faults.length === 0 ? rebuilt : undefined;
    const output = JSON.stringify(job.op === 'examine' && rebuilt !== stored ? { ...rest, rebuilt } : rest);
    return stored === undefined ? { id: wire.id, output } : { id: wire.id, output, text: JSON.stringify(stored), parts: derivedPartsOf(stored) };
  } catch (error) {
    if (error instanceof BuildError) return { id: wire.id, refused: error.faults };
    return { id: wire.id, failed: String((error as Error)?.message ?? error).slice(0, 500) };
  }
}
