// The headless service built into out/serve: src-main/serve.ts and everything it loads, with the
// libraries it uses, as a few ES modules, the way the desktop app runs its own service process
// (out/main/service.js). `npm run serve` runs this build, remade only when a file it was made from,
// GOBL's data or package-lock.json is newer (build-freshness.ts).
//   node scripts/service-build.ts [--rebuild]     builds when stale (or always)
//
// Why a build at all: from the TypeScript sources a start spends most of its time finding, reading
// and stripping some 700 modules (about 260 ms to listening on the 2-core machine); the bundle
// starts in about 110 ms (issue 13, cold start).
import { cpSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildStatus, discard, hostBuildFs, inputsRecord, pathsUnder, swapIn, type BuildFs, type BuildStatus } from './build-freshness.ts';
import { ENGINE_THREAD_ENTRY, ENGINE_THREAD_SOURCE, isServiceExternal } from './service-externals.ts';
import { PROJECT_ROOT } from './web-build.ts';

export const serviceOutDir = (root: string) => join(root, 'out', 'serve');
/** The built service's entry: `node out/serve/serve.js --data DIR --port N` is `serve`. */
export const serviceEntry = (root: string) => join(serviceOutDir(root), 'serve.js');

/** GOBL's published data, read at run time; the build carries a copy beside its modules (core/gobl/defs/data-dir.ts). */
const GOBL_DATA = 'src-main/core/gobl/data';

export function serviceBuildStatus(root: string, fs: BuildFs): BuildStatus {
  return buildStatus(root, fs, {
    label: 'service',
    outDir: serviceOutDir(root),
    entry: 'serve.js',
    always: ['package-lock.json', 'scripts/service-build.ts', 'scripts/service-externals.ts', ...pathsUnder(root, fs, GOBL_DATA)],
  });
}

/**
 * Builds the service when it is stale (or when `rebuild`), into a fresh folder that then replaces
 * out/serve. Answers whether it built; throws when the build fails.
 */
export async function ensureServiceBuild(options: { root?: string; rebuild?: boolean; log?: (line: string) => void } = {}): Promise<boolean> {
  const root = options.root ?? PROJECT_ROOT;
  const log = options.log ?? ((line) => console.error(line));
  const status = serviceBuildStatus(root, hostBuildFs);
  if (status.current && !options.rebuild) return false;
  log(`silodesk: building the service (${options.rebuild ? '--rebuild' : status.reason})…`);
  // rolldown is Vite's bundler, a devDependency: loaded only when there is something to build.
  const { build } = await import('rolldown');
  const next = join(root, 'out', `serve-next-${process.pid}`);
  const startedAt = new Date();
  try {
    const output = await build({
      input: { serve: join(root, 'src-main/serve.ts'), [ENGINE_THREAD_ENTRY]: join(root, ENGINE_THREAD_SOURCE) },
      platform: 'node',
      external: isServiceExternal,
      logLevel: 'warn',
      output: { dir: next, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    });
    const inputs = output.output
      .flatMap((file) => (file.type === 'chunk' ? file.moduleIds : []))
      .filter((id) => !id.startsWith('\0') && !/[\\/]node_modules[\\/]/.test(id))
      .map((id) => relative(root, id).split('\\').join('/'))
      .filter((path) => path !== '' && !path.startsWith('..'));
    cpSync(join(root, GOBL_DATA), join(next, 'gobl-data'), { recursive: true });
    const record = inputsRecord(next);
    writeFileSync(record, JSON.stringify({ inputs: [...new Set(inputs)].sort() }, null, 1) + '\n');
    // Dated when the build started: a file saved while it ran counts as newer.
    utimesSync(record, startedAt, startedAt);
  } catch (error) {
    discard(next);
    throw new Error(`the service build failed: ${(error as Error).message}`);
  }
  swapIn(next, serviceOutDir(root), String(process.pid));
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    if (!(await ensureServiceBuild({ rebuild: process.argv.includes('--rebuild') }))) console.error('silodesk: the service build is current');
  } catch (error) {
    console.error(`silodesk: ${(error as Error).message}`);
    process.exit(1);
  }
}
