import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { base64, folder, jsonObject, label, queryBool, queryInt, state, tags, sha256, timestamp, uuid } from './common.ts';
import { MAX_TRUSTED_KEYS, trustedJwk } from './trusted-jwks.ts';

/** The kinds of record that sync carries, each under its own id (see sync/records). */
export const SYNC_KINDS = ['entry', 'attachment', 'meta', 'workflow', 'series', 'series_entry', 'trusted_jwks'] as const;
export const syncKind = z.enum(SYNC_KINDS);

const attachmentId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ -');
const metaKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of A-Z a-z 0-9 . _ -');
const jws = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'must be a compact JWS');
const mime = z
  .string()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'must be a media type like application/pdf');

// ── records: the full current state of one record, as the feed serves it and a push sends it

export const entryRecord = z.object({
  id: uuid,
  key: label(255).optional(),
  folder,
  state,
  tags,
  /** the GOBL envelope, head.uuid = id */
  data: jsonObject,
  created_at: timestamp,
  /** in the trash since then (restorable until purged; a purge syncs as the entry's deletion) */
  trashed_at: timestamp.optional(),
});

export const attachmentRecord = z.object({
  entry_id: uuid,
  id: attachmentId,
  name: z.string().min(1).max(1024),
  desc: z.string().max(2000),
  mime,
  meta: jsonObject,
  /** the bytes travel apart, content-addressed (`/sync/v1/blobs`), before the record */
  hash: sha256,
  size: z.number().int().min(0),
  created_at: timestamp,
});

export const metaRecord = z.object({
  entry_id: uuid,
  src: metaKey,
  key: metaKey,
  ref: z.string().max(255),
  value: z.json(),
  shared: z.boolean(),
  link_scope: z.string().max(64),
  link_url: z.union([z.url(), z.literal('')]),
  created_at: timestamp,
  updated_at: timestamp,
});

const stepRecord = z.object({
  id: z.string().min(1).max(100),
  name: z.string().max(200),
  provider: z.string().min(1).max(100),
  config: jsonObject,
  notes: z.string().max(5000),
  next: z.array(
    z.object({
      status: z.enum(['OK', 'KO', 'SKIP', 'TIMEOUT', '']).optional(),
      code: z.string().max(100).optional(),
      step_id: uuid.optional(),
      stop: z.boolean().optional(),
    }),
  ).max(50),
});

export const workflowRecord = z.object({
  id: uuid,
  /** the workflow's own version number on the serving instance (informative) */
  workflow_version: z.number().int().min(1),
  definition: z.object({
    name: label(200),
    description: z.string().max(5000),
    country: z.string().max(10),
    schema: z.string().max(300),
    steps: z.array(stepRecord).min(1).max(100),
    rescue: z.array(stepRecord).max(100),
    disabled: z.boolean(),
  }),
  created_at: timestamp,
});

/** A series as its issuer signed it; a copy's head moves only as its entries arrive. */
export const seriesRecord = z.object({
  id: uuid,
  name: label(200),
  description: z.string().max(2000),
  code: z.string().max(32),
  prefix: z.string().max(20),
  padding: z.number().int().min(0).max(20),
  suffix: z.string().max(20),
  start: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** instance id of the only instance that issues its entries */
  issuer: uuid,
  sigs: z.array(jws).min(1).max(2),
  created_at: timestamp,
});

export const seriesEntryRecord = z.object({
  id: uuid,
  series_id: uuid,
  index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  code: z.string().max(200),
  meta: z.record(metaKey, z.string().max(2000)),
  previous_id: uuid.optional(),
  sigs: z.array(jws).min(1).max(2),
  created_at: timestamp,
});

/**
 * A signer the company's owner trusts for envelope signatures: its public keys, held
 * to the same rules as the trusted-JWKS API (P-256 public keys only, never a private one).
 */
export const trustedJwksRecord = z.object({
  id: uuid,
  name: label(200),
  keys: z.array(trustedJwk).min(1).max(MAX_TRUSTED_KEYS),
  created_at: timestamp,
});

export const recordSchemas = {
  entry: entryRecord,
  attachment: attachmentRecord,
  meta: metaRecord,
  workflow: workflowRecord,
  series: seriesRecord,
  series_entry: seriesEntryRecord,
  trusted_jwks: trustedJwksRecord,
} as const;

// ── the feed

