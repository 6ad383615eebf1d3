import type { Store } from '../db/store.ts';
import { CONFLICTS_FOLDER } from './conflicts.ts';
import { RemoteError } from './remote-client.ts';
import { MassDeletionRefused, type SyncRun } from './run-context.ts';
import { loadConfig } from './settings.ts';

/**
 * Entries here that the remote's changes after our cursor would delete, counted
 * before anything is applied (the feed's tombstones, by id, from the remote).
 */
export async function countRemoteDeletions(run: SyncRun): Promise<number> {
  const { store } = run.ctx.service;
  let cursor = loadConfig(store, run.companyId)!.pull_cursor;
  let hit = 0;
  for (;;) {
    const qs = new URLSearchParams(cursor ? { cursor } : {});
    let page: { entry_ids: string[]; next_cursor: string; has_more: boolean };
    try {
      page = await run.remote.json('GET', `/sync/v1/deletions?${qs}`);
    } catch (err) {
      // A cursor the remote does not know: counted from the start.
      if (err instanceof RemoteError && err.status === 410 && cursor) {
        cursor = null;
        continue;
      }
      throw err;
    }
    hit += page.entry_ids.filter((id) => localEntryExists(store, run.companyId, id)).length;
    if (!page.has_more) return hit;
    cursor = page.next_cursor;
  }
}

/** More than half of the entries, and more than one: the kind of loss a wrong remote causes. */
export const refuses = (deletions: number, entries: number) => deletions > 1 && deletions * 2 > entries;

export const refusal = (deletions: number, entries: number) =>
  new MassDeletionRefused(
    `refused: this sync would delete ${deletions} of the ${entries} entries here (more than half). Nothing was deleted. ` +
      'Check that the remote is the right one; to apply it anyway, sync once with allow_mass_deletion.',
  );

export function localEntryCount(store: Store, companyId: string): number {
  return store.first(
    store.q
      .selectFrom('entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('folder', '!=', CONFLICTS_FOLDER),
  )!.n;
}

export function localEntryExists(store: Store, companyId: string, id: string): boolean {
  return !!store.first(store.q.selectFrom('entries').select('id').where('id', '=', id).where('company_id', '=', companyId));
}
