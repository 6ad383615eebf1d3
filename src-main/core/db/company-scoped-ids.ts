import { sql, type Kysely } from 'kysely';
import { LIVE_ENTRY_COUNT_TRIGGERS } from '../silo/record-keeping-schema.ts';

/**
 * Ids a client chooses (entries, series, workflows, jobs) are unique per company, not
 * per install (issue 12): the same GOBL invoice belongs in the silo of the supplier
 * and of the customer when one firm keeps both, and a 409 for an id another company
 * holds would tell the caller that it exists. Every table keyed by such an id, and
 * every table hanging from one, is keyed by (company_id, id) now; children that had
 * no company_id get it from their parent.
 *
 * SQLite cannot change a key in place: each table is made anew, filled, and takes the
 * old one's name (https://sqlite.org/lang_altertable.html, "other kinds of table
 * schema changes"). migrate.ts runs this with foreign keys off and checks them after.
 */
interface Rebuild {
  table: string;
  create: string;
  /** the columns the new table takes from the old one, when it gains some from elsewhere */
  fill?: string;
  after?: string[];
}

const ENTRY_FK = 'FOREIGN KEY (company_id, entry_id) REFERENCES entries(company_id, id) ON DELETE CASCADE';

const REBUILDS: Rebuild[] = [
  {
    table: 'entries',
    create: `CREATE TABLE entries_new (
       seq INTEGER PRIMARY KEY,
       id TEXT NOT NULL,
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
       updated_at TEXT NOT NULL,
       step_faults TEXT NOT NULL DEFAULT '[]',
       issue_date TEXT, due_date TEXT, number_key TEXT, supplier_key TEXT, customer_key TEXT, currency TEXT,
       net_e4 INTEGER, tax_e4 INTEGER, total_e4 INTEGER, trashed_at TEXT,
       UNIQUE (company_id, id)
     ) STRICT`,
    after: [
      `CREATE UNIQUE INDEX entries_company_key ON entries(company_id, key) WHERE key IS NOT NULL`,
      `CREATE INDEX entries_company_created ON entries(company_id, created_at, id)`,
      `CREATE INDEX entries_company_folder_created ON entries(company_id, folder, created_at, id)`,
      `CREATE INDEX entries_company_digest ON entries(company_id, digest_val)`,
      `CREATE INDEX entries_company_doc_uuid ON entries(company_id, doc_uuid) WHERE doc_uuid IS NOT NULL`,
      ...['issue_date', 'due_date', 'number_key:number', 'supplier_key:supplier', 'customer_key:customer', 'net_e4:net', 'tax_e4:tax', 'total_e4:total', 'state'].map((c) => {
        const [column, name = column] = c.split(':');
        return `CREATE INDEX entries_sort_${name} ON entries(company_id, ${column}, created_at, id)`;
      }),
      `CREATE INDEX entries_trashed ON entries(company_id, trashed_at, id) WHERE trashed_at IS NOT NULL`,
    ],
  },
  {
    table: 'attachments',
    create: `CREATE TABLE attachments_new (
       entry_id TEXT NOT NULL,
       id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       name TEXT NOT NULL,
       desc TEXT NOT NULL,
       mime TEXT NOT NULL,
       hash TEXT NOT NULL,
       size INTEGER NOT NULL,
       meta TEXT NOT NULL,
       created_at TEXT NOT NULL,
       key TEXT,
       category TEXT NOT NULL DEFAULT '',
       embeddable INTEGER NOT NULL DEFAULT 0,
       private INTEGER NOT NULL DEFAULT 0,
       PRIMARY KEY (company_id, entry_id, id),
       ${ENTRY_FK}
     ) STRICT`,
    after: [
      `CREATE INDEX attachments_hash ON attachments(hash)`,
      `CREATE UNIQUE INDEX attachments_entry_key ON attachments(company_id, entry_id, key) WHERE key IS NOT NULL`,
    ],
  },
  {
    table: 'attachment_uploads',
    create: `CREATE TABLE attachment_uploads_new (
       token_hash TEXT PRIMARY KEY,
       entry_id TEXT NOT NULL,
       id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       file TEXT NOT NULL,
       created_at TEXT NOT NULL,
       expires_at TEXT NOT NULL,
       UNIQUE (company_id, entry_id, id),
       ${ENTRY_FK}
     ) STRICT`,
  },
  {
    table: 'entry_identities',
    create: `CREATE TABLE entry_identities_new (
       entry_id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       type TEXT, uuid TEXT, series TEXT, code TEXT, issue_date TEXT,
       PRIMARY KEY (company_id, entry_id),
       ${ENTRY_FK}
     ) STRICT, WITHOUT ROWID`,
    after: [
      `CREATE INDEX entry_identities_code ON entry_identities(company_id, code) WHERE code IS NOT NULL`,
      `CREATE INDEX entry_identities_uuid ON entry_identities(company_id, uuid) WHERE uuid IS NOT NULL`,
    ],
  },
  {
    table: 'entry_meta',
    create: `CREATE TABLE entry_meta_new (
       company_id TEXT NOT NULL,
       entry_id TEXT NOT NULL,
       src TEXT NOT NULL,
       key TEXT NOT NULL,
       ref TEXT NOT NULL,
       value TEXT NOT NULL,
       shared INTEGER NOT NULL,
       link_scope TEXT NOT NULL,
       link_url TEXT NOT NULL,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       PRIMARY KEY (company_id, entry_id, key, src),
       ${ENTRY_FK}
     ) STRICT`,
    fill: `INSERT INTO entry_meta_new SELECT e.company_id, m.entry_id, m.src, m.key, m.ref, m.value, m.shared, m.link_scope, m.link_url, m.created_at, m.updated_at
           FROM entry_meta m JOIN entries e ON e.id = m.entry_id`,
  },
  {
    table: 'entry_refs',
    create: `CREATE TABLE entry_refs_new (
       entry_id TEXT NOT NULL,
       context TEXT NOT NULL,
       position INTEGER NOT NULL,
       company_id TEXT NOT NULL,
       uuid TEXT, type TEXT, series TEXT, code TEXT, issue_date TEXT,
       PRIMARY KEY (company_id, entry_id, context, position),
       ${ENTRY_FK}
     ) STRICT, WITHOUT ROWID`,
    after: [
      `CREATE INDEX entry_refs_code ON entry_refs(company_id, code) WHERE code IS NOT NULL`,
      `CREATE INDEX entry_refs_uuid ON entry_refs(company_id, uuid) WHERE uuid IS NOT NULL`,
    ],
  },
  {
    table: 'entry_states',
    create: `CREATE TABLE entry_states_new (
       seq INTEGER PRIMARY KEY,
       entry_id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       at TEXT NOT NULL,
       key TEXT NOT NULL,
       src TEXT NOT NULL,
       src_id TEXT NOT NULL DEFAULT '',
       notes TEXT NOT NULL DEFAULT '',
       meta TEXT NOT NULL DEFAULT '{}',
       faults TEXT NOT NULL DEFAULT '[]',
       ${ENTRY_FK}
     ) STRICT`,
    after: [`CREATE INDEX entry_states_entry_at ON entry_states(company_id, entry_id, at, seq)`],
  },
  {
    table: 'entry_versions',
    create: `CREATE TABLE entry_versions_new (
       entry_id TEXT NOT NULL,
       version INTEGER NOT NULL,
       company_id TEXT NOT NULL,
       action TEXT NOT NULL,
       changed TEXT NOT NULL,
       state TEXT NOT NULL,
       folder TEXT NOT NULL,
       tags TEXT NOT NULL,
       key TEXT,
       digest TEXT NOT NULL,
       signed INTEGER NOT NULL,
       invalid INTEGER NOT NULL,
       trashed INTEGER NOT NULL,
       data TEXT,
       reverted_from INTEGER,
       via TEXT NOT NULL,
       actor_id TEXT NOT NULL,
       actor_name TEXT NOT NULL,
       at TEXT NOT NULL,
       PRIMARY KEY (company_id, entry_id, version)
     ) STRICT`,
  },
  {
    table: 'mentions',
    create: `CREATE TABLE mentions_new (
       company_id TEXT NOT NULL,
       uuid TEXT NOT NULL,
       entry_id TEXT NOT NULL,
       context TEXT NOT NULL,
       created_at TEXT NOT NULL,
       PRIMARY KEY (company_id, uuid, entry_id, context),
       ${ENTRY_FK}
     ) STRICT, WITHOUT ROWID`,
    after: [
      `CREATE INDEX mentions_lookup ON mentions(company_id, uuid, created_at, entry_id)`,
      `CREATE INDEX mentions_entry ON mentions(company_id, entry_id)`,
    ],
  },
  {
    table: 'trash_files',
    create: `CREATE TABLE trash_files_new (
       trash_id TEXT PRIMARY KEY,
       company_id TEXT NOT NULL,
       entry_id TEXT NOT NULL,
       id TEXT NOT NULL,
       name TEXT NOT NULL,
       desc TEXT NOT NULL,
       mime TEXT NOT NULL,
       hash TEXT NOT NULL,
       size INTEGER NOT NULL,
       meta TEXT NOT NULL,
       created_at TEXT NOT NULL,
       row TEXT NOT NULL,
       trashed_at TEXT NOT NULL,
       via TEXT NOT NULL,
       actor_id TEXT NOT NULL,
       actor_name TEXT NOT NULL
     ) STRICT`,
    after: [
      `CREATE INDEX trash_files_company ON trash_files(company_id, trashed_at, trash_id)`,
      `CREATE INDEX trash_files_entry ON trash_files(company_id, entry_id, id)`,
      `CREATE INDEX trash_files_hash ON trash_files(hash)`,
    ],
  },
  {
    table: 'entry_views',
    create: `CREATE TABLE entry_views_new (
       id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       name TEXT NOT NULL,
       body TEXT NOT NULL,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       PRIMARY KEY (company_id, id),
       UNIQUE (company_id, name)
     ) STRICT`,
  },
  {
    table: 'sync_local_only',
    create: `CREATE TABLE sync_local_only_new (company_id TEXT NOT NULL, entry_id TEXT NOT NULL, PRIMARY KEY (company_id, entry_id)) STRICT, WITHOUT ROWID`,
    fill: `INSERT INTO sync_local_only_new SELECT e.company_id, l.entry_id FROM sync_local_only l JOIN entries e ON e.id = l.entry_id`,
  },
  {
    table: 'workflows',
    create: `CREATE TABLE workflows_new (
       id TEXT NOT NULL,
       company_id TEXT NOT NULL REFERENCES companies(id),
       version INTEGER NOT NULL,
       name TEXT NOT NULL,
       schema TEXT NOT NULL,
       disabled INTEGER NOT NULL,
       request_hash TEXT NOT NULL,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       PRIMARY KEY (company_id, id)
     ) STRICT`,
    after: [`CREATE INDEX workflows_company_created ON workflows(company_id, created_at, id)`],
  },
  {
    table: 'workflow_versions',
    create: `CREATE TABLE workflow_versions_new (
       company_id TEXT NOT NULL,
       workflow_id TEXT NOT NULL,
       version INTEGER NOT NULL,
       definition TEXT NOT NULL,
       created_at TEXT NOT NULL,
       PRIMARY KEY (company_id, workflow_id, version),
       FOREIGN KEY (company_id, workflow_id) REFERENCES workflows(company_id, id)
     ) STRICT`,
    fill: `INSERT INTO workflow_versions_new SELECT w.company_id, v.workflow_id, v.version, v.definition, v.created_at
           FROM workflow_versions v JOIN workflows w ON w.id = v.workflow_id`,
  },
  {
    table: 'jobs',
    create: `CREATE TABLE jobs_new (
       seq INTEGER PRIMARY KEY,
       id TEXT NOT NULL,
       company_id TEXT NOT NULL REFERENCES companies(id),
       workflow_id TEXT NOT NULL,
       workflow_version INTEGER NOT NULL,
       silo_entry_id TEXT NOT NULL,
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
       completed_at TEXT,
       UNIQUE (company_id, id),
       FOREIGN KEY (company_id, workflow_id) REFERENCES workflows(company_id, id),
       FOREIGN KEY (company_id, silo_entry_id) REFERENCES entries(company_id, id)
     ) STRICT`,
    after: [
      `CREATE UNIQUE INDEX jobs_company_key ON jobs(company_id, key) WHERE key IS NOT NULL`,
      `CREATE INDEX jobs_runnable ON jobs(run_at) WHERE completed_at IS NULL`,
      `CREATE INDEX jobs_company_created ON jobs(company_id, created_at, id)`,
      `CREATE INDEX jobs_entry ON jobs(company_id, silo_entry_id, created_at)`,
    ],
  },
  {
    table: 'intents',
    create: `CREATE TABLE intents_new (
       id TEXT PRIMARY KEY,
       company_id TEXT NOT NULL,
       job_id TEXT NOT NULL,
       seq INTEGER NOT NULL,
       step_id TEXT NOT NULL,
       name TEXT NOT NULL,
       provider TEXT NOT NULL,
       completed INTEGER NOT NULL,
       events TEXT NOT NULL,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       FOREIGN KEY (company_id, job_id) REFERENCES jobs(company_id, id)
     ) STRICT`,
    fill: `INSERT INTO intents_new SELECT i.id, j.company_id, i.job_id, i.seq, i.step_id, i.name, i.provider, i.completed, i.events, i.created_at, i.updated_at
           FROM intents i JOIN jobs j ON j.id = i.job_id`,
    after: [`CREATE UNIQUE INDEX intents_job ON intents(company_id, job_id, seq)`],
  },
  {
    table: 'series',
    create: `CREATE TABLE series_new (
       id TEXT NOT NULL,
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
       updated_at TEXT NOT NULL,
       PRIMARY KEY (company_id, id)
     ) STRICT`,
    after: [`CREATE INDEX series_company_created ON series(company_id, created_at, id)`],
  },
  {
    table: 'series_entries',
    create: `CREATE TABLE series_entries_new (
       id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       series_id TEXT NOT NULL,
       idx INTEGER NOT NULL,
       code TEXT NOT NULL,
       meta TEXT NOT NULL,
       previous_id TEXT,
       sigs TEXT NOT NULL,
       request_hash TEXT NOT NULL,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       PRIMARY KEY (company_id, id),
       UNIQUE (company_id, series_id, idx),
       FOREIGN KEY (company_id, series_id) REFERENCES series(company_id, id)
     ) STRICT`,
    fill: `INSERT INTO series_entries_new SELECT x.id, s.company_id, x.series_id, x.idx, x.code, x.meta, x.previous_id, x.sigs, x.request_hash, x.created_at, x.updated_at
           FROM series_entries x JOIN series s ON s.id = x.series_id`,
    after: [`CREATE INDEX series_entries_code ON series_entries(company_id, series_id, code)`],
  },
  {
    table: 'series_holds',
    create: `CREATE TABLE series_holds_new (
       series_id TEXT NOT NULL,
       company_id TEXT NOT NULL,
       reason TEXT NOT NULL,
       since TEXT NOT NULL,
       PRIMARY KEY (company_id, series_id)
     ) STRICT`,
  },
  {
    // The feed's record kinds gain the company's trusted signers (their JWKS sync like any record).
    table: 'sync_changes',
    create: `CREATE TABLE sync_changes_new (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       company_id TEXT NOT NULL,
       kind TEXT NOT NULL CHECK (kind IN ('entry', 'attachment', 'meta', 'workflow', 'series', 'series_entry', 'trusted_jwks')),
       record_id TEXT NOT NULL,
       version INTEGER NOT NULL,
       deleted INTEGER NOT NULL DEFAULT 0,
       origin TEXT NOT NULL,
       remote_version INTEGER,
       synced_version INTEGER,
       at TEXT NOT NULL
     ) STRICT`,
    after: [
      `CREATE UNIQUE INDEX sync_changes_record ON sync_changes(company_id, kind, record_id)`,
      `CREATE INDEX sync_changes_feed ON sync_changes(company_id, seq)`,
      `CREATE INDEX sync_changes_pending ON sync_changes(company_id, seq)
         WHERE origin = 'local' AND (synced_version IS NULL OR version > synced_version)`,
      `CREATE INDEX sync_changes_deleted_entries ON sync_changes(company_id, seq) WHERE kind = 'entry' AND deleted = 1`,
    ],
  },
];

