import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Db } from '../db/engine.ts';

const FORMER = 'former_instance_ids';

/**
 * The ids this install went by before it was re-identified (a data folder restored
 * from a backup or copied to another machine is given a new id at its next sync).
 * Its signing keys are the same files, so what it signed under an old id is still
 * its own: series issued under a former id verify with its own keys and may be
 * numbered again once caught up with the remote.
 */
export async function formerInstanceIds(db: Db): Promise<string[]> {
  const row = await db.first(db.q.selectFrom('settings').select('value').where('key', '=', FORMER));
  if (!row) return [];
  try {
    const ids = JSON.parse(row.value) as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** This install now, or under a former id. */
export async function isOwnIdentity(db: Db, currentId: string, id: string): Promise<boolean> {
  return id === currentId || (await formerInstanceIds(db)).includes(id);
}

/**
 * Gives the install a new instance id, remembering the old one; in the caller's
 * transaction. The caller swaps `service.instanceId` once it commits.
 */
export async function newInstanceId(db: Db, currentId: string): Promise<string> {
  const next = uuidv7();
  const formers = [...new Set([...(await formerInstanceIds(db)), currentId])];
  await db.run(
    db.q
      .insertInto('settings')
      .values({ key: FORMER, value: JSON.stringify(formers) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(formers) })),
  );
  await db.run(db.q.updateTable('settings').set({ value: next }).where('key', '=', 'instance_id'));
  return next;
}
