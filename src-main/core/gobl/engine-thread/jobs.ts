// What the engine thread does for the service: the same pure calls the service makes on its own
// thread for small documents, so a document gets one verdict wherever it was worked out.
import { buildDocument, examineDocument, checkDocument } from '../engine/index.ts';
import type { BuildResult, Examined } from '../engine/index.ts';
import type { EngineFault } from '../engine/types.ts';
import { validateDocument } from '../validate/index.ts';
import { correctInvoice } from '../correct/index.ts';
import type { Node } from '../engine/types.ts';
import { derivedPartsOf, type DerivedParts } from './ahead.ts';

interface BuildJob {
  op: 'build';
  data: unknown;
  headUuid?: string;
  now?: Date;
}

/**
 * examineDocument; and for a clean document whose rebuild is not byte for byte the one given
 * (`givenDigest`), the faults of that rebuild, which is what would be stored: one trip does both.
 */
interface ExamineJob {
  op: 'examine';
  data: unknown;
  headUuid?: string;
  now?: Date;
  givenDigest?: string;
}

interface CheckJob {
  op: 'check';
  data: unknown;
}

/**
 * derivedPartsOf an envelope given as the JSON text it is stored as, nothing built or checked:
 * for a write that keeps a document but rebuilds what is derived from it (its tags changed,
 * it left the trash), 80 ms of walking for a 13,000-line invoice.
 */
interface PartsJob {
  op: 'parts';
  data: string;
}

/** GOBL's correction of an invoice (a credit note, a debit note, a corrective invoice): the new document, or a BuildError. */
interface CorrectJob {
  op: 'correct';
  data: unknown;
  options: unknown;
  now?: Date;
}

export type EngineJob = BuildJob | ExamineJob | CheckJob | PartsJob | CorrectJob;

export interface ExaminedToStore extends Examined {
  /** The rebuild's own faults, when it differs from the document given (undefined: not looked at) */
  rebuiltFaults?: EngineFault[];
}

export interface EngineOutcomes {
  build: BuildResult;
  examine: ExaminedToStore;
  check: EngineFault[];
  parts: DerivedParts;
  correct: Node;
}

export type OutcomeOf<J extends EngineJob> = EngineOutcomes[J['op']];

/** Runs one job here and now. A build GOBL refuses throws BuildError. */
export function runEngineJob<J extends EngineJob>(job: J): OutcomeOf<J> {
  switch (job.op) {
    case 'build':
      return buildDocument(job.data, { headUuid: job.headUuid, now: job.now }) as OutcomeOf<J>;
    case 'examine':
      return examineToStore(job) as OutcomeOf<J>;
    case 'check':
      return checkDocument(job.data) as OutcomeOf<J>;
    case 'parts':
      return derivedPartsOf(JSON.parse(job.data)) as OutcomeOf<J>;
    case 'correct':
      return correctInvoice(job.data as Node, job.options, job.now ?? new Date()) as OutcomeOf<J>;
  }
  throw new Error(`unknown engine job ${(job as { op: unknown }).op}`);
}

function examineToStore(job: ExamineJob): ExaminedToStore {
  const examined = examineDocument(job.data, { headUuid: job.headUuid, now: job.now });
  const { faults, rebuilt } = examined;
  if (faults.length > 0 || !rebuilt || rebuilt.head.dig?.val === job.givenDigest) return examined;
  return { faults, rebuilt, rebuiltFaults: validateDocument(rebuilt, { trustDigest: true }) };
}
