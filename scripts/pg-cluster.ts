// A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temp folder,
// started on a free loopback port with fsync off, stopped and removed after. PostgreSQL
// refuses to run as root, so as root (CI) the cluster is made and run as `postgres`.
//
//   node scripts/pg-cluster.ts     starts one, prints its URL, stops on Ctrl-C
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export interface Cluster {
  url: string;
  stop(): void;
}

/** The folder of PostgreSQL's server programs (initdb, pg_ctl), or undefined when none is installed. */
export function postgresBinDir(): string | undefined {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && existsSync(join(fromConfig.stdout.trim(), 'initdb'))) return fromConfig.stdout.trim();
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return undefined;
  const newest = readdirSync(debian).filter((v) => existsSync(join(debian, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(debian, newest, 'bin') : undefined;
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no initdb found); on Debian: apt-get install postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (program: string, args: string[]) => {
    const result = spawnSync(join(bin, program), args, { encoding: 'utf8', uid, cwd: dir });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'silodesk', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  return {
    url: `postgres://silodesk@127.0.0.1:${port}/postgres`,
    stop() {
      spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { uid, cwd: dir });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cluster = await startCluster();
  console.log(cluster.url);
  const stop = () => {
    cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => {}, 1 << 30);
}
