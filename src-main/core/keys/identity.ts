import { v7 as uuidv7 } from 'uuid';
import type { Store } from '../db/store.ts';

const FORMER = 'former_instance_ids';

/**
 * The ids this install went by before it was re-identified (a data folder restored
 * from a backup or copied to another machine is given a new id at its next sync).
 * Its signing keys are the same files, so what it signed under an old id is still
 * its own: series issued under a former id verify with its own keys and may be
 * numbered again once caught up with the remote.
 */
export function formerInstanceIds(store: Store): string[] {
  const row = store.first(store.q.selectFrom('settings').select('value').where('key', '=', FORMER));
  if (!row) return [];
  try {
    const ids = JSON.parse(row.value) as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** This install now, or under a former id. */
export function isOwnIdentity(store: Store, currentId: string, id: string): boolean {
  return id === currentId || formerInstanceIds(store).includes(id);
}

/**
 * Gives the install a new instance id, remembering the old one; in the caller's
 * transaction. The caller swaps `service.instanceId` once it commits.
 */
export function newInstanceId(store: Store, currentId: string): string {
  const next = uuidv7();
  const formers = [...new Set([...formerInstanceIds(store), currentId])];
  store.run(
    store.q
      .insertInto('settings')
      .values({ key: FORMER, value: JSON.stringify(formers) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(formers) })),
  );
  store.run(store.q.updateTable('settings').set({ value: next }).where('key', '=', 'instance_id'));
  return next;
}
