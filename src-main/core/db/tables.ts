import type { Generated } from 'kysely';

/** Row types as SQLite stores them: booleans are 0/1, JSON columns are text. */
export interface CompaniesTable {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface TokensTable {
  id: string;
  company_id: string;
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
  company_id: string;
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
  data: string;
  /** hash of the creating request, to tell an idempotent replay from a conflicting reuse of the id */
  request_hash: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface MentionsTable {
  company_id: string;
  uuid: string;
  entry_id: string;
  context: string;
  created_at: string;
}

export interface AttachmentsTable {
  entry_id: string;
  id: string;
  company_id: string;
  name: string;
  desc: string;
  mime: string;
  hash: string;
  size: number;
  meta: string;
  created_at: string;
}

export interface EntryMetaTable {
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

export interface Tables {
  companies: CompaniesTable;
  tokens: TokensTable;
  settings: SettingsTable;
  entries: EntriesTable;
  mentions: MentionsTable;
  attachments: AttachmentsTable;
  entry_meta: EntryMetaTable;
}
