import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Inline, numbered migrations: bundled with the app, so the desktop build needs no
 * migration folder on disk. Never edit a migration that has shipped; add the next one.
 */
export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      for (const statement of INITIAL) await sql.raw(statement).execute(db);
    },
  },
  '0002_sequence': {
    async up(db: Kysely<any>) {
      for (const statement of SEQUENCE) await sql.raw(statement).execute(db);
    },
  },
  '0003_transform': {
    async up(db: Kysely<any>) {
      for (const statement of TRANSFORM) await sql.raw(statement).execute(db);
    },
  },
  '0004_issue_date': {
    async up(db: Kysely<any>) {
      for (const statement of ISSUE_DATE) await sql.raw(statement).execute(db);
    },
  },
  '0005_access': {
    async up(db: Kysely<any>) {
      for (const statement of ACCESS) await sql.raw(statement).execute(db);
    },
  },
};

const INITIAL = [
  `CREATE TABLE companies (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE TABLE tokens (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL REFERENCES companies(id),
     kind TEXT NOT NULL CHECK (kind IN ('owner', 'user', 'app')),
     name TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     enrollment_id TEXT,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   ) STRICT`,
  `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT`,
  `CREATE TABLE entries (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     company_id TEXT NOT NULL REFERENCES companies(id),
     key TEXT,
     folder TEXT NOT NULL,
     state TEXT NOT NULL,
     context TEXT NOT NULL DEFAULT '',
     draft INTEGER NOT NULL,
     invalid INTEGER NOT NULL,
     signed INTEGER NOT NULL,
     doc_schema TEXT NOT NULL,
     doc_uuid TEXT,
     env_schema TEXT NOT NULL,
     digest_alg TEXT NOT NULL,
     digest_val TEXT NOT NULL,
     snippet TEXT NOT NULL,
     tags TEXT NOT NULL,
     faults TEXT NOT NULL,
     data TEXT NOT NULL,
     request_hash TEXT NOT NULL,
     version INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE UNIQUE INDEX entries_company_key ON entries(company_id, key) WHERE key IS NOT NULL`,
  `CREATE INDEX entries_company_created ON entries(company_id, created_at, id)`,
  `CREATE INDEX entries_company_folder_created ON entries(company_id, folder, created_at, id)`,
  `CREATE INDEX entries_company_digest ON entries(company_id, digest_val)`,
  `CREATE INDEX entries_company_doc_uuid ON entries(company_id, doc_uuid) WHERE doc_uuid IS NOT NULL`,
  `CREATE TABLE mentions (
     company_id TEXT NOT NULL,
     uuid TEXT NOT NULL,
     entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
     context TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (company_id, uuid, entry_id, context)
   ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX mentions_lookup ON mentions(company_id, uuid, created_at, entry_id)`,
  `CREATE INDEX mentions_entry ON mentions(entry_id)`,
  `CREATE TABLE attachments (
     entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
     id TEXT NOT NULL,
     company_id TEXT NOT NULL,
     name TEXT NOT NULL,
     desc TEXT NOT NULL,
     mime TEXT NOT NULL,
     hash TEXT NOT NULL,
     size INTEGER NOT NULL,
     meta TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (entry_id, id)
   ) STRICT`,
  `CREATE INDEX attachments_hash ON attachments(hash)`,
  `CREATE TABLE entry_meta (
     entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
     src TEXT NOT NULL,
     key TEXT NOT NULL,
     ref TEXT NOT NULL,
     value TEXT NOT NULL,
     shared INTEGER NOT NULL,
     link_scope TEXT NOT NULL,
     link_url TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (entry_id, key, src)
   ) STRICT`,
  // Full-text index over snippet and document text; rowid = entries.seq, written in
  // the same transaction as the entry so it can never drift.
  `CREATE VIRTUAL TABLE entries_fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')`,
];

