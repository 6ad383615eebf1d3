import { setImmediate as immediate } from 'node:timers/promises';

/**
 * Waits until due timers and waiting I/O (other requests) have run. One setImmediate is not
 * enough: awaited from code that an I/O callback started (a request's body arriving), it
 * resumes in the same turn of the event loop, before timers and the next poll, so two slices
 * of work would run back to back. The second one always comes after a whole turn.
 */
export async function letOthersIn(): Promise<void> {
  await immediate();
  await immediate();
}