const changeFields = {
  /** the change number on the serving instance: increases monotonically along the feed */
  seq: z.number().int(),
  kind: syncKind,
  id: z.string(),
  /** the serving instance's version of the record */
  version: z.number().int(),
  /** instance id of the instance where this change was made */
  origin: z.string(),
  deleted: z.literal(true).optional(),
  /** the record's current full state (absent when deleted) */
  record: z.unknown().optional(),
};

export const syncChangeSchema = z.object({
  ...changeFields,
  /** records this one needs that the feed serves later (a parent changed since): apply them first */
  requires: z.array(z.object(changeFields)).optional(),
});

const feedPage = z.object({
  instance_id: z.string(),
  company_id: z.string(),
  changes: z.array(syncChangeSchema),
  /** pass back as `cursor`; present on every page, so an up-to-date client resumes from it */
  next_cursor: z.string(),
  has_more: z.boolean(),
});

// ── push

const baseVersion = z.number().int().min(0).nullable();

export const pushChangeSchema = z.object({
  /** the version of this record on the receiving instance that the change was made on; null: never synced */
  base_version: baseVersion,
  deleted: z.boolean().optional(),
  record: z.unknown().optional(),
});

export const pushResultSchema = z.object({
  kind: z.string(),
  id: z.string(),
  /** applied: now at `version`; unchanged: it already held this state; conflict: it holds `version` from a newer change */
  status: z.enum(['applied', 'unchanged', 'conflict', 'error']),
  version: z.number().int().optional(),
  /** for a conflict: the instance whose change the remote holds */
  current_origin: z.string().optional(),
  error: z.object({ key: z.string(), code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }).optional(),
});

const originInstance = uuid;

// ── the controller as the UI sees it

const settingsSchema = z.object({
  configured: z.boolean(),
  remote_url: z.string(),
  /** the token itself is never answered */
  has_token: z.boolean(),
  interval_minutes: z.number().int(),
  paused: z.boolean(),
  remote_instance_id: z.string().optional(),
});

export const syncStateValues = ['not-configured', 'paused', 'offline', 'syncing', 'error', 'conflicts', 'pending', 'synced'] as const;

export const syncStatusSchema = z.object({
  /** what the badge shows, in this order of precedence: syncing, error (a failed sync, or parked changes), offline, paused, conflicts, pending, synced */
  state: z.enum(syncStateValues),
  configured: z.boolean(),
  paused: z.boolean(),
  running: z.boolean(),
  /** local changes not yet acknowledged by the remote (parked ones excluded) */
  pending: z.number().int(),
  conflicts: z.number().int(),
  parked: z.number().int(),
  /** series entries found forked (two at one index): they need a person */
  forks: z.number().int(),
  /** series this instance may not number until it has caught up with the remote (restored or copied data) or a fork is sorted out */
  held_series: z.number().int(),
  last_success_at: z.string().optional(),
  last_attempt_at: z.string().optional(),
  last_error: z.object({ kind: z.string(), message: z.string(), at: z.string() }).optional(),
  progress: z
    .object({
      phase: z.enum(['connect', 'push', 'pull', 'done']),
      started_at: z.string(),
      pushed: z.number().int(),
      pulled: z.number().int(),
      bytes_sent: z.number().int(),
      bytes_received: z.number().int(),
      /** pending changes when the run started */
      pending_at_start: z.number().int(),
      conflicts: z.number().int(),
      parked: z.number().int(),
    })
    .optional(),
  remote_instance_id: z.string().optional(),
});

const conflictSchema = z.object({
  id: z.string(),
  kind: syncKind,
  record_id: z.string(),
  /** for entries: the copy that holds the losing document (an entry that syncs; in `conflicts`, in `trash` once resolved) */
  copy_entry_id: z.string().optional(),
  local_version: z.number().int(),
  remote_version: z.number().int(),
  remote_origin: z.string(),
  /**
   * the losing (local) state; null when the local side had deleted the record. Once "keep mine" replaced the
   * remote's state of a meta, file or workflow, that state. Key clash: the remote's entry, waiting
   */
  loser: z.unknown(),
  /** version: both sides changed the record; key-clash: the remote's entry (record_id) and one here (other_entry_id) took the same key */
  reason: z.enum(['version', 'key-clash']),
  other_entry_id: z.string().optional(),
  created_at: z.string(),
  resolved_at: z.string().optional(),
  /** remote, mine, rename-mine, rename-theirs; auto or superseded when the clash went away by itself */
  resolution: z.string().optional(),
});