// Numbering series and their signed, hash-chained entries. `previous_id` has no
// foreign key on purpose: the chain is proven by signatures, and a removed row
// must stay removable so verification can report it rather than SQLite hiding it.
const SEQUENCE = [
  `CREATE TABLE series (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL REFERENCES companies(id),
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     code TEXT NOT NULL,
     prefix TEXT NOT NULL,
     padding INTEGER NOT NULL CHECK (padding BETWEEN 0 AND 20),
     suffix TEXT NOT NULL,
     start INTEGER NOT NULL CHECK (start >= 0),
     issuer TEXT NOT NULL,
     last_index INTEGER NOT NULL,
     last_entry_id TEXT,
     sigs TEXT NOT NULL,
     request_hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE INDEX series_company_created ON series(company_id, created_at, id)`,
  `CREATE TABLE series_entries (
     id TEXT PRIMARY KEY,
     series_id TEXT NOT NULL REFERENCES series(id),
     idx INTEGER NOT NULL,
     code TEXT NOT NULL,
     meta TEXT NOT NULL,
     previous_id TEXT,
     sigs TEXT NOT NULL,
     request_hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (series_id, idx)
   ) STRICT`,
  `CREATE INDEX series_entries_code ON series_entries(series_id, code)`,
];

const TRANSFORM = [
  `CREATE TABLE workflows (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL REFERENCES companies(id),
     version INTEGER NOT NULL,
     name TEXT NOT NULL,
     schema TEXT NOT NULL,
     disabled INTEGER NOT NULL,
     request_hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE INDEX workflows_company_created ON workflows(company_id, created_at, id)`,
  // Every version stays, so a job always shows the definition it ran.
  `CREATE TABLE workflow_versions (
     workflow_id TEXT NOT NULL REFERENCES workflows(id),
     version INTEGER NOT NULL,
     definition TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (workflow_id, version)
   ) STRICT`,
  `CREATE TABLE jobs (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     company_id TEXT NOT NULL REFERENCES companies(id),
     workflow_id TEXT NOT NULL REFERENCES workflows(id),
     workflow_version INTEGER NOT NULL,
     silo_entry_id TEXT NOT NULL REFERENCES entries(id),
     key TEXT,
     status TEXT NOT NULL,
     tags TEXT NOT NULL,
     args TEXT NOT NULL,
     faults TEXT NOT NULL,
     request_hash TEXT NOT NULL,
     current_intent_id TEXT,
     in_rescue INTEGER NOT NULL DEFAULT 0,
     steps_run INTEGER NOT NULL DEFAULT 0,
     attempt INTEGER NOT NULL DEFAULT 0,
     run_at INTEGER NOT NULL,
     cancel_requested INTEGER NOT NULL DEFAULT 0,
     envelope TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     completed_at TEXT
   ) STRICT`,
  `CREATE UNIQUE INDEX jobs_company_key ON jobs(company_id, key) WHERE key IS NOT NULL`,
  `CREATE INDEX jobs_runnable ON jobs(run_at) WHERE completed_at IS NULL`,
  `CREATE INDEX jobs_company_created ON jobs(company_id, created_at, id)`,
  `CREATE INDEX jobs_entry ON jobs(silo_entry_id, created_at)`,
  `CREATE TABLE intents (
     id TEXT PRIMARY KEY,
     job_id TEXT NOT NULL REFERENCES jobs(id),
     seq INTEGER NOT NULL,
     step_id TEXT NOT NULL,
     name TEXT NOT NULL,
     provider TEXT NOT NULL,
     completed INTEGER NOT NULL,
     events TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE UNIQUE INDEX intents_job ON intents(job_id, seq)`,
  // Faults raised by workflow steps, kept apart from validation faults (which are
  // re-derived on every change) and replaced per provider on its next run.
  `ALTER TABLE entries ADD COLUMN step_faults TEXT NOT NULL DEFAULT '[]'`,
];

// Accountants filter by the document's own date, not by when it was imported.
const ISSUE_DATE = [
  `ALTER TABLE entries ADD COLUMN issue_date TEXT`,
  `UPDATE entries SET issue_date = json_extract(snippet, '$.issue_date')`,
  `CREATE INDEX entries_company_issue_date ON entries(company_id, issue_date) WHERE issue_date IS NOT NULL`,
];

const ACCESS = [
  `CREATE TABLE enrollments (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL REFERENCES companies(id),
     app_id TEXT NOT NULL,
     owner_id TEXT NOT NULL,
     data TEXT NOT NULL,
     disabled INTEGER NOT NULL DEFAULT 0,
     request_hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE UNIQUE INDEX enrollments_company_app ON enrollments(company_id, app_id)`,
  `CREATE INDEX tokens_company ON tokens(company_id, created_at)`,
];
