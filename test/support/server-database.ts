import { inject } from 'vitest';
import { freshDatabase } from './pg-database.ts';

/**
 * The engine a served instance under test keeps its records on. vitest.config.ts runs
 * the API and sync suites once as they are (SQLite) and once as the `postgres` project,
 * where every server a test starts runs on a PostgreSQL database of its own.
 */
export const serverEngine: 'sqlite' | 'postgres' = process.env.SILODESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The database option for one served instance, and how to drop it once that instance is closed for good. */
export async function serverDatabase(): Promise<{ databaseUrl?: string; drop(): Promise<void> }> {
  if (serverEngine === 'sqlite') return { drop: async () => undefined };
  const url = inject('pgUrl');
  if (!url) throw new Error('the postgres project runs only where a PostgreSQL server is reachable');
  const database = await freshDatabase(url);
  return { databaseUrl: database.url, drop: database.drop };
}
