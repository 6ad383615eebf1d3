import { randomBytes } from 'node:crypto';
import { ApiError } from '../api/errors.ts';
import type { Db } from '../db/engine.ts';
import { formerInstanceIds, newInstanceId } from '../keys/identity.ts';
import { holdSeries } from '../sequence/holds.ts';
import type { Service } from '../service.ts';
import { startFullPull } from './full-pull.ts';
import type { IdentityClaim } from './pairing.ts';
import type { RemoteApi } from './remote-client.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { companyIdOf, type CompanyKey } from '../access/company-key.ts';

/**
 * The laptop's side of the identity handshake (see pairing.ts for the remote's).
 * Before anything moves, the instance tells the remote the identity counter it
 * acknowledged last and proposes the next one. The proposal is written here
 * first and reused until the remote's answer is committed, so a sync killed at
 * any point presents the same proposal again.
 *
 * When the remote answers `diverged`, this data folder is behind what this
 * instance once acknowledged (restored from a backup), or a copy of it synced
 * first: the install takes a new id (its changes from now on are its own, and the
 * remote's records under the old id are news to it), every synced company starts
 * a full pull, and the series it issues are put on hold until caught up.
 */
export async function establishIdentity(
  service: Service,
  companyKey: CompanyKey,
  remote: RemoteApi,
  remoteInstanceId: string,
  remoteCompanyId: string,
): Promise<{ reidentified: boolean }> {
  const { db } = service;
  const key = { companyKey, remoteInstanceId, remoteCompanyId };
  let claim = await claimFor(service, key);
  let answer = await remote.presentSyncIdentity({ body: claim });
  let reidentified = false;
  if (answer.status === 'diverged') {
    const previous = service.instanceId;
    await reidentify(service);
    reidentified = true;
    // The operator knows a company by its public id, never by the key its rows are stored under.
    service.log?.(
      `sync ${await companyIdOf(db, companyKey)}: the remote has acknowledged more of instance ${previous} (counter ${answer.acknowledged_counter}) than this ` +
        `data folder holds (${claim.acknowledged.counter}): it was restored from a backup or copied. It is now instance ${service.instanceId}.`,
    );
    claim = await claimFor(service, key);
    answer = await remote.presentSyncIdentity({ body: claim });
    if (answer.status === 'diverged') throw new ApiError('conflict', 'the remote does not accept this instance under its new id either');
  }
  if (answer.instance_id !== remoteInstanceId) throw new ApiError('conflict', 'the remote changed identity during the sync');
  await db.run(
    db.q
      .updateTable('sync_identity')
      .set({ paired_as: claim.instance_id, ack_counter: claim.next.counter, ack_nonce: claim.next.nonce, next_nonce: null })
      .where('company_id', '=', companyKey)
      .where('remote_instance_id', '=', remoteInstanceId)
      .where('remote_company_id', '=', remoteCompanyId),
  );
  return { reidentified };
}

interface IdentityKey {
  companyKey: CompanyKey;
  remoteInstanceId: string;
  remoteCompanyId: string;
}

/** The claim to present, with a proposal that is stored before it is sent. */
async function claimFor(service: Service, key: IdentityKey): Promise<IdentityClaim> {
  const { db } = service;
  return db.tx(async () => {
    let row = await identityRow(db, key);
    if (!row) {
      await db.run(
        db.q.insertInto('sync_identity').values({
          company_id: key.companyKey,
          remote_instance_id: key.remoteInstanceId,
          remote_company_id: key.remoteCompanyId,
          paired_as: service.instanceId,
          next_nonce: null,
        }),
      );
      row = (await identityRow(db, key))!;
    }
    let nonce = row.next_nonce;
    if (!nonce) {
      nonce = randomBytes(16).toString('base64url');
      await db.run(
        db.q
          .updateTable('sync_identity')
          .set({ next_nonce: nonce })
          .where('company_id', '=', key.companyKey)
          .where('remote_instance_id', '=', key.remoteInstanceId)
          .where('remote_company_id', '=', key.remoteCompanyId),
      );
    }
    return {
      instance_id: service.instanceId,
      ...(row.paired_as !== service.instanceId ? { former_instance_id: row.paired_as } : {}),
      keys: service.keys.jwks().keys,
      acknowledged: { counter: row.ack_counter, nonce: row.ack_nonce },
      next: { counter: row.ack_counter + 1, nonce },
    };
  }, { origin: LOCAL });
}

async function identityRow(db: Db, key: IdentityKey) {
  return db.first(
    db.q
      .selectFrom('sync_identity')
      .selectAll()
      .where('company_id', '=', key.companyKey)
      .where('remote_instance_id', '=', key.remoteInstanceId)
      .where('remote_company_id', '=', key.remoteCompanyId),
  );
}

/**
 * A new id for the install, in one transaction with what follows from it: every
 * company that syncs pulls everything again, and holds the series it issues
 * until it has caught up with its remote's head of each (catch-up.ts).
 */
export async function reidentify(service: Service): Promise<void> {
  const { db } = service;
  const next = await db.tx(async () => {
    const own = [service.instanceId, ...(await formerInstanceIds(db))];
    const id = await newInstanceId(db, service.instanceId);
    const synced = (await db.all(db.q.selectFrom('sync_config').select('company_id'))).map((r) => r.company_id);
    if (synced.length > 0) {
      const series = await db.all(
        db.q.selectFrom('series').select(['id', 'company_id']).where('issuer', 'in', own).where('company_id', 'in', synced),
      );
      for (const s of series) await holdSeries(db, s.company_id, s.id, 'restored');
    }
    for (const companyKey of synced) await startFullPull(db, companyKey, false);
    return id;
  }, { origin: LOCAL });
  service.instanceId = next;
}
