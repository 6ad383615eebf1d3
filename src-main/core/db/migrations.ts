import { AUDIT_STREAMS_SCHEMA } from '../silo/audit-streams.ts';
import { scopeIdsByCompany } from './company-scoped-ids.ts';
import { compactNumberKeys } from '../silo/number-keys-migration.ts';
import { CHANGES_UNSTAMPED, recordChangesByTriggers } from './change-triggers.ts';
import { SEQ_TAILS_DROPPED } from './seq-tail-indexes.ts';
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { identityOf, referencesOf } from '../gobl/references.ts';
import { backfillListColumns, LIST_SCHEMA } from '../silo/list-migration.ts';
import { moveSearchIndex, SCALE_SCHEMA } from '../silo/scale-migration.ts';
import { ENTRY_SUMS_FENCED, ENTRY_SUMS_MOVING, ENTRY_SUMS_READ_PACKED, ENTRY_SUMS_SCHEMA } from '../silo/entry-sums.ts';
import { ENTRY_TAGS_SCHEMA } from '../silo/entry-tags.ts';
import { ENTRY_CHECK_MARK } from '../silo/check-mark.ts';
import { SORTS_TIED_BY_SEQ } from '../silo/sort-ties.ts';
import { loosenPackedDocumentColumns } from './loosen-column-types.ts';
import { documentText, type StoredDocument } from '../silo/packed-document.ts';
import { SEARCH_TERMS_SCHEMA } from '../silo/search-terms.ts';
import { COPIES_AND_SIGNERS } from '../sync/migration-copies-signers.ts';
import { HOSTED_SILO_SCHEMA } from '../silo/hosted-migration.ts';
import { ATTACHMENTS_IN_ORDER } from '../silo/attachments-in-order.ts';
import { DIGEST_INDEX_BY_BYTES, DIGEST_INDEX_BY_PREFIX } from '../silo/digest-prefix-index.ts';
import { IDENTITY_UUID_INDEX_GONE } from '../silo/identity-uuid-index.ts';
import { AUDIT_ACTORS_MIGRATION, IMPLIED_CREATED_VERSION } from '../silo/implied-created-version.ts';
import { IMPLIED_FIRST_STATE } from '../silo/implied-first-state.ts';
import { searchIndexByColumn } from '../silo/search-index-columns.ts';
import { RECORD_KEEPING_SCHEMA } from '../silo/record-keeping-schema.ts';
import { storeUnderCompanyKeysSqlite } from './company-keys-migration.ts';
import { CREATED_TIED_BY_SEQ } from '../silo/created-ties.ts';
import { IDENTITIES_BY_SEQ } from '../silo/identities-by-seq.ts';

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