const forkSchema = z.object({
  id: z.string(),
  series_id: z.string(),
  index: z.number().int(),
  /** the entry this side holds at that index, in its chain */
  local_entry_id: z.string().optional(),
  /** the other chain's entry, validly signed by the issuer, kept here */
  other_entry_id: z.string(),
  other: z.unknown(),
  origin: z.string(),
  direction: z.enum(['push', 'pull']),
  detected_at: z.string(),
});

const counter = z.object({ counter: z.number().int().min(0), nonce: z.string().max(100) });


const parkedSchema = z.object({
  id: z.string(),
  direction: z.enum(['push', 'pull']),
  kind: syncKind,
  record_id: z.string(),
  version: z.number().int(),
  error: z.object({ key: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
  parked_at: z.string(),
});

const publicJwk = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().max(100),
  y: z.string().max(100),
  kid: z.string().min(1).max(100),
  alg: z.literal('ES256'),
  use: z.literal('sig'),
});

const peerSchema = z.object({
  instance_id: z.string(),
  /** the token that may push as this instance (besides owners) */
  token_id: z.string().optional(),
  /** the id this instance had before a restore or copy made it take a new one */
  successor_of: z.string().optional(),
  paired_at: z.string(),
  seen_at: z.string().optional(),
  keys: z.array(publicJwk),
});

const users = ['owner', 'user'] as const;
const owner = ['owner'] as const;
/** An instance syncing with this one presents a token of this company: any kind. */
const peers = ['owner', 'user', 'app'] as const;
const recordParams = z.object({ kind: syncKind, id: z.string().min(1).max(300) });

