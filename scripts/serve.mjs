// `npm run serve`: remakes what is stale of the web UI (web-build.ts) and of the service build
// (service-build.ts), then runs the built service (out/serve/serve.js) in this process with the
// same arguments. `--rebuild` remakes both. Without the bundler (an install without
// devDependencies) it runs the sources instead, as the tests do.
//
// Plain JavaScript, unlike the rest: Node strips the types of a .ts entry before any line of it
// can switch the compile cache on, and setting up the stripper took about 40 ms of every start.
// The TypeScript modules below load after, from the cache.
import { enableCompileCache } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// On before anything else loads, as in src-main/serve.ts: a later start compiles nothing again.
enableCompileCache();
const [{ ensureServiceBuild, serviceEntry }, { ensureWebBuild, PROJECT_ROOT }] = await Promise.all([import('./service-build.ts'), import('./web-build.ts')]);

const rebuild = process.argv.includes('--rebuild');
// serve's own options are the rest (http/serve-command.ts reads them from process.argv).
process.argv = process.argv.filter((arg, i) => i < 2 || arg !== '--rebuild');

let entry = serviceEntry(PROJECT_ROOT);
try {
  ensureWebBuild({ rebuild });
  await ensureServiceBuild({ rebuild });
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') {
    console.error(`silodesk: ${error?.message ?? error}`);
    process.exit(1);
  }
  console.error('silodesk: the bundler is not installed (`npm install` brings it); running the sources');
  entry = fileURLToPath(new URL('../src-main/serve.ts', import.meta.url));
}
process.argv[1] = entry;
await import(pathToFileURL(entry).href);
