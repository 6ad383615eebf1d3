import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureWebBuild } from '../../scripts/web-build.ts';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../core/access/bootstrap.ts';
import { setLocalApiControl } from '../core/access/local-api.ts';
import { issueLoginCode } from '../core/access/login-codes.ts';
import { openServiceCore, startService } from '../core/service.ts';
import { startHttpServer } from './server.ts';

/**
 * Headless Silodesk: the same service as the desktop app, over HTTP only, plus the
 * built web UI. `npm run serve -- --data DIR --port 4100 --host 127.0.0.1 [--rebuild]`.
 * `npm run serve` passes --build-web: the web UI in out/web is rebuilt only when its
 * sources changed (scripts/web-build.ts), or always with --rebuild. Tests start this
 * without either, so they never rebuild out/web under another server of their run.
 *
 * The port opens as soon as the database is open: the job engine, sync and the API's
 * handlers (most of the code) load right after, and a request that comes sooner waits
 * for them (http/server.ts).
 */
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: './silodesk-data' },
    port: { type: 'string', default: '4100' },
    host: { type: 'string', default: '127.0.0.1' },
    quiet: { type: 'boolean', default: false },
    // build the web UI first when its sources are newer than out/web
    'build-web': { type: 'boolean', default: false },
    // build the web UI first, always
    rebuild: { type: 'boolean', default: false },
    // sync this instance's default company with a remote Silodesk (also settable in the UI)
    remote: { type: 'string' },
    'remote-token-file': { type: 'string' },
    'sync-interval': { type: 'string', default: '15' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`silodesk: --port must be a number from 0 to 65535 (got ${values.port})`);
  process.exit(2);
}
const host = values.host!;
if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
  console.error(`silodesk: warning: listening on ${host}, not loopback; anyone who can reach it and holds a token can use the API`);
}

if (values['build-web'] || values.rebuild) {
  try {
    ensureWebBuild({ rebuild: values.rebuild });
  } catch (err) {
    console.error(`silodesk: ${(err as Error).message}`);
    process.exit(1);
  }
}

const dataDir = resolve(values.data!);
const service = await openServiceCore(dataDir, { log: (line) => console.error(line) });
const company = await ensureDefaultCompany(service.db);
await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
if (values.remote) {
  // The token comes from a file, never the command line, where any user could read it.
  if (!values['remote-token-file']) {
    console.error('silodesk: --remote needs --remote-token-file FILE (a file holding the remote token)');
    process.exit(2);
  }
  const interval = Number(values['sync-interval']);
  try {
    // Sync is set up before the port opens, as it always was: a bad remote stops serve here.
    await startService(service);
    await service.sync.configure(company.id, {
      remote_url: values.remote,
      token: readFileSync(resolve(values['remote-token-file']), 'utf8').trim(),
      interval_minutes: Number.isInteger(interval) && interval >= 0 ? interval : 15,
      paused: false,
    });
  } catch (err) {
    console.error(`silodesk: cannot sync with ${values.remote}: ${(err as Error).message}`);
    process.exit(2);
  }
}

const webRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'web');
const server = await startHttpServer(service, {
  host,
  port,
  webRoot: existsSync(webRoot) ? webRoot : undefined,
  log: values.quiet ? undefined : (line) => console.error(line),
});
setLocalApiControl(service, {
  get: () => ({ enabled: true, port: server.port, running: true, url: server.url, configurable: false }),
  set: async () => {
    throw new Error('unreachable: serve is not configurable');
  },
});
console.log(`silodesk listening on ${server.url}`);
// A one-time code, not the token: it works once, for ten minutes, and is traded for a browser session.
if (webRoot && existsSync(webRoot)) console.log(`open ${server.url}/#login=${issueLoginCode(service, company.id)}`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await service.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

// The job engine (resuming unfinished jobs), sync and the timers: the port is already open.
startService(service).catch((err: unknown) => {
  console.error(`silodesk: the service could not start: ${(err as Error)?.stack ?? err}`);
  process.exit(1);
});