/** The triggers on entries, made again with the company in every look-up of a child. */
const ENTRY_TRIGGERS = [
  `CREATE TRIGGER entry_states_insert AFTER INSERT ON entries BEGIN
     INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.created_at, NEW.state, 'silo');
   END`,
  `CREATE TRIGGER entry_states_change AFTER UPDATE OF state ON entries
   WHEN NEW.state IS NOT OLD.state
     AND NEW.state IS NOT (SELECT key FROM entry_states WHERE company_id = NEW.company_id AND entry_id = NEW.id ORDER BY at DESC, seq DESC LIMIT 1)
   BEGIN
     INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.updated_at, NEW.state, 'silo');
   END`,
  ...LIVE_ENTRY_COUNT_TRIGGERS,
  `CREATE TRIGGER entries_keep_superseded AFTER UPDATE OF data ON entries WHEN OLD.data IS NOT NEW.data BEGIN
     UPDATE entry_versions SET data = OLD.data
       WHERE company_id = OLD.company_id AND entry_id = OLD.id AND data IS NULL
         AND version = (SELECT max(version) FROM entry_versions WHERE company_id = OLD.company_id AND entry_id = OLD.id);
   END`,
];

export async function scopeIdsByCompany(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  // The feed's mark must never go back: a peer's cursor may already be past the highest row left.
  const mark = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes'`.execute(db);
  // New tables are filled while every old one still exists (children take their company from their parent).
  for (const r of REBUILDS) {
    await run(r.create);
    await run(r.fill ?? `INSERT INTO ${r.table}_new SELECT ${await columnsOf(db, `${r.table}_new`)} FROM ${r.table}`);
  }
  for (const r of [...REBUILDS].reverse()) await run(`DROP TABLE ${r.table}`);
  for (const r of REBUILDS) {
    await run(`ALTER TABLE ${r.table}_new RENAME TO ${r.table}`);
    for (const statement of r.after ?? []) await run(statement);
  }
  for (const statement of ENTRY_TRIGGERS) await run(statement);
  const seq = mark.rows[0]?.seq;
  if (seq !== undefined) {
    const { rows } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes'`.execute(db);
    if (rows.length === 0) await sql`INSERT INTO sqlite_sequence (name, seq) VALUES ('sync_changes', ${seq})`.execute(db);
    else await sql`UPDATE sqlite_sequence SET seq = max(seq, ${seq}) WHERE name = 'sync_changes'`.execute(db);
  }
  // Trusted signers sync from now on: those already kept go out as this instance's changes.
  await sql`INSERT INTO sync_changes (company_id, kind, record_id, version, deleted, origin, remote_version, synced_version, at)
            SELECT t.company_id, 'trusted_jwks', t.id, 1, 0, 'local', NULL, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM trusted_jwks t
            WHERE NOT EXISTS (SELECT 1 FROM sync_changes c WHERE c.company_id = t.company_id AND c.kind = 'trusted_jwks' AND c.record_id = t.id)
            ORDER BY t.company_id, t.created_at, t.id`.execute(db);
}

async function columnsOf(db: Kysely<any>, table: string): Promise<string> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db);
  return rows.map((r) => r.name).join(', ');
}
