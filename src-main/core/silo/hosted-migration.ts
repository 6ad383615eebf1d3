/**
 * The hosted service's entry states and file members (issue 15).
 *
 * Entry states: every state an entry was in, from when. Triggers on `entries` record
 * each one however it changed (a PATCH, a workflow step, sync, an import), so every
 * writer keeps the history without knowing of it; a state set through the states API
 * is written first with its notes and source, and the trigger sees it is already
 * there. Entries stored before keep their current state, from their creation.
 *
 * Files: a key unique in the entry, a category, `embeddable` and `private`; and the
 * uploads announced by hash whose bytes have not come yet.
 */
export const HOSTED_SILO_SCHEMA = [
  `CREATE TABLE entry_states (
     seq INTEGER PRIMARY KEY,
     entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
     company_id TEXT NOT NULL,
     at TEXT NOT NULL,
     key TEXT NOT NULL,
     src TEXT NOT NULL,
     src_id TEXT NOT NULL DEFAULT '',
     notes TEXT NOT NULL DEFAULT '',
     meta TEXT NOT NULL DEFAULT '{}',
     faults TEXT NOT NULL DEFAULT '[]'
   ) STRICT`,
  `CREATE INDEX entry_states_entry_at ON entry_states(entry_id, at, seq)`,
  `INSERT INTO entry_states (entry_id, company_id, at, key, src)
     SELECT id, company_id, created_at, state, 'silo' FROM entries ORDER BY seq`,
  `CREATE TRIGGER entry_states_insert AFTER INSERT ON entries BEGIN
     INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.created_at, NEW.state, 'silo');
   END`,
  `CREATE TRIGGER entry_states_change AFTER UPDATE OF state ON entries
   WHEN NEW.state IS NOT OLD.state
     AND NEW.state IS NOT (SELECT key FROM entry_states WHERE entry_id = NEW.id ORDER BY at DESC, seq DESC LIMIT 1)
   BEGIN
     INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.updated_at, NEW.state, 'silo');
   END`,
  `ALTER TABLE attachments ADD COLUMN key TEXT`,
  `ALTER TABLE attachments ADD COLUMN category TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE attachments ADD COLUMN embeddable INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE attachments ADD COLUMN private INTEGER NOT NULL DEFAULT 0`,
  `CREATE UNIQUE INDEX attachments_entry_key ON attachments(entry_id, key) WHERE key IS NOT NULL`,
  `CREATE TABLE attachment_uploads (
     token_hash TEXT PRIMARY KEY,
     entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
     id TEXT NOT NULL,
     company_id TEXT NOT NULL,
     file TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     UNIQUE (entry_id, id)
   ) STRICT`,
];
