import { served, spawnServe, type ServedProcess } from './serve-process.ts';

/** A `serve` child process on PostgreSQL, with everything it printed kept for the test to read. */
export interface PgServe extends ServedProcess {
  /** SIGTERM (a clean stop) unless told; resolves once the process has exited */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs `serve --db URL` on a random port (or with the URL in SILODESK_DATABASE_URL when
 * `viaEnv`). Not --quiet: the request log is output too, and no secret may show in it.
 */
export async function startPgServe(dataDir: string, databaseUrl: string, opts: { viaEnv?: boolean; args?: string[] } = {}): Promise<PgServe> {
  const serve = await served(runServe(dataDir, databaseUrl, opts), dataDir);
  return { ...serve, stop: (signal = 'SIGTERM') => serve.signal(signal) };
}

/** Runs `serve --db URL` expecting it to stop by itself (a bad URL, a server down): its exit code and output. */
export async function serveThatFails(dataDir: string, databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const run = runServe(dataDir, databaseUrl, {});
  const code = await new Promise<number | null>((resolve) => run.child.once('exit', resolve));
  return { code, output: run.output() };
}

function runServe(dataDir: string, databaseUrl: string, opts: { viaEnv?: boolean; args?: string[] }) {
  const args = ['--data', dataDir, '--port', '0', ...(opts.viaEnv ? [] : ['--db', databaseUrl]), ...(opts.args ?? [])];
  return spawnServe(args, { ...process.env, SILODESK_DATABASE_URL: opts.viaEnv ? databaseUrl : '' });
}
