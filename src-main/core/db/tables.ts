import type { Generated } from 'kysely';
import type { StoredDocument } from '../silo/packed-document.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** Row types as SQLite stores them: booleans are 0/1, JSON columns are text. */
export interface CompaniesTable {
  /** the key its rows are stored under (access/company-key.ts) */
  id: CompanyKey;
  /** its public id */
  uuid: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface TokensTable {
  id: string;
  company_id: CompanyKey;
  /** owner | user | app */
  kind: string;
  name: string;
  /** hex SHA-256 of the secret; the secret itself is never stored */
  hash: string;
  enrollment_id: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface EntriesTable {
  /** stable integer key used as the full-text index rowid */
  seq: Generated<number>;
  id: string;
  company_id: CompanyKey;
  key: string | null;
  folder: string;
  state: string;
  context: string;
  draft: number;
  invalid: number;
  signed: number;
  doc_schema: string;
  /** the document's own `uuid` (differs from the envelope's head.uuid, which is the entry id) */
  doc_uuid: string | null;
  env_schema: string;
  digest_alg: string;
  digest_val: string;
  snippet: string;
  tags: string;
  faults: string;
  /** the envelope: its JSON text, or packed (silo/packed-document.ts) */
  data: StoredDocument;
  /** that `faults` are GOBL's verdict on `data` at this engine revision (silo/check-mark.ts); null when unknown */
  checked: Generated<string | null>;
  /** the document's issue date (YYYY-MM-DD) when it has one, for date filters */
  issue_date: string | null;
  /** faults raised by workflow steps (validation faults are in `faults`) */
  step_faults: Generated<string>;
  /** hash of the creating request, to tell an idempotent replay from a conflicting reuse of the id */
  request_hash: string;
  version: number;
  created_at: string;
  updated_at: string;
  /** when the entry was moved to the trash; null while it is live (record-keeping-schema.ts) */
  trashed_at: Generated<string | null>;
}

/** How other documents can name an entry's document (filled at write time). */
/** A document's identity, keyed by its entry's seq (identities-by-seq.ts). */
export interface EntryIdentitiesTable {
  seq: number;
  company_id: CompanyKey;
  /** GOBL document type, e.g. `bill/invoice` */
  type: string | null;
  series: string | null;
  code: string | null;
  issue_date: string | null;
}

/** One document reference (`org.DocumentRef`) inside an entry's document. */
export interface EntryRefsTable {
  entry_id: string;
  /** where it sits: `preceding`, `lines.document`, `ordering.purchases`… */
  context: string;
  position: number;
  company_id: CompanyKey;
  uuid: string | null;
  /** the referenced document's type, when known */
  type: string | null;
  series: string | null;
  code: string | null;
  issue_date: string | null;
}

export interface MentionsTable {
  company_id: CompanyKey;
  uuid: string;
  entry_id: string;
  context: string;
  created_at: string;
}

export interface AttachmentsTable {
  entry_id: string;
  id: string;
  company_id: CompanyKey;
  name: string;
  desc: string;
  mime: string;
  hash: string;
  size: number;
  meta: string;
  created_at: string;
  /** the hosted service's file members (migration 0012): a key unique in the entry, a category, two flags */
  key: string | null;
  category: Generated<string>;
  embeddable: Generated<number>;
  private: Generated<number>;
}

/** A state an entry was in, from when (the hosted service's entry states; silo/states.ts). */
export interface EntryStatesTable {
  seq: Generated<number>;
  entry_id: string;
  company_id: CompanyKey;
  at: string;
  key: string;
  src: string;
  src_id: Generated<string>;
  notes: Generated<string>;
  meta: Generated<string>;
  faults: Generated<string>;
}

/** A file announced by its hash whose bytes have yet to come (silo/file-upload.ts). */
export interface AttachmentUploadsTable {
  token_hash: string;
  entry_id: string;
  id: string;
  company_id: CompanyKey;
  /** the announced file as JSON: name, desc, mime, hash, size, meta, key, category, embeddable, private */
  file: string;
  created_at: string;
  expires_at: string;
}

export interface EntryMetaTable {
  company_id: CompanyKey;
  entry_id: string;
  src: string;
  key: string;
  ref: string;
  value: string;
  shared: number;
  link_scope: string;
  link_url: string;
  created_at: string;
  updated_at: string;
}

/** A numbering series; `last_index`/`last_entry_id` are its head, moved with each entry in one transaction. */
export interface SeriesTable {
  id: string;
  company_id: CompanyKey;
  name: string;
  description: string;
  code: string;
  prefix: string;
  padding: number;
  suffix: string;
  /** index of the first entry */
  start: number;
  /** instance id of the only instance that may issue entries (single writer) */
  issuer: string;
  /** 0 until the first entry */
  last_index: number;
  last_entry_id: string | null;
  /** JSON array of compact JWS: the service's over the numbering fields, then the client's */
  sigs: string;
  request_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SeriesEntriesTable {
  company_id: CompanyKey;
  id: string;
  series_id: string;
  /** the entry's index in the series (`index` is an SQL keyword) */
  idx: number;
  code: string;
  /** JSON object of strings, keys sorted */
  meta: string;
  previous_id: string | null;
  /** JSON array of compact JWS: the service's chain signature first, then the client's */
  sigs: string;
  request_hash: string;
  created_at: string;
  updated_at: string;
}

export interface WorkflowsTable {
  id: string;
  company_id: CompanyKey;
  version: number;
  name: string;
  schema: string;
  disabled: number;
  request_hash: string;
  created_at: string;
  updated_at: string;
}

export interface WorkflowVersionsTable {
  company_id: CompanyKey;
  workflow_id: string;
  version: number;
  /** JSON of the whole definition: name, description, country, schema, steps, rescue, disabled */
  definition: string;
  created_at: string;
}

export interface JobsTable {
  seq: Generated<number>;
  id: string;
  company_id: CompanyKey;
  workflow_id: string;
  workflow_version: number;
  silo_entry_id: string;
  key: string | null;
  status: string;
  tags: string;
  args: string;
  faults: string;
  request_hash: string;
  /** the intent of the step to run next; null once the job has ended */
  current_intent_id: string | null;
  in_rescue: Generated<number>;
  steps_run: Generated<number>;
  /** tries of the current step so far */
  attempt: Generated<number>;
  /** epoch ms when the job may run next (retry backoff) */
  run_at: number;
  cancel_requested: Generated<number>;
  /** the document as the job left it, kept when the job ends (as the entry stored it) */
  envelope: StoredDocument | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface IntentsTable {
  company_id: CompanyKey;
  id: string;
  job_id: string;
  seq: number;
  step_id: string;
  name: string;
  provider: string;
  completed: number;
  events: string;
  created_at: string;
  updated_at: string;
}

export interface EnrollmentsTable {
  id: string;
  company_id: CompanyKey;
  app_id: string;
  /** the token that enrolled the application */
  owner_id: string;
  data: string;
  disabled: Generated<number>;
  request_hash: string;
  /** SHA-256 (hex) of the OAuth client secret sent when enrolling; null when none was (migration 0014) */
  client_secret_hash: string | null;
  /** the token POST /access/v1/enrollment/authorize hands out, derived from the client secret (migration 0014) */
  authorized_token_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per synced record: its place in the change feed and its versions (see migration 0006). */
export interface SyncChangesTable {
  seq: Generated<number>;
  company_id: CompanyKey;
  /** entry | attachment | meta | workflow | series | series_entry */
  kind: string;
  record_id: string;
  /** this instance's version of the record, +1 on every change */
  version: number;
  deleted: Generated<number>;
  /** 'local' for changes made here, else the instance id the change came from */
  origin: string;
  /** the remote's version at the last agreement (push acknowledged or pull applied) */
  remote_version: number | null;
  /** this instance's version at that agreement; a local change past it is unpushed */
  synced_version: number | null;
  /** an attachment's or meta's entry (migration 0016): an entry's children are found by it, never by their ids */
  entry_id: Generated<string | null>;
}

export interface SyncConfigTable {
  company_id: CompanyKey;
  remote_url: string;
  token: string;
  interval_minutes: number;
  paused: number;
  remote_instance_id: string | null;
  remote_company_id: string | null;
  /** the remote's opaque feed cursor after the last applied page */
  pull_cursor: string | null;
  /** 1 while a full pull (first sync, or restart after a 410) is under way */
  full_pull: Generated<number>;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  last_error_kind: string | null;
  last_error_at: string | null;
  updated_at: string;
  /** deletion guard over time: the most entries seen since `guard_since`, and the remote's deletions applied since */
  guard_peak: Generated<number>;
  guard_deleted: Generated<number>;
  guard_since: string | null;
}

export interface SyncConflictsTable {
  id: string;
  company_id: CompanyKey;
  kind: string;
  record_id: string;
  /** the entry in the `conflicts` folder holding the losing document (entry conflicts) */
  copy_entry_id: string | null;
  local_version: number;
  remote_version: number;
  remote_origin: string;
  /** JSON of the losing record; `null` when the losing side was a deletion */
  loser: string;
  created_at: string;
  resolved_at: string | null;
  resolution: string | null;
  /** 'version' (both sides changed the record) or 'key-clash' (two entries took one key) */
  reason: Generated<string>;
  /** key clash: the local entry holding the key */
  other_entry_id: string | null;
}

export interface SyncParkedTable {
  id: string;
  company_id: CompanyKey;
  direction: string;
  kind: string;
  record_id: string;
  version: number;
  /** JSON error body */
  error: string;
  parked_at: string;
  /** 1: someone asked to try it again at the next sync (pull side) */
  retry: Generated<number>;
  /** a parked push of an attachment or meta: its entry (migration 0016) */
  entry_id: Generated<string | null>;
}

export interface SyncLocalOnlyTable {
  company_id: CompanyKey;
  entry_id: string;
}

export interface SyncSeenTable {
  company_id: CompanyKey;
  kind: string;
  record_id: string;
}

export interface SyncPeerKeysTable {
  kid: string;
  instance_id: string;
  jwk: string;
  created_at: string;
}

/** An instance the company's owner paired for sync, and the identity counter it last acknowledged (remote side). */
export interface SyncPairingsTable {
  company_id: CompanyKey;
  instance_id: string;
  token_id: string | null;
  successor_of: string | null;
  ack_counter: Generated<number>;
  ack_nonce: Generated<string>;
  paired_at: string;
  seen_at: string | null;
}

/** What this instance last agreed with a remote about its identity (laptop side). */
export interface SyncIdentityTable {
  company_id: CompanyKey;
  remote_instance_id: string;
  remote_company_id: string;
  paired_as: string;
  ack_counter: Generated<number>;
  ack_nonce: Generated<string>;
  next_nonce: string | null;
}

/** Public keys of other instances, trusted within one company only. */
export interface SyncInstanceKeysTable {
  company_id: CompanyKey;
  kid: string;
  instance_id: string;
  jwk: string;
  created_at: string;
}

/** Attachment bytes a company uploaded (or pulled) itself, so it may reference them. */
export interface SyncBlobGrantsTable {
  company_id: CompanyKey;
  hash: string;
  created_at: string;
}

/** Two series entries at one index: both kept, this side's in the chain, the other here. */
export interface SyncForksTable {
  id: string;
  company_id: CompanyKey;
  series_id: string;
  idx: number;
  local_entry_id: string | null;
  other_entry_id: string;
  other: string;
  origin: string;
  direction: string;
  detected_at: string;
}

/** A series this instance may not number until it has caught up with the remote's head. */
export interface SeriesHoldsTable {
  series_id: string;
  company_id: CompanyKey;
  reason: string;
  since: string;
}

/** A signer a company trusts for envelope signatures: the public keys of its JWKS (JSON). */
export interface TrustedJwksTable {
  company_id: CompanyKey;
  id: string;
  name: string;
  keys: string;
  created_at: string;
  updated_at: string;
}

export interface Tables {
  trusted_jwks: TrustedJwksTable;
  sync_pairings: SyncPairingsTable;
  sync_identity: SyncIdentityTable;
  sync_instance_keys: SyncInstanceKeysTable;
  sync_blob_grants: SyncBlobGrantsTable;
  sync_forks: SyncForksTable;
  series_holds: SeriesHoldsTable;
  sync_changes: SyncChangesTable;
  sync_config: SyncConfigTable;
  sync_conflicts: SyncConflictsTable;
  sync_parked: SyncParkedTable;
  sync_peer_keys: SyncPeerKeysTable;
  sync_seen: SyncSeenTable;
  sync_local_only: SyncLocalOnlyTable;
  enrollments: EnrollmentsTable;
  workflows: WorkflowsTable;
  workflow_versions: WorkflowVersionsTable;
  jobs: JobsTable;
  intents: IntentsTable;
  companies: CompaniesTable;
  tokens: TokensTable;
  settings: SettingsTable;
  entries: EntriesTable;
  mentions: MentionsTable;
  entry_identities: EntryIdentitiesTable;
  entry_refs: EntryRefsTable;
  attachments: AttachmentsTable;
  entry_states: EntryStatesTable;
  attachment_uploads: AttachmentUploadsTable;
  entry_meta: EntryMetaTable;
  series: SeriesTable;
  series_entries: SeriesEntriesTable;
}
