// `npm run serve`: remakes what is stale of the web UI (web-build.ts) and of the service build
// (service-build.ts), then runs the built service (out/serve/serve.js) in this process with the
// same arguments. `--rebuild` remakes both. Without the bundler (an install without
// devDependencies) it runs the sources instead, as the tests do.
import { enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';

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
  const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
  if (!missing) {
    console.error(`silodesk: ${(error as Error).message}`);
    process.exit(1);
  }
  console.error('silodesk: the bundler is not installed (`npm install` brings it); running the sources');
  entry = new URL('../src-main/serve.ts', import.meta.url).pathname;
}
process.argv[1] = entry;
await import(pathToFileURL(entry).href);
