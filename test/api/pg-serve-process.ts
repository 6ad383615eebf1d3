import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkedFetchFor } from './harness.ts';

/** A `serve` child process on PostgreSQL, with everything it printed kept for the test to read. */
export interface PgServe {
  child: ChildProcess;
  url: string;
  token: string;
  /** stdout and stderr so far, interleaved */
  output(): string;
  /** a request with the owner token, or `token` */
  call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** SIGTERM (a clean stop) unless told; resolves once the process has exited */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs `serve --db URL` on a random port (or with the URL in SILODESK_DATABASE_URL when
 * `viaEnv`). Not --quiet: the request log is output too, and no secret may show in it.
 */
export async function startPgServe(dataDir: string, databaseUrl: string, opts: { viaEnv?: boolean; args?: string[] } = {}): Promise<PgServe> {
  const run = runServe(dataDir, databaseUrl, opts);
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /silodesk listening on (http:\/\/\S+)/.exec(run.output());
      if (m) resolve(m[1]);
    };
    run.child.stdout!.on('data', look);
    run.child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${run.output()}`)));
  });
  const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
  const checked = checkedFetchFor(url);
  return {
    child: run.child,
    url,
    token,
    output: run.output,
    async call(method, path, body, asToken = token) {
      // Held to the /openapi.json this very process serves, as every API test's answers are.
      const res = await checked(url + path, {
        method,
        headers: { authorization: `Bearer ${asToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        if (run.child.exitCode !== null || run.child.signalCode !== null) return resolve();
        run.child.once('exit', () => resolve());
        run.child.kill(signal);
      });
    },
  };
}

/** Runs `serve --db URL` expecting it to stop by itself (a bad URL, a server down): its exit code and output. */
export async function serveThatFails(dataDir: string, databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const run = runServe(dataDir, databaseUrl, {});
  const code = await new Promise<number | null>((resolve) => run.child.once('exit', resolve));
  return { code, output: run.output() };
}

function runServe(dataDir: string, databaseUrl: string, opts: { viaEnv?: boolean; args?: string[] }) {
  const args = ['src-main/serve.ts', '--data', dataDir, '--port', '0', ...(opts.viaEnv ? [] : ['--db', databaseUrl]), ...(opts.args ?? [])];
  const env = { ...process.env, SILODESK_DATABASE_URL: opts.viaEnv ? databaseUrl : '' };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}
