import type { SyncStatus } from '../api/contract/sync.ts';
import type { Ctx } from '../api/handler.ts';
import { pendingCount } from './change-rows.ts';
import { openConflictCount } from './conflicts.ts';
import { heldSeries } from '../sequence/holds.ts';
import { forkCount } from './forks.ts';
import { parkedCount } from './parked.ts';
import type { Progress } from './run-context.ts';
import { loadConfig } from './settings.ts';

/** Kinds of failure that make the badge say `error` (network trouble says `offline`). */
const ERROR_KINDS = new Set(['auth', 'remote', 'refused', 'config', 'internal', 'timeout']);

/**
 * What the badge shows, and what is behind it. Precedence: a sync under way, then
 * an error that needs a person (a failed sync, or a parked change), then being
 * offline, then conflicts to decide, then changes waiting to go out; else
 * everything is synced.
 */
export async function syncStatus(ctx: Ctx, running: boolean, progress: Progress | undefined): Promise<SyncStatus> {
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const config = await loadConfig(db, companyKey);
  const pending = await pendingCount(db, companyKey);
  const conflicts = await openConflictCount(ctx);
  const parked = await parkedCount(db, companyKey);
  const forks = await forkCount(db, companyKey);
  const held = await heldSeries(db, companyKey);
  const errorKind = config?.last_error_kind ?? undefined;

  let state: SyncStatus['state'];
  if (!config) state = 'not-configured';
  else if (running) state = 'syncing';
  // a parked change or a forked series needs a person as much as a failed sync does;
  // a key clash or a version conflict is `conflicts`: resolvable from the list, with a button
  else if ((errorKind && ERROR_KINDS.has(errorKind)) || parked > 0 || forks > 0) state = 'error';
  else if (errorKind === 'network') state = 'offline';
  else if (config.paused === 1) state = 'paused';
  else if (conflicts > 0) state = 'conflicts';
  else if (pending > 0) state = 'pending';
  else state = 'synced';

  return {
    state,
    configured: !!config,
    paused: config?.paused === 1,
    running,
    pending,
    conflicts,
    parked,
    forks,
    held_series: held.length,
    ...(config?.last_success_at ? { last_success_at: config.last_success_at } : {}),
    ...(config?.last_attempt_at ? { last_attempt_at: config.last_attempt_at } : {}),
    ...(config?.last_error && config.last_error_kind
      ? { last_error: { kind: config.last_error_kind, message: config.last_error, at: config.last_error_at ?? '' } }
      : {}),
    ...(progress ? { progress: { ...progress } } : {}),
    ...(config?.remote_instance_id ? { remote_instance_id: config.remote_instance_id } : {}),
  };
}
