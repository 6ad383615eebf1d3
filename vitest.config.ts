import { defineConfig } from 'vitest/config';
import { postgresBinDir } from './scripts/pg-cluster.ts';

/**
 * The suites whose service runs once more on PostgreSQL (the `postgres` project):
 * every API and sync suite whose checks hold on either engine. The others read
 * SQLite's own files or plans, or test what only the desktop's SQLite has (backups,
 * crashes of its process mid-write, its migrations).
 */
const POSTGRES_SUITES = [
  'access', 'attachments-meta', 'audit', 'bad-input', 'company-ids-transform-sequence', 'desk-list-search', 'desk-list-views',
  'duplicates', 'editor-regimes', 'entries', 'exports-scale', 'exports', 'gobl-endpoints', 'gobl-entries',
  'gobl-workflows', 'history', 'hosted-access-authorize', 'hosted-access-orgs', 'hosted-access', 'hosted-silo-files',
  'hosted-silo-openapi-check', 'hosted-silo-states', 'hosted-silo', 'if-match', 'perf-node-front', 'perf-rate-limit',
  'perf-search', 'derived-rows', 'providers-silo', 'providers-workflows', 'sequence-chain', 'sequence-entries', 'sequence-series', 'trash',
  'transform', 'hosted-transform', 'perf-jobs', 'company-ids-silo', 'desk-list', 'related-refs', 'perf-counts', 'perf-import',
  'fuzz', 'filtered-list', 'entry-sums', 'check-mark', 'sort-ties', 'large-files', 'large-documents',
  // sync, with the remote on PostgreSQL and the laptops on SQLite (sync-helpers.ts `remote: true`)
  'company-ids-sync', 'sync-conflicts', 'sync-feed', 'sync-meta-tombstone', 'sync-property', 'sync-resilience', 'sync-twoway',
  'trash-sync', 'trust-companies', 'trust-conflicts-serve', 'trust-conflicts', 'trust-identity', 'trust-key-clash', 'trust-remote',
  'trust-restore-kill', 'trust-server', 'trust-sigs', 'trusted-jwks-sync', 'sync-kill', 'sync-large-files', 'sync-large-documents',
  // PostgreSQL's own: several serve processes on one database, 20 laptops syncing through them
  'pg-serve', 'pg-many-laptops',
].map((name) => `test/api/${name}.test.ts`);

// PostgreSQL runs where a server is reachable: always in CI (.ci/run installs it; test/support/pg-setup.ts fails without).
const postgres = Boolean(process.env.SILODESK_TEST_DATABASE_URL || postgresBinDir() || process.env.CI);

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/support/pg-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { SILODESK_CHECK_OUTPUT: '1' },
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts'], exclude: ['test/api/pg-*.test.ts', '**/node_modules/**'] },
      },
      ...(postgres
        ? [{ extends: true, test: { name: 'postgres', include: POSTGRES_SUITES, env: { SILODESK_CHECK_OUTPUT: '1', SILODESK_TEST_ENGINE: 'postgres' } } }]
        : []),
    ],
  },
});