// Sync (DESIGN §6). `sync_changes` is the outbox and the change feed at once: one
// row per record (log-compacted: a change deletes the record's row and inserts it
// again, so it moves to a new, higher seq and a feed never replays superseded
// states). AUTOINCREMENT so a seq is never reused, even after the highest row
// moves: a cursor past it must never see an older change under its number.
// `version` is this instance's per-record version; `remote_version` and
// `synced_version` are what the configured remote and this instance last agreed on.
const SYNC = [
  `CREATE TABLE sync_changes (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     company_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('entry', 'attachment', 'meta', 'workflow', 'series', 'series_entry')),
     record_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     deleted INTEGER NOT NULL DEFAULT 0,
     origin TEXT NOT NULL,
     remote_version INTEGER,
     synced_version INTEGER,
     at TEXT NOT NULL
   ) STRICT`,
  `CREATE UNIQUE INDEX sync_changes_record ON sync_changes(company_id, kind, record_id)`,
  `CREATE INDEX sync_changes_feed ON sync_changes(company_id, seq)`,
  // The outbox proper: local changes the remote has not acknowledged yet.
  `CREATE INDEX sync_changes_pending ON sync_changes(company_id, seq)
     WHERE origin = 'local' AND (synced_version IS NULL OR version > synced_version)`,
  `CREATE INDEX sync_changes_deleted_entries ON sync_changes(company_id, seq) WHERE kind = 'entry' AND deleted = 1`,
  // Everything stored before sync existed is a local change not yet pushed, parents
  // before children and series entries in chain order.
  `INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at)
     SELECT company_id, 'series', id, 1, 'local', updated_at FROM series ORDER BY created_at, id`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at)
     SELECT s.company_id, 'series_entry', e.id, 1, 'local', e.created_at
     FROM series_entries e JOIN series s ON s.id = e.series_id ORDER BY e.series_id, e.idx`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at)
     SELECT company_id, 'workflow', id, 1, 'local', updated_at FROM workflows ORDER BY created_at, id`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at)
     SELECT company_id, 'entry', id, 1, 'local', updated_at FROM entries ORDER BY seq`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at)
     SELECT company_id, 'attachment', entry_id || ':' || id, 1, 'local', created_at FROM attachments ORDER BY created_at`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, origin, at)
     SELECT e.company_id, 'meta', m.entry_id || ':' || m.src || ':' || m.key, 1, 'local', m.updated_at
     FROM entry_meta m JOIN entries e ON e.id = m.entry_id ORDER BY m.updated_at`,
  // One remote per company. The token is kept here (the data dir is the user's own,
  // mode 0700) and never answered by any operation.
  `CREATE TABLE sync_config (
     company_id TEXT PRIMARY KEY REFERENCES companies(id),
     remote_url TEXT NOT NULL,
     token TEXT NOT NULL,
     interval_minutes INTEGER NOT NULL,
     paused INTEGER NOT NULL,
     remote_instance_id TEXT,
     remote_company_id TEXT,
     pull_cursor TEXT,
     full_pull INTEGER NOT NULL DEFAULT 0,
     last_attempt_at TEXT,
     last_success_at TEXT,
     last_error TEXT,
     last_error_kind TEXT,
     last_error_at TEXT,
     updated_at TEXT NOT NULL
   ) STRICT`,
  // The losing side of a conflict, kept until someone decides.
  `CREATE TABLE sync_conflicts (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     record_id TEXT NOT NULL,
     copy_entry_id TEXT,
     local_version INTEGER NOT NULL,
     remote_version INTEGER NOT NULL,
     remote_origin TEXT NOT NULL,
     loser TEXT NOT NULL,
     created_at TEXT NOT NULL,
     resolved_at TEXT,
     resolution TEXT
   ) STRICT`,
  `CREATE INDEX sync_conflicts_open ON sync_conflicts(company_id, created_at) WHERE resolved_at IS NULL`,
  // Changes a remote refused as invalid (push) or that could not be applied here
  // (pull): kept and shown, never blocking the rest; retried on request or when
  // the record changes again.
  `CREATE TABLE sync_parked (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL,
     direction TEXT NOT NULL CHECK (direction IN ('push', 'pull')),
     kind TEXT NOT NULL,
     record_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     error TEXT NOT NULL,
     parked_at TEXT NOT NULL,
     retry INTEGER NOT NULL DEFAULT 0,
     UNIQUE (company_id, direction, kind, record_id)
   ) STRICT`,
  // Records a full pull has seen; at its end, what the remote once held and no
  // longer serves (it was restored from an older backup) is pushed to it again.
  `CREATE TABLE sync_seen (
     company_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     record_id TEXT NOT NULL,
     PRIMARY KEY (company_id, kind, record_id)
   ) STRICT, WITHOUT ROWID`,
  // Entries that never sync: conflict copies, which hold a losing version on the
  // instance that lost it until someone decides (with their meta and attachments).
  `CREATE TABLE sync_local_only (entry_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID`,
  // Public keys of other instances, so copies of their series verify offline.
  `CREATE TABLE sync_peer_keys (
     kid TEXT PRIMARY KEY,
     instance_id TEXT NOT NULL,
     jwk TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT`,
  `CREATE INDEX sync_peer_keys_instance ON sync_peer_keys(instance_id)`,
];

// How documents name each other (DESIGN §7): each entry's own identity (type, uuid, series,
// code, issue date) and the document references it holds (a credit note's preceding invoice, a
// payment's paid documents, purchase orders…), so "related" is an index lookup both ways, by
// uuid or by code. Written in the entry's own transaction; removed with the entry.
const REFERENCES = [
  `CREATE TABLE entry_identities (
     entry_id TEXT PRIMARY KEY REFERENCES entries(id) ON DELETE CASCADE,
     company_id TEXT NOT NULL,
     type TEXT,
     uuid TEXT,
     series TEXT,
     code TEXT,
     issue_date TEXT
   ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX entry_identities_code ON entry_identities(company_id, code) WHERE code IS NOT NULL`,
  `CREATE INDEX entry_identities_uuid ON entry_identities(company_id, uuid) WHERE uuid IS NOT NULL`,
  `CREATE TABLE entry_refs (
     entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
     context TEXT NOT NULL,
     position INTEGER NOT NULL,
     company_id TEXT NOT NULL,
     uuid TEXT,
     type TEXT,
     series TEXT,
     code TEXT,
     issue_date TEXT,
     PRIMARY KEY (entry_id, context, position)
   ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX entry_refs_code ON entry_refs(company_id, code) WHERE code IS NOT NULL`,
  `CREATE INDEX entry_refs_uuid ON entry_refs(company_id, uuid) WHERE uuid IS NOT NULL`,
];

// Faults carried one optional `path`; they now carry `paths` (the hosted service's SiloFault).
const reshapeFaults = (table: string, column: string) => `
  UPDATE ${table} SET ${column} = (
    SELECT json_group_array(CASE
      WHEN json_type(f.value, '$.paths') = 'array' THEN json(f.value)
      ELSE json_remove(json_set(f.value, '$.paths', CASE
        WHEN json_type(f.value, '$.path') = 'text' THEN json_array(json_extract(f.value, '$.path'))
        ELSE json('[]') END), '$.path')
      END)
    FROM json_each(${table}.${column}) AS f
  ) WHERE ${column} <> '[]' AND json_valid(${column})`;

const FAULT_PATHS = [
  reshapeFaults('entries', 'faults'),
  reshapeFaults('entries', 'step_faults'),
  reshapeFaults('jobs', 'faults'),
];

/** Fills the identity and reference tables from every stored document, a page at a time. */
async function backfillReferences(db: Kysely<any>): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await sql<{ seq: number; id: string; company_id: string; data: StoredDocument }>`
      SELECT seq, id, company_id, data FROM entries WHERE seq > ${after} ORDER BY seq LIMIT 500`.execute(db);
    if (page.rows.length === 0) return;
    for (const row of page.rows) {
      let doc: unknown;
      try {
        doc = (JSON.parse(documentText(row.data, row.id)) as { doc?: unknown }).doc;
      } catch {
        continue;
      }
      const me = identityOf(doc);
      await sql`INSERT INTO entry_identities (entry_id, company_id, type, uuid, series, code, issue_date)
        VALUES (${row.id}, ${row.company_id}, ${me.type}, ${me.uuid}, ${me.series}, ${me.code}, ${me.issueDate})`.execute(db);
      for (const r of referencesOf(doc)) {
        await sql`INSERT INTO entry_refs (entry_id, context, position, company_id, uuid, type, series, code, issue_date)
          VALUES (${row.id}, ${r.context}, ${r.position}, ${row.company_id}, ${r.uuid}, ${r.type}, ${r.series}, ${r.code}, ${r.issueDate})`.execute(db);
      }
    }
    after = page.rows[page.rows.length - 1].seq;
  }
}

// ── 0008 trust boundaries (sync identity, pairing, company-scoped keys and blobs, forks, holds) ──
// Who may speak for an instance in a company: the owner pairs it (binding it to a token), and
// each sync presents a counter and nonce that only move forward, so a data folder restored from
// a backup or copied to another machine is noticed by the remote. Keys are kept per company, so
// nobody outside a company can add keys that its copies would trust.
const TRUST = [
  `CREATE TABLE sync_pairings (
     company_id TEXT NOT NULL,
     instance_id TEXT NOT NULL,
     token_id TEXT,
     successor_of TEXT,
     ack_counter INTEGER NOT NULL DEFAULT 0,
     ack_nonce TEXT NOT NULL DEFAULT '',
     paired_at TEXT NOT NULL,
     seen_at TEXT,
     PRIMARY KEY (company_id, instance_id)
   ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE sync_identity (
     company_id TEXT NOT NULL,
     remote_instance_id TEXT NOT NULL,
     remote_company_id TEXT NOT NULL,
     paired_as TEXT NOT NULL,
     ack_counter INTEGER NOT NULL DEFAULT 0,
     ack_nonce TEXT NOT NULL DEFAULT '',
     next_nonce TEXT,
     PRIMARY KEY (company_id, remote_instance_id, remote_company_id)
   ) STRICT, WITHOUT ROWID`,
  // A kid names one key in a company; an instance re-identified after a restore keeps its keys, so a
  // kid may belong to an instance and its successors.
  `CREATE TABLE sync_instance_keys (
     company_id TEXT NOT NULL,
     instance_id TEXT NOT NULL,
     kid TEXT NOT NULL,
     jwk TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (company_id, instance_id, kid)
   ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX sync_instance_keys_kid ON sync_instance_keys(company_id, kid)`,
  // Keys learnt before keys were per company stay trusted where they were: in every company.
  `INSERT OR IGNORE INTO sync_instance_keys (company_id, kid, instance_id, jwk, created_at)
     SELECT c.id, k.kid, k.instance_id, k.jwk, k.created_at FROM sync_peer_keys k CROSS JOIN companies c`,
  `CREATE TABLE sync_blob_grants (
     company_id TEXT NOT NULL,
     hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (company_id, hash)
   ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE sync_forks (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL,
     series_id TEXT NOT NULL,
     idx INTEGER NOT NULL,
     local_entry_id TEXT,
     other_entry_id TEXT NOT NULL,
     other TEXT NOT NULL,
     origin TEXT NOT NULL,
     direction TEXT NOT NULL,
     detected_at TEXT NOT NULL,
     UNIQUE (company_id, series_id, other_entry_id)
   ) STRICT`,
  `CREATE TABLE series_holds (
     series_id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL,
     reason TEXT NOT NULL,
     since TEXT NOT NULL
   ) STRICT`,
  `ALTER TABLE sync_config ADD COLUMN guard_peak INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE sync_config ADD COLUMN guard_deleted INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE sync_config ADD COLUMN guard_since TEXT`,
  `ALTER TABLE sync_conflicts ADD COLUMN reason TEXT NOT NULL DEFAULT 'version'`,
  `ALTER TABLE sync_conflicts ADD COLUMN other_entry_id TEXT`,
];

/** A migration that runs a list of SQL statements in order. */
const statements = (list: string[]): Migration => ({
  async up(db: Kysely<any>) {
    for (const statement of list) await sql.raw(statement).execute(db);
  },
});

/**
 * Inline, numbered migrations: bundled with the app, so the desktop build needs no
 * migration folder on disk. Never edit a migration that has shipped; add the next one.
 */
export const migrations: Record<string, Migration> = {
  '0001_initial': statements(INITIAL),
  '0002_sequence': statements(SEQUENCE),
  '0003_transform': statements(TRANSFORM),
  '0004_issue_date': statements(ISSUE_DATE),
  '0005_access': statements(ACCESS),
  '0006_sync': statements(SYNC),
  '0007_document_references': {
    async up(db: Kysely<any>) {
      await statements([...REFERENCES, ...FAULT_PATHS]).up(db);
      await backfillReferences(db);
    },
  },
  '0008_trust_boundaries': statements(TRUST),
  // The desk's entry list (issue 16): sort columns with their indexes, back-filled; saved views.
  '0009_desk_list': {
    async up(db: Kysely<any>) {
      await statements(LIST_SCHEMA).up(db);
      await backfillListColumns(db);
    },
  },
  // Conflict copies sync like any entry (those made before go out now); trusted signers' JWKS (issue 12).
  '0010_shared_copies_trusted_signers': statements(COPIES_AND_SIGNERS),
  // The silo at a million entries (issue 13): a search index without a copy of the text, kept counts.
  '0011_silo_at_scale': {
    async up(db: Kysely<any>) {
      await statements(SCALE_SCHEMA).up(db);
      await moveSearchIndex(db);
    },
  },
  // The hosted service's entry states (recorded by triggers) and file members, uploads announced by hash (issue 15).
  '0012_hosted_silo': statements(HOSTED_SILO_SCHEMA),
  // Trash, entry history and the audit log (issue 16): nothing lost, every version kept, every change on record.
  '0013_trash_history_audit': statements(RECORD_KEEPING_SCHEMA),
  // Applications authorize by their OAuth client secret (issue 15): its SHA-256 only, and the
  // one token that authorizing hands out, so repeated authorizations do not pile up tokens.
  '0014_enrollment_client_secret': statements([
    `ALTER TABLE enrollments ADD COLUMN client_secret_hash TEXT`,
    `ALTER TABLE enrollments ADD COLUMN authorized_token_id TEXT`,
  ]),
  // Ids a client chooses are unique per company, not per install (issue 12); trusted signers sync.
  '0015_company_scoped_ids': { up: scopeIdsByCompany },
  // Every write records its change in one place that no write path can bypass: the database's triggers (issue 14).
  '0016_changes_by_triggers': { up: recordChangesByTriggers },
  // The search index's words in a table of their own, so a prefix typed last is read as the words it stands for (issue 13).
  '0017_search_terms': statements(SEARCH_TERMS_SCHEMA),
  // The live entries per tag, so a list filtered by a rare tag reads its rows, not every entry's tags (issue 13).
  '0018_entry_tags': statements(ENTRY_TAGS_SCHEMA),
  // Net, tax and total kept per folder, state, month and currency, so the desk's sums of a whole company read a few rows (issue 13).
  '0019_entry_sums': statements(ENTRY_SUMS_SCHEMA),
  // The audit log by action and origin, so a filter that keeps few rows reads those (issue 13).
  '0020_audit_streams': statements(AUDIT_STREAMS_SCHEMA),
  // Whether an entry's faults are GOBL's verdict on its document as stored, so a workflow does not check it again (issue 13).
  '0021_entry_check_mark': statements([ENTRY_CHECK_MARK]),
  // An entry's document may be stored packed (deflated against GOBL's vocabulary), a third of its text (issue 13).
  '0022_packed_documents': { up: loosenPackedDocumentColumns },
  // The sorts by due date, number, party and amount break ties by seq, which every SQLite index entry ends with already (issue 13).
  '0023_sorts_tied_by_seq': statements(SORTS_TIED_BY_SEQ),
  // An entry's first state is implied until its state changes: no row for it, 252 bytes of every entry (issue 13).
  '0024_implied_first_state': statements(IMPLIED_FIRST_STATE),
  // An index 0011 dropped and 0015 made again by mistake: 131 bytes of every entry (issue 13).
  '0025_identity_uuid_index_gone': statements(IDENTITY_UUID_INDEX_GONE),
  // An entry's first version is implied until it changes: no row for it, 370 bytes of every entry (issue 13).
  '0026_implied_created_version': statements(IMPLIED_CREATED_VERSION),
  // The full-text index keeps the column of each word, not its place in it: no query reads positions (issue 13).
  '0027_search_index_columns': { up: searchIndexByColumn },
  // An entry's files read in the order they were stored without a sort, however few (issue 13).
  '0028_attachments_in_order': statements(ATTACHMENTS_IN_ORDER),
  // Snippets stored packed from now on, their members by position and repeats named, not written again (issue 13).
  '0029_packed_snippets': statements(ENTRY_SUMS_READ_PACKED),
  // Twins found by a digest's first 16 digits, the index a third the size (issue 13).
  '0030_digest_index_by_prefix': statements(DIGEST_INDEX_BY_PREFIX),
  // Rows stored under a short company key, not the company's 36-character id (issue 13).
  '0031_company_keys': { up: storeUnderCompanyKeysSqlite },
  // The created order's ties by seq, its four indexes without the entry id (issue 13).
  '0032_created_order_tied_by_seq': statements(CREATED_TIED_BY_SEQ),
  // Identities keyed by their entry's seq, not its id (issue 13).
  '0033_identities_by_seq': statements(IDENTITIES_BY_SEQ),
  // Number keys with each digit run led by its length, not padded to 20 digits (issue 13).
  '0034_number_keys_compacted': { up: compactNumberKeys('sqlite') },
  // The change rows without the time of the change, which nothing read (issue 13).
  '0035_changes_unstamped': statements(CHANGES_UNSTAMPED),
  // Indexes of tables keyed by seq no longer hold it twice (issue 13).
  '0036_seq_tails_dropped': statements(SEQ_TAILS_DROPPED),
  // The digest index on the bytes of the first 12 digits, not the text of 16 (issue 13).
  '0037_digest_index_by_bytes': statements(DIGEST_INDEX_BY_BYTES),
  // The audit log's actors stored once and named by key: 71 bytes of every entry (issue 13).
  '0038_audit_actors': statements(AUDIT_ACTORS_MIGRATION),
  // The sums' triggers with each step of an entry's amounts worked out once: a change of state cost 80 µs in them (issue 13).
  '0039_entry_sums_fenced': statements(ENTRY_SUMS_FENCED),
  // An entry moved between groups (a change of state) with its amounts worked out once: 110 µs of a job's state step (issue 13).
  '0040_entry_sums_moving': statements(ENTRY_SUMS_MOVING),
};
