import { ApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { Service } from '../service.ts';
import { releaseCaughtUp } from './catch-up.ts';
import { pendingCount } from './change-rows.ts';
import { startFullPull } from './full-pull.ts';
import { establishIdentity } from './identity.ts';
import { pullChanges } from './pull.ts';
import { pushChanges } from './push.ts';
import { remoteApi } from './remote-client.ts';
import type { Progress, SyncOptions, SyncRun } from './run-context.ts';
import { loadConfig } from './settings.ts';
import { ownerOf, type CompanyKey } from '../access/company-key.ts';

export function remoteClientFor(config: { remote_url: string; token: string }, options: SyncOptions, signal: AbortSignal, progress?: Progress) {
  return remoteApi({
    baseUrl: config.remote_url,
    token: config.token,
    retry: options.retry,
    signal,
    onBytes: (sent, received) => {
      if (!progress) return;
      progress.bytes_sent += sent;
      progress.bytes_received += received;
    },
  });
}

/**
 * One sync of one company: make sure the remote is who we think it is, and that
 * it knows us for who we are (identity.ts: a restored or copied data folder is
 * re-identified here), push the outbox, pull the feed, release the series that
 * have caught up, then push once more what the pull left to send (a conflict
 * resolved in our favour, a state the remote had lost).
 */
export async function runSync(
  service: Service,
  companyKey: CompanyKey,
  options: SyncOptions,
  signal: AbortSignal,
  progress: Progress,
  allowMassDeletion: boolean,
): Promise<void> {
  const { db } = service;
  const config = await loadConfig(db, companyKey);
  if (!config) throw new ApiError('conflict', 'sync is not configured for this company');
  const remote = remoteClientFor(config, options, signal, progress);
  progress.phase = 'connect';
  const session = await remote.getSession();
  if (session.instance_id === service.instanceId) throw new ApiError('bad-request', 'the remote URL points at this instance itself');

  if (config.remote_instance_id !== session.instance_id || config.remote_company_id !== session.company.id) {
    // Another remote (or another company on it) than the one we synced with: its
    // versions mean nothing here. Everything is news to it, and its feed from the start.
    if (config.remote_instance_id !== null) await startFullPull(db, companyKey, true);
    await db.run(
      db.q
        .updateTable('sync_config')
        .set({ remote_instance_id: session.instance_id, remote_company_id: session.company.id })
        .where('company_id', '=', companyKey),
    );
  }
  await establishIdentity(service, companyKey, remote, session.instance_id, session.company.id);
  const ctx: Ctx = { service, caller: await ownerOf(service.db, companyKey) };
  const run: SyncRun = {
    ctx, companyKey, remote, remoteInstanceId: session.instance_id, options, signal, progress, allowMassDeletion, refusedBlobs: new Map(),
  };
  progress.pending_at_start = await pendingCount(db, companyKey);

  await pushChanges(run);
  const pulled = await pullChanges(run);
  progress.conflicts += pulled.conflicts;
  if (!signal.aborted && pulled.complete) await releaseCaughtUp(run);
  if (!signal.aborted && (await pendingCount(db, companyKey)) > 0) await pushChanges(run);
  progress.phase = 'done';
}
