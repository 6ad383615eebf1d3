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

  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`migration failed: ${String((error as Error).message ?? error)}`, { cause: error });
  return { applied: (results ?? []).map((r) => r.migrationName), backup };
}
