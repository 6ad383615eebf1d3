// The GOBL engine's own thread (thread.ts starts it; a bundle builds this file as
// gobl-engine-thread.js): it takes one job at a time, in the order sent.
import { parentPort } from 'node:worker_threads';
import { buildDocument, examineDocument } from '../engine/index.ts';
import { WARM_UP_SAMPLE } from '../warm-up.ts';
import { answerJob, READY, type WireJob } from './wire.ts';

if (!parentPort) throw new Error('the GOBL engine thread runs as a worker');
const port = parentPort;

// GOBL's data read and its schemas and rules compiled before the first job, not inside it.
examineDocument(buildDocument(structuredClone(WARM_UP_SAMPLE)).envelope);

port.on('message', (job: WireJob) => port.postMessage(answerJob(job)));
port.postMessage(READY);
