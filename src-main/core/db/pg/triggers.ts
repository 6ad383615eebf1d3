/**
 * SQLite's triggers on PostgreSQL (PL/pgSQL): an entry's first state and each state
 * change (hosted-migration.ts), the live entries per folder and tag
 * (record-keeping-schema.ts), the document a later version replaced (entry history),
 * and the append-only audit log. Same rules, same rows.
 */
export const TRIGGERS = [
  `CREATE FUNCTION entry_states_record() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.created_at, NEW.state, 'silo');
     ELSIF NEW.state IS DISTINCT FROM OLD.state AND NEW.state IS DISTINCT FROM (
         SELECT key FROM entry_states WHERE company_id = NEW.company_id AND entry_id = NEW.id ORDER BY at DESC, seq DESC LIMIT 1) THEN
       INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.updated_at, NEW.state, 'silo');
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER entry_states_insert AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION entry_states_record()`,
  `CREATE TRIGGER entry_states_change AFTER UPDATE OF state ON entries FOR EACH ROW EXECUTE FUNCTION entry_states_record()`,

  // One place that moves a live entry in or out of its folder's and tags' counts.
  `CREATE FUNCTION entry_counts_add(company text, folder_name text, tags text, delta bigint) RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO entry_folder_counts (company_id, folder, count) VALUES (company, folder_name, delta)
       ON CONFLICT (company_id, folder) DO UPDATE SET count = entry_folder_counts.count + delta;
     INSERT INTO entry_tag_counts (company_id, tag, count)
       SELECT DISTINCT company, t, delta FROM jsonb_array_elements_text(tags::jsonb) AS t
       ON CONFLICT (company_id, tag) DO UPDATE SET count = entry_tag_counts.count + delta;
     DELETE FROM entry_folder_counts WHERE company_id = company AND count <= 0;
     DELETE FROM entry_tag_counts WHERE company_id = company AND count <= 0;
   END $$`,
  `CREATE FUNCTION entry_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.trashed_at IS NULL THEN
       PERFORM entry_counts_add(OLD.company_id, OLD.folder, OLD.tags, -1);
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.trashed_at IS NULL THEN
       PERFORM entry_counts_add(NEW.company_id, NEW.folder, NEW.tags, 1);
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER entries_count_insert AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION entry_counts_follow()`,
  `CREATE TRIGGER entries_count_delete AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION entry_counts_follow()`,
  `CREATE TRIGGER entries_count_update AFTER UPDATE OF company_id, folder, tags, trashed_at ON entries FOR EACH ROW
     WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.folder IS DISTINCT FROM NEW.folder
        OR OLD.tags IS DISTINCT FROM NEW.tags OR (OLD.trashed_at IS NULL) <> (NEW.trashed_at IS NULL))
     EXECUTE FUNCTION entry_counts_follow()`,

  `CREATE FUNCTION entries_keep_superseded() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE entry_versions SET data = OLD.data
       WHERE company_id = OLD.company_id AND entry_id = OLD.id AND data IS NULL
         AND version = (SELECT max(version) FROM entry_versions WHERE company_id = OLD.company_id AND entry_id = OLD.id);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER entries_keep_superseded AFTER UPDATE OF data ON entries FOR EACH ROW
     WHEN (OLD.data IS DISTINCT FROM NEW.data) EXECUTE FUNCTION entries_keep_superseded()`,

  `CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'the audit log is append-only';
   END $$`,
  `CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
];
