import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../core/access/bootstrap.ts';
import type { StoredCompany } from '../core/access/companies.ts';
import { setLocalApiControl } from '../core/access/local-api.ts';
import { issueLoginCode } from '../core/access/login-codes.ts';
import { openServiceCore, startService, type Service } from '../core/service.ts';
import { startHttpServer } from './server.ts';
import { webRootOf } from './web-root.ts';

/**
 * Headless Silodesk: the same service as the desktop app, over HTTP only, plus the
 * built web UI in out/web. `npm run serve -- --data DIR --port 4100 --host 127.0.0.1 [--db postgres://…]`
 * runs the service build (out/serve) after remaking what is stale of it and of the web UI
 * (scripts/serve.mjs); tests start the sources (src-main/serve.ts), which build nothing.
 *
 * The port opens as soon as the database is open: the job engine, sync and the API's
 * handlers (most of the code) load right after, and a request that comes sooner waits
 * for them (http/server.ts).
 *
 * `--db postgres://…` (or SILODESK_DATABASE_URL) keeps the records on a PostgreSQL server
 * instead of the data dir's SQLite file, so several `serve` processes can share them; the
 * data dir still holds the files, the keys and the api-token, shared by those processes too.
 */
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: './silodesk-data' },
    port: { type: 'string', default: '4100' },
    host: { type: 'string', default: '127.0.0.1' },
    quiet: { type: 'boolean', default: false },
    // sync this instance's default company with a remote Silodesk (also settable in the UI)
    remote: { type: 'string' },
    'remote-token-file': { type: 'string' },
    'sync-interval': { type: 'string', default: '15' },
    // the records on PostgreSQL (default: SILODESK_DATABASE_URL, else SQLite in the data dir)
    db: { type: 'string' },
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

const dataDir = resolve(values.data!);
/** The advisory lock `serve` processes on one database start under (any constant: this one spells "silodesk"). */
const STARTUP_LOCK = '8316297412597871467';

const databaseUrl = values.db || process.env.SILODESK_DATABASE_URL || undefined;
const database = databaseUrl ? postgresTarget(databaseUrl) : undefined;
if (databaseUrl && !database) {
  // The value itself is not echoed: it may hold a password.
  console.error('silodesk: --db (or SILODESK_DATABASE_URL) must be a postgres://user:password@host:port/database URL');
  process.exit(2);
}
const { service, company } = database ? await openOnPostgres(database) : await openBootstrapped();
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
    await service.sync.configure(company.key, {
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

const webRoot = webRootOf(dirname(fileURLToPath(import.meta.url)));
const server = await startHttpServer(service, {
  host,
  port,
  webRoot,
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
if (webRoot) console.log(`open ${server.url}/#login=${issueLoginCode(service, company)}`);

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

/** Where a PostgreSQL URL points, for messages (host, port and database: never the user's password). */
interface PostgresTarget {
  url: string;
  /** `host:port/database` */
  where: string;
  /** the password as written and as decoded, to scrub from a driver's message */
  secrets: string[];
}

function postgresTarget(url: string): PostgresTarget | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!['postgres:', 'postgresql:'].includes(parsed.protocol) || !parsed.hostname) return undefined;
  const secrets = [parsed.password, safeDecode(parsed.password)].filter((s) => s.length > 0);
  return { url, where: `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname || '/'}`, secrets };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The service on the data dir's SQLite file, with its default company and api-token. */
async function openBootstrapped(): Promise<{ service: Service; company: StoredCompany }> {
  const service = await openServiceCore(dataDir, { log: (line) => console.error(line) });
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
  return { service, company };
}

/**
 * The service on PostgreSQL. The server is reached first, before anything is made in the
 * data dir, so a wrong URL or a server that is down ends here with one line and nothing
 * half-created. Processes starting at once on one database (and one shared data dir) take
 * turns through a session lock: otherwise each would see no company, no keys and no
 * api-token yet, and make its own.
 */
async function openOnPostgres(target: PostgresTarget): Promise<{ service: Service; company: StoredCompany }> {
  const scrub = (err: unknown) => target.secrets.reduce((text, secret) => text.split(secret).join('***'), (err as Error)?.message ?? String(err));
  const { default: pg } = await import('pg');
  const lock = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 10_000 });
  // A server that goes away while we wait is reported by the query that waits, not as a crash.
  lock.on('error', () => undefined);
  try {
    await lock.connect();
  } catch (err) {
    console.error(`silodesk: cannot reach the database at ${target.where}: ${scrub(err)}`);
    process.exit(1);
  }
  let opened: Service | undefined;
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    console.error(`silodesk: records on PostgreSQL at ${target.where}`);
    opened = await openServiceCore(dataDir, { databaseUrl: target.url, log: (line) => console.error(line) });
    const company = await ensureDefaultCompany(opened.db);
    await ensureOwnerTokenFile(opened.db, company, join(dataDir, 'api-token'));
    return { service: opened, company };
  } catch (err) {
    // A refused migration, a data dir it may not write: whatever it is, one line, and the password never in it.
    console.error(`silodesk: cannot start on the database at ${target.where}: ${scrub(err)}`);
    await opened?.close().catch(() => undefined);
    process.exit(1);
  } finally {
    // Ending the session releases the lock too; unlocking first lets the next process go at once.
    await lock.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}
