import { sql, type Kysely } from 'kysely';

/**
 * Every company's rows move from its public id (a 36-character UUID) to a short key:
 * 1, 2, 3… in the order the companies were made (access/company-key.ts). The companies'
 * `id` becomes the key, so every reference to it holds as it is, and the public id moves
 * to a new `uuid` column. Nothing else changes: the audit chain and the search index's
 * company tokens are made of the public id, as before.
 *
 * Each table's rows are rewritten in place. Triggers would take that for changes (the
 * change log, the counts, the audit log's guard): they are dropped first and made
 * again, from their own stored text, once every row has moved.
 */
export async function storeUnderCompanyKeysSqlite(db: Kysely<any>): Promise<void> {
  const triggers = (await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid`.execute(db)).rows;
  for (const t of triggers) await sql.raw(`DROP TRIGGER "${t.name}"`).execute(db);

  await sql.raw(`CREATE TEMP TABLE company_keys AS
    SELECT id AS uuid, CAST(row_number() OVER (ORDER BY created_at, id) AS TEXT) AS key FROM companies`).execute(db);
  await sql.raw(`CREATE UNIQUE INDEX temp.company_keys_uuid ON company_keys(uuid)`).execute(db);
  // Made anew (SQLite adds no NOT NULL column without a default), taking the old one's name:
  // references to companies(id) name the table, and find the keys there.
  await sql.raw(`CREATE TABLE companies_new (
      id TEXT PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT`).execute(db);
  await sql.raw(`INSERT INTO companies_new (id, uuid, name, created_at, updated_at)
    SELECT k.key, c.id, c.name, c.created_at, c.updated_at FROM companies c JOIN company_keys k ON k.uuid = c.id`).execute(db);
  await sql.raw('DROP TABLE companies').execute(db);
  await sql.raw('ALTER TABLE companies_new RENAME TO companies').execute(db);

  for (const table of await tablesWithCompany(db, 'sqlite')) {
    await sql.raw(`UPDATE "${table}" SET company_id = k.key FROM company_keys k WHERE k.uuid = "${table}".company_id`).execute(db);
  }
  await sql.raw('DROP TABLE temp.company_keys').execute(db);
  for (const t of triggers) await sql.raw(t.sql).execute(db);
}

/** PostgreSQL's twin: its foreign keys are checked at once, so they are dropped and added again around the move. */
export async function storeUnderCompanyKeysPg(db: Kysely<any>): Promise<void> {
  const tables = await tablesWithCompany(db, 'postgres');
  const foreign = (
    await sql<{ tbl: string; name: string; def: string }>`
      SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY oid`.execute(db)
  ).rows;
  for (const f of foreign) await sql.raw(`ALTER TABLE ${f.tbl} DROP CONSTRAINT "${f.name}"`).execute(db);
  for (const table of tables) await sql.raw(`ALTER TABLE "${table}" DISABLE TRIGGER USER`).execute(db);

  await sql.raw(`CREATE TEMP TABLE company_keys AS
    SELECT id AS uuid, (row_number() OVER (ORDER BY created_at, id))::text AS key FROM companies`).execute(db);
  await sql.raw('ALTER TABLE companies ADD COLUMN uuid text').execute(db);
  await sql.raw('UPDATE companies c SET uuid = c.id, id = k.key FROM company_keys k WHERE k.uuid = c.id').execute(db);
  await sql.raw('ALTER TABLE companies ALTER COLUMN uuid SET NOT NULL').execute(db);
  await sql.raw('CREATE UNIQUE INDEX companies_uuid ON companies(uuid)').execute(db);
  for (const table of tables) {
    await sql.raw(`UPDATE "${table}" t SET company_id = k.key FROM company_keys k WHERE k.uuid = t.company_id`).execute(db);
  }

  await sql.raw('DROP TABLE company_keys').execute(db);
  for (const table of tables) await sql.raw(`ALTER TABLE "${table}" ENABLE TRIGGER USER`).execute(db);
  for (const f of foreign) await sql.raw(`ALTER TABLE ${f.tbl} ADD CONSTRAINT "${f.name}" ${f.def}`).execute(db);
}

/** Every table (not the companies') with a company_id column. */
async function tablesWithCompany(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`
          SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
            AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'company_id') ORDER BY m.name`.execute(db)
      : await sql<{ name: string }>`
          SELECT table_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND column_name = 'company_id' ORDER BY table_name`.execute(db);
  return rows.rows.map((r) => r.name);
}
