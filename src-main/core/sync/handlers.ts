import type { HandlersOf } from '../api/handler.ts';
import { badRequest } from '../api/errors.ts';
import type { syncOperations } from '../api/contract/sync.ts';
import { applyPushedBatch, applyPushedOne } from './apply-pushed.ts';
import { findMissingBlobs, putBlobs, readBlobs } from './blobs.ts';
import { changeRow } from './change-rows.ts';
import { listConflicts, resolveConflict } from './conflicts.ts';
import { testConnection } from './connection-test.ts';
import { changeOf, listChanges, listDeletions, servedReadOptions } from './feed.ts';
import { listParked, retryParked } from './parked.ts';
import { listForks } from './forks.ts';
import { addInstanceKeys, listPeers, pairByOwner, presentIdentity, unpair } from './pairing.ts';
import { instanceKeySets } from './peer-keys.ts';
import { recordKinds } from './records/index.ts';
import { notFound } from '../api/errors.ts';
import { LOCAL } from '../db/write-scopes.ts';

export const syncHandlers: HandlersOf<typeof syncOperations> = {
  listSyncChanges: (ctx, { query }) => listChanges(ctx, query),
  listSyncDeletions: (ctx, { query }) => listDeletions(ctx, query),
  getSyncRecord: async (ctx, { params }) => {
    if (recordKinds[params.kind].refOf(params.id) === undefined) throw badRequest(`not a ${params.kind} id`, { id: `not a ${params.kind} id` });
    // the change row and the record's state read in one snapshot, so the version served is the state's
    return ctx.service.db.tx(async () => {
      const row = await changeRow(ctx.service.db, ctx.caller.companyKey, params.kind, params.id);
      if (!row) throw notFound(`${params.kind} ${params.id}`);
      return changeOf(ctx, row, servedReadOptions(ctx));
    }, { origin: LOCAL, snapshot: true });
  },
  putSyncRecord: (ctx, { params, body }) => applyPushedOne(ctx, body.origin, params.kind, params.id, body),
  pushSyncRecords: async (ctx, { body }) => ({ results: await applyPushedBatch(ctx, body.origin, body.changes) }),
  findMissingSyncBlobs: (ctx, { body }) => findMissingBlobs(ctx, body.hashes),
  putSyncBlobs: (ctx, { body }) => putBlobs(ctx, body.blobs),
  readSyncBlobs: (ctx, { body }) => readBlobs(ctx, body.hashes),
  getSyncKeys: async (ctx) => ({
    instance_id: ctx.service.instanceId,
    instances: [
      { instance_id: ctx.service.instanceId, keys: ctx.service.keys.jwks().keys },
      ...(await instanceKeySets(ctx.service.db, ctx.caller.companyKey)).filter((s) => s.instance_id !== ctx.service.instanceId),
    ],
  }),
  putSyncKeys: async (ctx, { body }) => ({ instance_id: body.instance_id, added: await addInstanceKeys(ctx, body.instance_id, body.keys) }),
  presentSyncIdentity: (ctx, { body }) => presentIdentity(ctx, body),
  listSyncPeers: (ctx) => listPeers(ctx),
  pairSyncPeer: (ctx, { params, body }) => pairByOwner(ctx, params.instance_id, body),
  unpairSyncPeer: (ctx, { params }) => unpair(ctx, params.instance_id),
  listSyncForks: async (ctx) => ({ list: await listForks(ctx.service.db, ctx.caller.companyKey) }),

  getSyncSettings: (ctx) => ctx.service.sync.settings(ctx.caller.companyKey),
  putSyncSettings: (ctx, { body }) => ctx.service.sync.configure(ctx.caller.companyKey, body),
  deleteSyncSettings: (ctx) => ctx.service.sync.forget(ctx.caller.companyKey),
  testSyncConnection: (ctx, { body }) => testConnection(ctx, body),
  startSync: async (ctx, { query }) => {
    const { sync } = ctx.service;
    // under way once begun (or refused, not configured), so the status below shows it running
    const { done } = await sync.begin(ctx.caller.companyKey, { allowMassDeletion: query.allow_mass_deletion });
    if (query.wait > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, query.wait * 1000)))]);
      clearTimeout(timer);
    }
    return sync.status(ctx.caller.companyKey);
  },
  cancelSync: (ctx) => {
    ctx.service.sync.cancel(ctx.caller.companyKey);
    return ctx.service.sync.status(ctx.caller.companyKey);
  },
  getSyncStatus: (ctx) => ctx.service.sync.status(ctx.caller.companyKey),
  listSyncConflicts: (ctx, { query }) => listConflicts(ctx, query),
  resolveSyncConflict: (ctx, { params, body }) => resolveConflict(ctx, params.id, body.rename ? { rename: body.rename } : { keep: body.keep! }),
  listParkedChanges: async (ctx) => ({ list: await listParked(ctx.service.db, ctx.caller.companyKey) }),
  retryParkedChange: (ctx, { params }) => retryParked(ctx.service.db, ctx.caller.companyKey, params.id),
};
