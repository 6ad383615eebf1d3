/**
 * The counts of live entries per folder and tag (scale-migration.ts made the tables): an
 * entry in the trash counts nowhere. Shared by the migrations that make entries' triggers
 * again (this one, and 0015 when it makes the entries table anew); a shipped migration
 * runs this same text.
 */
export const LIVE_ENTRY_COUNT_TRIGGERS = [
  `CREATE TRIGGER entries_count_insert AFTER INSERT ON entries WHEN NEW.trashed_at IS NULL BEGIN
     INSERT INTO entry_folder_counts (company_id, folder, count) VALUES (NEW.company_id, NEW.folder, 1)
       ON CONFLICT (company_id, folder) DO UPDATE SET count = count + 1;
     INSERT INTO entry_tag_counts (company_id, tag, count) SELECT DISTINCT NEW.company_id, value, 1 FROM json_each(NEW.tags) WHERE true
       ON CONFLICT (company_id, tag) DO UPDATE SET count = count + 1;
   END`,
  `CREATE TRIGGER entries_count_delete AFTER DELETE ON entries WHEN OLD.trashed_at IS NULL BEGIN
     UPDATE entry_folder_counts SET count = count - 1 WHERE company_id = OLD.company_id AND folder = OLD.folder;
     DELETE FROM entry_folder_counts WHERE company_id = OLD.company_id AND folder = OLD.folder AND count <= 0;
     UPDATE entry_tag_counts SET count = count - 1
       WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags));
     DELETE FROM entry_tag_counts WHERE company_id = OLD.company_id AND count <= 0;
   END`,
  // A move, a trashing (the old place loses one) or a restore (the new place gains one), in any combination.
  `CREATE TRIGGER entries_count_folder AFTER UPDATE OF company_id, folder, trashed_at ON entries
     WHEN (OLD.trashed_at IS NULL OR NEW.trashed_at IS NULL)
      AND (OLD.company_id IS NOT NEW.company_id OR OLD.folder IS NOT NEW.folder OR (OLD.trashed_at IS NULL) <> (NEW.trashed_at IS NULL)) BEGIN
     UPDATE entry_folder_counts SET count = count - 1
       WHERE OLD.trashed_at IS NULL AND company_id = OLD.company_id AND folder = OLD.folder;
     DELETE FROM entry_folder_counts WHERE company_id = OLD.company_id AND folder = OLD.folder AND count <= 0;
     INSERT INTO entry_folder_counts (company_id, folder, count) SELECT NEW.company_id, NEW.folder, 1 WHERE NEW.trashed_at IS NULL
       ON CONFLICT (company_id, folder) DO UPDATE SET count = count + 1;
   END`,
  `CREATE TRIGGER entries_count_tags AFTER UPDATE OF company_id, tags, trashed_at ON entries
     WHEN (OLD.trashed_at IS NULL OR NEW.trashed_at IS NULL)
      AND (OLD.company_id IS NOT NEW.company_id OR OLD.tags IS NOT NEW.tags OR (OLD.trashed_at IS NULL) <> (NEW.trashed_at IS NULL)) BEGIN
     UPDATE entry_tag_counts SET count = count - 1
       WHERE OLD.trashed_at IS NULL AND company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags));
     DELETE FROM entry_tag_counts WHERE company_id = OLD.company_id AND count <= 0;
     INSERT INTO entry_tag_counts (company_id, tag, count)
       SELECT DISTINCT NEW.company_id, value, 1 FROM json_each(NEW.tags) WHERE NEW.trashed_at IS NULL
       ON CONFLICT (company_id, tag) DO UPDATE SET count = count + 1;
   END`,
];

