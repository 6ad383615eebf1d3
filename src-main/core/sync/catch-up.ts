import type { AnswerOf } from '../api/client/client.ts';
import { heldSeries, releaseHold } from '../sequence/holds.ts';
import { RemoteError } from './remote-client.ts';
import type { SyncRun } from './run-context.ts';

/**
 * After a pull, a series held because this data folder was restored or copied is
 * released once this side holds the remote's head entry of it (at the same index):
 * every number the remote knows of is then here too, so the next one issued here
 * cannot repeat one. A series the remote does not hold, or holds without entries,
 * has nothing to catch up with. A fork is never released here.
 */
export async function releaseCaughtUp(run: SyncRun): Promise<void> {
  const { db } = run.ctx.service;
  for (const seriesId of await heldSeries(db, run.companyKey, 'restored')) {
    if (run.signal.aborted) return;
    let head: AnswerOf<'getSeries'>;
    try {
      head = await run.remote.getSeries({ params: { id: seriesId } });
    } catch (err) {
      if (err instanceof RemoteError && err.status === 404) {
        await releaseHold(db, run.companyKey, seriesId);
        continue;
      }
      throw err;
    }
    if (!head.last_entry_id) {
      await releaseHold(db, run.companyKey, seriesId);
      continue;
    }
    const here = await db.first(
      db.q
        .selectFrom('series_entries')
        .select('idx')
        .where('company_id', '=', run.companyKey)
        .where('id', '=', head.last_entry_id)
        .where('series_id', '=', seriesId),
    );
    if (here && here.idx === head.last_index) await releaseHold(db, run.companyKey, seriesId);
  }
}