export const syncOperations = {
  // ── served to other instances
  listSyncChanges: defineOperation({
    method: 'GET',
    path: '/sync/v1/changes',
    summary: "The company's change feed: the current state of every changed record, by change number; an unknown or expired cursor is 410",
    area: 'sync',
    access: peers,
    query: z.object({
      cursor: z.string().max(1024).optional(),
      limit: queryInt(1, 500).default(100),
      /** leave out records whose latest change came from this instance (the caller's own pushes) */
      exclude_origin: uuid.optional(),
    }),
    output: feedPage,
  }),
  listSyncDeletions: defineOperation({
    method: 'GET',
    path: '/sync/v1/deletions',
    summary: 'Entries deleted after a feed cursor, so a client can refuse a pull that would delete most of its data before applying any',
    area: 'sync',
    access: peers,
    query: z.object({ cursor: z.string().max(1024).optional(), limit: queryInt(1, 5000).default(1000) }),
    output: z.object({ entry_ids: z.array(z.string()), next_cursor: z.string(), has_more: z.boolean() }),
  }),
  getSyncRecord: defineOperation({
    method: 'GET',
    path: '/sync/v1/records/{kind}/{id}',
    summary: 'One record as the feed would serve it now',
    area: 'sync',
    access: peers,
    params: recordParams,
    output: syncChangeSchema,
  }),
  putSyncRecord: defineOperation({
    method: 'PUT',
    path: '/sync/v1/records/{kind}/{id}',
    summary: 'Apply one record pushed by another instance (idempotent); 409 when this instance holds a newer version than base_version',
    area: 'sync',
    access: peers,
    params: recordParams,
    body: pushChangeSchema.extend({ origin: originInstance }),
    maxBody: 6 * 1024 * 1024,
    output: pushResultSchema,
  }),
  pushSyncRecords: defineOperation({
    method: 'POST',
    path: '/sync/v1/records',
    summary: 'Apply a batch of pushed records in order, each as its own PUT would (one transaction, each item on its own)',
    area: 'sync',
    access: peers,
    body: z.object({
      origin: originInstance,
      changes: z
        .array(pushChangeSchema.extend({ kind: z.string().max(20), id: z.string().max(300) }))
        .min(1)
        .max(500, 'at most 500 records a call'),
    }),
    maxBody: 50 * 1024 * 1024,
    output: z.object({ results: z.array(pushResultSchema) }),
  }),
  findMissingSyncBlobs: defineOperation({
    method: 'POST',
    path: '/sync/v1/blobs/missing',
    summary: 'Which of these attachment bytes (by SHA-256) this company does not hold yet',
    area: 'sync',
    access: peers,
    body: z.object({ hashes: z.array(sha256).max(1000) }),
    output: z.object({ missing: z.array(z.string()) }),
  }),
  putSyncBlobs: defineOperation({
    method: 'POST',
    path: '/sync/v1/blobs',
    summary: 'Store attachment bytes ahead of the records that reference them (content-addressed, idempotent)',
    area: 'sync',
    access: peers,
    body: z.object({
      blobs: z
        .array(z.object({ hash: sha256, data: base64 }))
        .min(1)
        .max(1000),
    }),
    maxBody: 72 * 1024 * 1024,
    output: z.object({ stored: z.number().int() }),
  }),
  readSyncBlobs: defineOperation({
    method: 'POST',
    path: '/sync/v1/blobs/read',
    summary: "Attachment bytes of this company by SHA-256 (base64), as many as fit in one answer; ask again for the rest",
    area: 'sync',
    access: peers,
    body: z.object({ hashes: z.array(sha256).min(1).max(200) }),
    output: z.object({
      blobs: z.array(z.object({ hash: z.string(), data: base64 })),
      missing: z.array(z.string()),
    }),
  }),
  getSyncKeys: defineOperation({
    method: 'GET',
    path: '/sync/v1/keys',
    summary: "Public keys of this instance and of every instance whose series it holds copies of",
    area: 'sync',
    access: peers,
    output: z.object({
      instance_id: z.string(),
      instances: z.array(z.object({ instance_id: z.string(), keys: z.array(publicJwk) })),
    }),
  }),
  putSyncKeys: defineOperation({
    method: 'PUT',
    path: '/sync/v1/keys',
    summary: "Add public keys of a paired instance (it rotated), by the token it is paired through or an owner; a known kid never changes",
    area: 'sync',
    access: peers,
    body: z.object({ instance_id: uuid, keys: z.array(publicJwk).min(1).max(100) }),
    output: z.object({ instance_id: z.string(), added: z.number().int() }),
  }),
  presentSyncIdentity: defineOperation({
    method: 'POST',
    path: '/sync/v1/identity',
    summary:
      'An instance says who it is before it syncs: its id, keys and identity counter. Pairs it on first contact (owner token only); ' +
      '`diverged` when its data is behind what it acknowledged before (restored from a backup, or copied)',
    area: 'sync',
    access: peers,
    body: z.object({
      instance_id: uuid,
      former_instance_id: uuid.optional(),
      keys: z.array(publicJwk).min(1).max(100),
      acknowledged: counter,
      next: counter,
    }),
    output: z.object({
      status: z.enum(['paired', 'ok', 'diverged']),
      instance_id: z.string(),
      acknowledged_counter: z.number().int().optional(),
    }),
  }),
  listSyncPeers: defineOperation({
    method: 'GET',
    path: '/sync/v1/peers',
    summary: 'Instances paired with this company for sync, with their keys',
    area: 'sync',
    access: owner,
    output: z.object({ list: z.array(peerSchema) }),
  }),
  pairSyncPeer: defineOperation({
    method: 'PUT',
    path: '/sync/v1/peers/{instance_id}',
    summary: 'Pair an instance with this company (its public keys, and the token it syncs with; default: this one)',
    area: 'sync',
    access: owner,
    params: z.object({ instance_id: uuid }),
    body: z.object({ keys: z.array(publicJwk).min(1).max(100), token_id: uuid.optional() }),
    output: peerSchema,
  }),
  unpairSyncPeer: defineOperation({
    method: 'DELETE',
    path: '/sync/v1/peers/{instance_id}',
    summary: 'Forget a paired instance: it must be paired again by the owner to sync (its keys stay, so what it signed still verifies)',
    area: 'sync',
    access: owner,
    params: z.object({ instance_id: uuid }),
    output: peerSchema,
  }),

  // ── the local controller (settings, badge, conflicts) for the UI
  getSyncSettings: defineOperation({
    method: 'GET',
    path: '/sync/v1/settings',
    summary: 'The remote this company syncs with (never the token)',
    area: 'sync',
    access: owner,
    output: settingsSchema,
  }),
  putSyncSettings: defineOperation({
    method: 'PUT',
    path: '/sync/v1/settings',
    summary: 'Set the remote base URL and token, the automatic sync interval and pause',
    area: 'sync',
    access: owner,
    body: z.object({
      /** http(s) base URL of the remote Silodesk; plain http only for loopback */
      remote_url: z.string().min(1).max(2000),
      /** omit to keep the stored token */
      token: z.string().min(1).max(500).optional(),
      /** 0 turns automatic sync off */
      interval_minutes: z.number().int().min(0).max(24 * 60).default(15),
      paused: z.boolean().default(false),
    }),
    output: settingsSchema,
  }),
  deleteSyncSettings: defineOperation({
    method: 'DELETE',
    path: '/sync/v1/settings',
    summary: 'Forget the remote and its token (what is already synced stays)',
    area: 'sync',
    access: owner,
    output: settingsSchema,
  }),
  testSyncConnection: defineOperation({
    method: 'POST',
    path: '/sync/v1/settings/test',
    summary: 'Reach the remote with the given (or stored) URL and token and tell what answered',
    area: 'sync',
    access: owner,
    body: z.object({ remote_url: z.string().min(1).max(2000).optional(), token: z.string().min(1).max(500).optional() }),
    output: z.object({
      ok: z.boolean(),
      latency_ms: z.number().optional(),
      remote_instance_id: z.string().optional(),
      remote_company: z.object({ id: z.string(), name: z.string() }).optional(),
      caller_kind: z.string().optional(),
      error: z.object({ kind: z.string(), message: z.string() }).optional(),
    }),
  }),
  startSync: defineOperation({
    method: 'POST',
    path: '/sync/v1/run',
    summary: 'Sync now (push, then pull); answers at once, or when done within `wait` seconds',
    area: 'sync',
    access: users,
    query: z.object({
      wait: queryInt(0, 60).default(0),
      /** this once, apply a pull even if it deletes more than half of the entries */
      allow_mass_deletion: queryBool.default(false),
    }),
    output: syncStatusSchema,
  }),
  cancelSync: defineOperation({
    method: 'POST',
    path: '/sync/v1/run/cancel',
    summary: 'Stop the sync under way; the next one resumes where it stopped',
    area: 'sync',
    access: users,
    output: syncStatusSchema,
  }),
  getSyncStatus: defineOperation({
    method: 'GET',
    path: '/sync/v1/status',
    summary: 'Badge state, counts, progress, last error and last success',
    area: 'sync',
    access: users,
    output: syncStatusSchema,
  }),
  listSyncConflicts: defineOperation({
    method: 'GET',
    path: '/sync/v1/conflicts',
    summary: 'Conflicts not yet resolved (or all with `all=true`), oldest first',
    area: 'sync',
    access: users,
    query: z.object({ all: queryBool.default(false), limit: queryInt(1, 500).default(100) }),
    output: z.object({ list: z.array(conflictSchema) }),
  }),
  resolveSyncConflict: defineOperation({
    method: 'POST',
    path: '/sync/v1/conflicts/{id}/resolve',
    summary:
      "Keep the remote's version (mine stays as a copy) or mine (re-applied over it as a new local change); a key clash is merged " +
      '(keep: the other entry goes to the trash without its key) or renamed (both kept)',
    area: 'sync',
    access: users,
    params: z.object({ id: uuid }),
    body: z
      .object({
        keep: z.enum(['remote', 'mine']).optional(),
        /** a key clash only: give one of the two entries another key, keeping both */
        rename: z.object({ which: z.enum(['mine', 'theirs']), key: label(255) }).optional(),
      })
      .refine((b) => (b.keep === undefined) !== (b.rename === undefined), { message: 'give either keep or rename' }),
    output: conflictSchema,
  }),
  listSyncForks: defineOperation({
    method: 'GET',
    path: '/sync/v1/forks',
    summary: 'Series entries found at an index another entry of the same chain holds: both kept, this side\'s in the chain, the other here',
    area: 'sync',
    access: users,
    output: z.object({ list: z.array(forkSchema) }),
  }),
  listParkedChanges: defineOperation({
    method: 'GET',
    path: '/sync/v1/parked',
    summary: 'Changes refused as invalid by the remote (push) or here (pull), kept aside',
    area: 'sync',
    access: users,
    output: z.object({ list: z.array(parkedSchema) }),
  }),
  retryParkedChange: defineOperation({
    method: 'POST',
    path: '/sync/v1/parked/{id}/retry',
    summary: 'Put a parked change back in line for the next sync',
    area: 'sync',
    access: users,
    params: z.object({ id: uuid }),
    output: z.object({ retried: z.boolean() }),
  }),
};

export type SyncRecordOf = {
  [K in keyof typeof recordSchemas]: z.output<(typeof recordSchemas)[K]>;
};
export type SyncChange = z.output<typeof syncChangeSchema>;
export type PushResult = z.output<typeof pushResultSchema>;
export type SyncStatus = z.output<typeof syncStatusSchema>;
