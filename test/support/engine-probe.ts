import { engineThread } from '../../src-main/core/gobl/engine-thread/index.ts';
import type { EngineThread } from '../../src-main/core/gobl/engine-thread/thread.ts';

/**
 * From now on, each job GOBL's engine thread is given is raced against `reads` (requests to the
 * services involved, started as the job starts): `first` says which came first, one per job.
 * A read that waits for a transaction holding the database while the engine works comes second.
 * `stop()` puts the thread back as it was.
 */
export function probeEngine(reads: () => Promise<boolean>): { first: string[]; stop(): void } {
  const thread: EngineThread = engineThread();
  const run = thread.run.bind(thread);
  const first: string[] = [];
  thread.run = (async (job) => {
    const worked = run(job);
    const answered = reads().then((ok) => (ok ? 'reads' : 'a read failed'));
    first.push(await Promise.race([answered, worked.then(() => 'engine', () => 'engine')]));
    return worked;
  }) as EngineThread['run'];
  return { first, stop: () => void (thread.run = run) };
}
