import type { TestProject } from 'vitest/node';
import { postgresBinDir, startCluster, type Cluster } from '../../scripts/pg-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a PostgreSQL server for the engine suites ('' when none is reachable here) */
    pgUrl: string;
  }
}

/**
 * The PostgreSQL the suites run against: SILODESK_TEST_DATABASE_URL when given, else a
 * throwaway cluster when PostgreSQL is installed. CI always has one (.ci/run installs
 * it); there, finding none is a failure, never a quietly smaller run.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  let cluster: Cluster | undefined;
  let url = process.env.SILODESK_TEST_DATABASE_URL ?? '';
  if (!url && postgresBinDir()) {
    cluster = await startCluster();
    url = cluster.url;
  }
  if (!url && process.env.CI) throw new Error('CI runs the PostgreSQL suites, but no PostgreSQL is installed (apt-get install postgresql)');
  project.provide('pgUrl', url);
  return () => cluster?.stop();
}
