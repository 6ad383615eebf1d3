/**
 * The live entries carrying each tag, one row per (company, tag, entry), so a list
 * filtered by a rare tag reads the tag's rows instead of opening every entry's `tags`
 * JSON: at a million entries a tag carried by none took 1.7–1.9 s warm and 38 s cold
 * through `json_each` per row. Kept by the same triggers as the tag counts
 * (record-keeping-schema.ts), made again here: an entry in the trash carries no tag in
 * this table, as it counts in no tag.
 *
 * The triggers' clean-up of spent counts now names the entry's own tags: it deleted
 * every spent row of the company (`count <= 0` over all its tags) on each change, a
 * walk of the company's tags for every tagged write.
 */
export const ENTRY_TAGS_SCHEMA = [
  `CREATE TABLE entry_tags (
     company_id TEXT NOT NULL,
     tag TEXT NOT NULL,
     seq INTEGER NOT NULL,
     PRIMARY KEY (company_id, tag, seq)
   ) STRICT, WITHOUT ROWID`,
  `INSERT OR IGNORE INTO entry_tags (company_id, tag, seq)
     SELECT e.company_id, t.value, e.seq FROM entries e, json_each(e.tags) t WHERE e.trashed_at IS NULL AND e.tags <> '[]'`,
  `DROP TRIGGER entries_count_insert`,
  `DROP TRIGGER entries_count_delete`,
  `DROP TRIGGER entries_count_tags`,
  `CREATE TRIGGER entries_count_insert AFTER INSERT ON entries WHEN NEW.trashed_at IS NULL BEGIN
     INSERT INTO entry_folder_counts (company_id, folder, count) VALUES (NEW.company_id, NEW.folder, 1)
       ON CONFLICT (company_id, folder) DO UPDATE SET count = count + 1;
     INSERT INTO entry_tag_counts (company_id, tag, count) SELECT DISTINCT NEW.company_id, value, 1 FROM json_each(NEW.tags) WHERE true
       ON CONFLICT (company_id, tag) DO UPDATE SET count = count + 1;
     INSERT OR IGNORE INTO entry_tags (company_id, tag, seq) SELECT NEW.company_id, value, NEW.seq FROM json_each(NEW.tags);
   END`,
  `CREATE TRIGGER entries_count_delete AFTER DELETE ON entries WHEN OLD.trashed_at IS NULL BEGIN
     UPDATE entry_folder_counts SET count = count - 1 WHERE company_id = OLD.company_id AND folder = OLD.folder;
     DELETE FROM entry_folder_counts WHERE company_id = OLD.company_id AND folder = OLD.folder AND count <= 0;
     UPDATE entry_tag_counts SET count = count - 1
       WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags));
     DELETE FROM entry_tag_counts WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags)) AND count <= 0;
     DELETE FROM entry_tags WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags)) AND seq = OLD.seq;
   END`,
  // A retag, a move to another company, a trashing (the old tags lose it) or a restore (the new ones gain it).
  `CREATE TRIGGER entries_count_tags AFTER UPDATE OF company_id, tags, trashed_at ON entries
     WHEN (OLD.trashed_at IS NULL OR NEW.trashed_at IS NULL)
      AND (OLD.company_id IS NOT NEW.company_id OR OLD.tags IS NOT NEW.tags OR (OLD.trashed_at IS NULL) <> (NEW.trashed_at IS NULL)) BEGIN
     UPDATE entry_tag_counts SET count = count - 1
       WHERE OLD.trashed_at IS NULL AND company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags));
     DELETE FROM entry_tag_counts WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags)) AND count <= 0;
     DELETE FROM entry_tags WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags)) AND seq = OLD.seq;
     INSERT INTO entry_tag_counts (company_id, tag, count)
       SELECT DISTINCT NEW.company_id, value, 1 FROM json_each(NEW.tags) WHERE NEW.trashed_at IS NULL
       ON CONFLICT (company_id, tag) DO UPDATE SET count = count + 1;
     INSERT OR IGNORE INTO entry_tags (company_id, tag, seq) SELECT NEW.company_id, value, NEW.seq FROM json_each(NEW.tags) WHERE NEW.trashed_at IS NULL;
   END`,
];

/** The same on PostgreSQL (pg/migrate.ts): the table, and the counts' trigger function made again to keep it. */
export const ENTRY_TAGS_SCHEMA_PG = [
  `CREATE TABLE entry_tags (
     company_id text NOT NULL,
     tag text NOT NULL,
     seq bigint NOT NULL,
     PRIMARY KEY (company_id, tag, seq)
   )`,
  `INSERT INTO entry_tags (company_id, tag, seq)
     SELECT DISTINCT e.company_id, t, e.seq FROM entries e, jsonb_array_elements_text(e.tags::jsonb) AS t WHERE e.trashed_at IS NULL
     ON CONFLICT DO NOTHING`,
  `CREATE OR REPLACE FUNCTION entry_counts_add(company text, folder_name text, tags text, delta bigint) RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO entry_folder_counts (company_id, folder, count) VALUES (company, folder_name, delta)
       ON CONFLICT (company_id, folder) DO UPDATE SET count = entry_folder_counts.count + delta;
     INSERT INTO entry_tag_counts (company_id, tag, count)
       SELECT DISTINCT company, t, delta FROM jsonb_array_elements_text(tags::jsonb) AS t
       ON CONFLICT (company_id, tag) DO UPDATE SET count = entry_tag_counts.count + delta;
     DELETE FROM entry_folder_counts WHERE company_id = company AND folder = folder_name AND count <= 0;
     DELETE FROM entry_tag_counts WHERE company_id = company AND tag IN (SELECT jsonb_array_elements_text(tags::jsonb)) AND count <= 0;
   END $$`,
  `CREATE OR REPLACE FUNCTION entry_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.trashed_at IS NULL THEN
       PERFORM entry_counts_add(OLD.company_id, OLD.folder, OLD.tags, -1);
       DELETE FROM entry_tags WHERE company_id = OLD.company_id AND tag IN (SELECT jsonb_array_elements_text(OLD.tags::jsonb)) AND seq = OLD.seq;
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.trashed_at IS NULL THEN
       PERFORM entry_counts_add(NEW.company_id, NEW.folder, NEW.tags, 1);
       INSERT INTO entry_tags (company_id, tag, seq)
         SELECT DISTINCT NEW.company_id, t, NEW.seq FROM jsonb_array_elements_text(NEW.tags::jsonb) AS t ON CONFLICT DO NOTHING;
     END IF;
     RETURN NULL;
   END $$`,
];