/**
 * Trash, entry history and the audit log (issue 16): nothing is lost, every version
 * is kept, and every change is on record.
 *
 * - `entries.trashed_at`: an entry in the trash keeps its row (with its files, meta,
 *   jobs and indexes) and is left out of lists, search, related, sums and exports
 *   until it is restored or purged. The folder and tag counts (scale-migration.ts)
 *   count live entries only: their triggers are made again here, aware of the trash.
 * - `trash_files`: a file moved to the trash leaves `attachments` (so no view or
 *   download finds it) and waits here, its bytes still in the content store; `row`
 *   is its whole attachment row, so a restore puts back every column it had.
 * - `entry_versions`: one row per version of an entry (document, state, folder, tags,
 *   key, in the trash or not), who made it and from where. `data` holds a document
 *   once a later version replaced it; NULL means "the same document as the next
 *   version that holds one, or as the entry now", so a change of labels or a new
 *   entry costs no copy of the document.
 * - `audit_log`: append-only (triggers refuse UPDATE and DELETE), each row chained to
 *   the one before it in its company by a SHA-256, so an edit made behind the app's
 *   back (the file opened with another tool) is found by verification.
 */
export const RECORD_KEEPING_SCHEMA = [
  `ALTER TABLE entries ADD COLUMN trashed_at TEXT`,
  `CREATE INDEX entries_trashed ON entries(company_id, trashed_at, id) WHERE trashed_at IS NOT NULL`,

  // The counts of live entries per folder and tag: an entry in the trash counts nowhere.
  `DROP TRIGGER IF EXISTS entries_count_insert`,
  `DROP TRIGGER IF EXISTS entries_count_delete`,
  `DROP TRIGGER IF EXISTS entries_count_folder`,
  `DROP TRIGGER IF EXISTS entries_count_tags`,
  ...LIVE_ENTRY_COUNT_TRIGGERS,

  `CREATE TABLE trash_files (
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
  `CREATE INDEX trash_files_company ON trash_files(company_id, trashed_at, trash_id)`,
  `CREATE INDEX trash_files_entry ON trash_files(entry_id, id)`,
  `CREATE INDEX trash_files_hash ON trash_files(hash)`,

  `CREATE TABLE trash_settings (
     company_id TEXT PRIMARY KEY,
     retention_days INTEGER NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,

  `CREATE TABLE entry_versions (
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
     PRIMARY KEY (entry_id, version)
   ) STRICT`,
  // The document a write replaces goes into the version that held it, in the write's own statement.
  `CREATE TRIGGER entries_keep_superseded AFTER UPDATE OF data ON entries WHEN OLD.data IS NOT NEW.data BEGIN
     UPDATE entry_versions SET data = OLD.data
       WHERE entry_id = OLD.id AND data IS NULL AND version = (SELECT max(version) FROM entry_versions WHERE entry_id = OLD.id);
   END`,
  // History begins with what each entry is now: its current document stays in the entry row.
  `INSERT INTO entry_versions (entry_id, version, company_id, action, changed, state, folder, tags, key, digest, signed, invalid,
     trashed, data, reverted_from, via, actor_id, actor_name, at)
   SELECT id, version, company_id, CASE WHEN version = 1 THEN 'created' ELSE 'recorded' END, '[]', state, folder, tags, key,
     digest_val, signed, invalid, 0, NULL, NULL, 'system', 'history', 'History started', updated_at
   FROM entries`,

  `CREATE TABLE audit_log (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     company_id TEXT NOT NULL,
     at TEXT NOT NULL,
     via TEXT NOT NULL,
     actor_id TEXT NOT NULL,
     actor_name TEXT NOT NULL,
     operation TEXT,
     action TEXT NOT NULL,
     target_kind TEXT NOT NULL,
     target_id TEXT NOT NULL,
     detail TEXT NOT NULL,
     hash TEXT NOT NULL
   ) STRICT`,
  `CREATE INDEX audit_log_company ON audit_log(company_id, seq)`,
  `CREATE INDEX audit_log_target ON audit_log(company_id, target_id, seq)`,
  `CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
     SELECT RAISE(ABORT, 'the audit log is append-only');
   END`,
  `CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
     SELECT RAISE(ABORT, 'the audit log is append-only');
   END`,
];
