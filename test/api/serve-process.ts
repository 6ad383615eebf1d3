import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkedFetchFor } from './harness.ts';

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `serve` as a real separate process (for crash tests), on a random port. */
export async function startServe(dataDir: string, extraArgs: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['src-main/serve.ts', '--data', dataDir, '--port', '0', '--quiet', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /silodesk listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
  const checked = checkedFetchFor(url);
  return {
    child,
    url,
    token,
    async call(method, path, body) {
      // Held to the /openapi.json this very process serves, as every API test's answers are.
      const res = await checked(url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    kill(signal = 'SIGKILL') {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
  };
}
