import { AUDIT_STREAMS_SCHEMA } from '../../silo/audit-streams.ts';
import { ENTRY_CHECK_MARK } from '../../silo/check-mark.ts';
import { SORTS_TIED_BY_SEQ_PG } from '../../silo/sort-ties.ts';
import { ATTACHMENTS_IN_ORDER } from '../../silo/attachments-in-order.ts';
import { IDENTITY_UUID_INDEX_GONE } from '../../silo/identity-uuid-index.ts';
import { AUDIT_ACTORS_MIGRATION_PG, IMPLIED_CREATED_VERSION_PG } from '../../silo/implied-created-version.ts';
import { IMPLIED_FIRST_STATE_PG } from '../../silo/implied-first-state.ts';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { ENTRY_SUMS_FENCED_PG, ENTRY_SUMS_MOVING_PG, ENTRY_SUMS_SCHEMA_PG } from '../../silo/entry-sums.ts';
import { ENTRY_TAGS_SCHEMA_PG } from '../../silo/entry-tags.ts';
import { CHANGE_TRIGGERS, CHANGES_UNSTAMPED_PG, EVERY_WRITE_NOTED } from './change-triggers.ts';
import { SEARCH } from './search.ts';
import { TABLES } from './schema.ts';
import { TRIGGERS } from './triggers.ts';
import { storeUnderCompanyKeysPg } from '../company-keys-migration.ts';
import { CREATED_TIED_BY_SEQ_PG } from '../../silo/created-ties.ts';
import { IDENTITIES_BY_SEQ_PG } from '../../silo/identities-by-seq.ts';
import { compactNumberKeys } from '../../silo/number-keys-migration.ts';

const statements = (list: string[]): Migration => ({
  async up(db: Kysely<any>) {
    for (const statement of list) await sql.raw(statement).execute(db);
  },
});

/**
 * PostgreSQL's own numbered migrations: a database starts at SQLite's schema of the day
 * (its history is SQLite's alone), and every later change is added here beside its
 * SQLite twin. Kysely's migrator takes a lock in the database, so several `serve`
 * processes starting at once migrate it once.
 */
export const pgMigrations: Record<string, Migration> = {
  '0001_schema': statements([...TABLES, ...TRIGGERS, ...SEARCH]),
  '0002_change_triggers': statements(CHANGE_TRIGGERS),
  '0003_entry_tags': statements(ENTRY_TAGS_SCHEMA_PG),
  '0004_entry_sums': statements(ENTRY_SUMS_SCHEMA_PG),
  '0005_audit_streams': statements(AUDIT_STREAMS_SCHEMA),
  '0006_entry_check_mark': statements([ENTRY_CHECK_MARK]),
  '0007_sorts_tied_by_seq': statements(SORTS_TIED_BY_SEQ_PG),
  '0008_every_write_noted': statements(EVERY_WRITE_NOTED),
  '0009_implied_first_state': statements(IMPLIED_FIRST_STATE_PG),
  '0010_identity_uuid_index_gone': statements(IDENTITY_UUID_INDEX_GONE),
  '0011_implied_created_version': statements(IMPLIED_CREATED_VERSION_PG),
  '0012_attachments_in_order': statements(ATTACHMENTS_IN_ORDER),
  '0013_company_keys': { up: storeUnderCompanyKeysPg },
  '0014_created_order_tied_by_seq': statements(CREATED_TIED_BY_SEQ_PG),
  '0015_identities_by_seq': statements(IDENTITIES_BY_SEQ_PG),
  '0016_number_keys_compacted': { up: compactNumberKeys('postgres') },
  '0017_changes_unstamped': statements(CHANGES_UNSTAMPED_PG),
  '0018_audit_actors': statements(AUDIT_ACTORS_MIGRATION_PG),
  '0019_entry_sums_fenced': statements(ENTRY_SUMS_FENCED_PG),
  '0020_entry_sums_moving': statements(ENTRY_SUMS_MOVING_PG),
};

export async function migratePostgres(db: Kysely<any>): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => pgMigrations };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw new Error(`migration failed: ${String((error as Error).message ?? error)}`, { cause: error });
  return (results ?? []).map((r) => r.migrationName);
}
