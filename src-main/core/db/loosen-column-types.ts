import { sql, type Kysely } from 'kysely';

/**
 * Migration 0022: the columns that hold an entry's document (entries.data,
 * entry_versions.data, jobs.envelope) take its packed bytes as well as its text
 * (silo/packed-document.ts), so each goes from TEXT to ANY.
 *
 * SQLite cannot change a column's type but by copying the table, which at a million
 * entries is gigabytes written and minutes at start-up. A STRICT table's rows carry no
 * trace of the declared type, so loosening it is a change to the schema's text alone:
 * the procedure SQLite documents for dropping a constraint (writable_schema, then a new
 * schema_version so every connection reads the schema again), in one transaction.
 * Only STRICT tables are touched: in any other, ANY would mean numeric affinity and
 * change what a row reads back. Defensive mode is off while migrating (migrate.ts).
 */
export const PACKED_DOCUMENT_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['entries', 'data'],
  ['entry_versions', 'data'],
  ['jobs', 'envelope'],
];

export function loosenedTableSql(table: string, column: string, text: string): string {
  if (!/\)\s*STRICT\b/.test(text)) throw new Error(`${table} is not a STRICT table`);
  const declared = new RegExp(`(^|[(,\\s])${column} TEXT\\b`, 'g');
  const found = text.match(declared) ?? [];
  if (found.length !== 1) throw new Error(`${table}.${column} is not declared TEXT once (found ${found.length})`);
  return text.replace(declared, `$1${column} ANY`);
}

export async function loosenPackedDocumentColumns(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  await run('BEGIN IMMEDIATE');
  try {
    const { rows } = await sql<{ schema_version: number }>`PRAGMA schema_version`.execute(db);
    await run('PRAGMA writable_schema = ON');
    for (const [table, column] of PACKED_DOCUMENT_COLUMNS) {
      const { rows: [row] } = await sql<{ sql: string }>`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ${table}`.execute(db);
      if (!row) throw new Error(`no table ${table}`);
      await sql`UPDATE sqlite_schema SET sql = ${loosenedTableSql(table, column, row.sql)} WHERE type = 'table' AND name = ${table}`.execute(db);
    }
    await run(`PRAGMA schema_version = ${rows[0].schema_version + 1}`);
    await run('PRAGMA writable_schema = OFF');
    await run('COMMIT');
  } catch (err) {
    await run('ROLLBACK');
    await run('PRAGMA writable_schema = OFF');
    throw err;
  }
}
