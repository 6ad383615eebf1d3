import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Sqlite } from './connection.ts';
import { migrations } from './migrations.ts';

class InlineMigrationProvider implements MigrationProvider {
  readonly #migrations: Record<string, Migration>;
  constructor(list: Record<string, Migration>) {
    this.#migrations = list;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.#migrations;
  }
}

/**
 * Brings the database to the latest schema. When a database that already holds
 * data is about to change, an online backup is taken first into `backups/`, so a
 * failed or regretted migration never costs the accountant their records.
 */
export async function migrateToLatest(
  sqlite: Sqlite,
  db: Kysely<any>,
  backupDir: string,
  list: Record<string, Migration> = migrations,
): Promise<{ applied: string[]; backup?: string }> {
  const migrator = new Migrator({ db, provider: new InlineMigrationProvider(list) });
  const pending = (await migrator.getMigrations()).filter((m) => !m.executedAt);
  if (pending.length === 0) return { applied: [] };

  let backup: string | undefined;
  const hasData = sqlite
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entries'`)
    .get();
  if (hasData) {
    mkdirSync(backupDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    backup = join(backupDir, `silodesk-${stamp}-before-${pending[0].name}.db`);
    await sqlite.backup(backup);
  }

  // A migration that makes a table anew drops the old one: with foreign keys on, that
  // drop would cascade into every child. They are off while migrating (a pragma that
  // only takes effect outside a transaction) and every reference is checked after.
  const enforced = sqlite.pragma('foreign_keys', { simple: true }) === 1;
  sqlite.pragma('foreign_keys = OFF');
  // Defensive mode forbids writing the schema's text, which loosening a column's type
  // takes (loosen-column-types.ts); only the migrations' own statements run meanwhile.
  sqlite.unsafeMode(true);
  let outcome: Awaited<ReturnType<typeof migrator.migrateToLatest>>;
  try {
    outcome = await migrator.migrateToLatest();
  } finally {
    sqlite.unsafeMode(false);
    if (enforced) sqlite.pragma('foreign_keys = ON');
  }
  const { error, results } = outcome;
  if (error) throw new Error(`migration failed: ${String((error as Error).message ?? error)}`, { cause: error });
  const broken = sqlite.pragma('foreign_key_check') as unknown[];
  if (broken.length > 0) throw new Error(`migration left ${broken.length} broken references: ${JSON.stringify(broken.slice(0, 5))}`);
  return { applied: (results ?? []).map((r) => r.migrationName), backup };
}
