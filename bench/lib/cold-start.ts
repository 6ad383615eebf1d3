// Cold start of `serve`, as a user starts it: `node scripts/serve.mjs` (what `npm run serve` runs:
// it checks that the web UI and service builds are current, then runs the service build) spawned
// on a data dir, timed until its port takes a connection (what "listening" means to a client,
// whatever the process prints), then until it has answered the first list page (a request that
// comes before the API's handlers are loaded waits for them). The compile cache `serve` keeps
// (Node's, in the system's temp folder) is warmed by one start that is not counted, as any start
// after the first finds it (and that start makes a stale build anew); one more start without it
// shows what the very first start costs. Beside them: the service build started on its own (as
// the desktop app starts its service process) and the TypeScript sources (as the tests start them).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/free-port.ts';
import { SERVICE_V8_FLAGS } from '../../src-main/service-process/heap.ts';
import type { Aim, Figure } from './report.ts';
import { median, spreadOf } from './stats.ts';

export const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../out/serve/serve.js', import.meta.url));
const SOURCES = fileURLToPath(new URL('../../src-main/serve.ts', import.meta.url));

export interface ColdStarts {
  /** spawn → the port takes a connection, ms, per run */
  listening: number[];
  /** spawn → the first list page answered, ms, per run */
  firstPage: number[];
  /** RSS after `reads` more requests, bytes, per run */
  rss: number[];
  /** the same two with Node's compile cache off: a first start ever */
  uncached: { listening: number; firstPage: number };
  /** spawn → listening, ms, per run: the service build alone, and the sources */
  built: number[];
  sources: number[];
}

/** `serve` started on dataDir `runs` times (after one uncounted start), then once without the compile cache. */
export async function coldStarts(dataDir: string, runs: number, reads: (r: number) => string = () => '/silo/v1/entries?limit=20', readCount = 200): Promise<ColdStarts> {
  const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
  const out: ColdStarts = { listening: [], firstPage: [], rss: [], uncached: { listening: 0, firstPage: 0 }, built: [], sources: [] };
  await startOnce(SERVE, dataDir, token, {});
  for (let i = 0; i < runs; i++) {
    const run = await startOnce(SERVE, dataDir, token, {}, reads, readCount);
    out.listening.push(run.listening);
    out.firstPage.push(run.firstPage);
    out.rss.push(run.rss);
  }
  const first = await startOnce(SERVE, dataDir, token, { NODE_DISABLE_COMPILE_CACHE: '1' });
  out.uncached = { listening: first.listening, firstPage: first.firstPage };
  await startOnce(SOURCES, dataDir, token, {});
  for (let i = 0; i < runs; i++) {
    out.built.push((await startOnce(BUILT, dataDir, token, {})).listening);
    out.sources.push((await startOnce(SOURCES, dataDir, token, {})).listening);
  }
  return out;
}

async function startOnce(entry: string, dataDir: string, token: string, env: Record<string, string>, reads?: (r: number) => string, readCount = 0) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [...SERVICE_V8_FLAGS, entry, '--data', dataDir, '--port', String(port), '--quiet'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`serve exited (${code}) before answering: ${stderr.slice(0, 2000)}`))));
  try {
    await Promise.race([portOpen(port), exited]);
    const listening = performance.now() - t0;
    const headers = { authorization: `Bearer ${token}` };
    const first = await Promise.race([fetch(`${url}/silo/v1/entries?limit=20`, { headers }), exited]);
    await first.text();
    if (first.status !== 200) throw new Error(`serve answered the first page with ${first.status}`);
    const firstPage = performance.now() - t0;
    for (let r = 0; r < readCount; r++) await (await fetch(url + reads!(r), { headers })).text();
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
    return { listening, firstPage, rss };
  } finally {
    exited.catch(() => undefined);
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port (tried every 2 ms). */
async function portOpen(port: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export const COLD_AIM: Aim = { op: '<=', value: 300, on: 'figure', goal: 'cold start < 0.3 s at 1M entries' };

/** The figures of a series of cold starts, in `group`. */
export function coldStartFigures(group: string, cold: ColdStarts): Figure[] {
  return [
    { group, name: 'cold start: process start to listening (port open)', value: median(cold.listening), unit: 'ms', spread: spreadOf(cold.listening), aim: COLD_AIM },
    { group, name: '  to its first list page answered', value: median(cold.firstPage), unit: 'ms', spread: spreadOf(cold.firstPage) },
    { group, name: '  the first start of all (no compile cache yet): to listening', value: cold.uncached.listening, unit: 'ms' },
    { group, name: '    to its first list page answered', value: cold.uncached.firstPage, unit: 'ms' },
    { group, name: '  the service build alone (node out/serve/serve.js): to listening', value: median(cold.built), unit: 'ms', spread: spreadOf(cold.built) },
    { group, name: '  the TypeScript sources (node src-main/serve.ts): to listening', value: median(cold.sources), unit: 'ms', spread: spreadOf(cold.sources) },
  ];
}

export const coldStartNote = (serve: string) =>
  `cold start: node ${SERVICE_V8_FLAGS.join(' ')} ${serve.replace(/.*\/scripts/, 'scripts')} --data <copy> --port <free> --quiet (what npm run serve runs), from spawn until the port takes a connection, then until GET /silo/v1/entries?limit=20 is answered; one uncounted start first warms Node's compile cache, as any start after a user's first finds it`;
