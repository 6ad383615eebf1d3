import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_V8_FLAGS } from '../../src-main/service-process/heap.ts';
import { checkedFetchFor } from './harness.ts';

/** A `serve` child process once it listens: its address, the owner token of its data dir, a client. */
export interface ServedProcess {
  child: ChildProcess;
  url: string;
  token: string;
  /** stdout and stderr so far, interleaved */
  output(): string;
  /** a request with the owner token, or `token` */
  call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** sends `signal`; resolves once the process has exited */
  signal(signal: NodeJS.Signals): Promise<void>;
}

export interface ServeProcess extends ServedProcess {
  /** SIGKILL unless told */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns `serve` (its sources, unless `entry` names another, such as the service build) with `args`, keeping everything it prints. */
export function spawnServe(args: string[], env: NodeJS.ProcessEnv = process.env, entry = 'src-main/serve.ts'): { child: ChildProcess; output(): string } {
  const child = spawn(process.execPath, [...SERVICE_V8_FLAGS, entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

/** Waits for a spawned `serve` to listen (it rejects if the process exits first), then answers its client. */
export async function served(run: { child: ChildProcess; output(): string }, dataDir: string): Promise<ServedProcess> {
  const { child } = run;
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /silodesk listening on (http:\/\/\S+)/.exec(run.output());
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${run.output()}`)));
  });
  const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
  const checked = checkedFetchFor(url);
  return {
    child,
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
    signal(signal) {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
  };
}

/** Runs `serve` as a real separate process (for crash tests), on a random port. */
export async function startServe(dataDir: string, extraArgs: string[] = []): Promise<ServeProcess> {
  const serve = await served(spawnServe(['--data', dataDir, '--port', '0', '--quiet', ...extraArgs]), dataDir);
  return { ...serve, kill: (signal = 'SIGKILL') => serve.signal(signal) };
}
