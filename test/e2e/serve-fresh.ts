import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { ensureServiceBuild, serviceEntry } from '../../scripts/service-build.ts';
import { PROJECT_ROOT } from '../../scripts/web-build.ts';
import { SERVICE_V8_FLAGS } from '../../src-main/service-process/heap.ts';
import { e2eDataDir, e2ePort } from './paths.ts';

/**
 * Starts `serve` on an emptied data dir for one e2e run, on the run's own port (picked
 * free by playwright.config.ts), and removes that dir when Playwright stops it. The tests
 * read the owner token from that dir. It runs the service build (out/serve), as `npm run
 * serve` does, so the browser tests drive the bundled service users run: made anew here
 * when stale (`npm run test:e2e` has made the web UI's build current before).
 */
const port = process.argv[2] ?? e2ePort();
const dataDir = e2eDataDir(port);
rmSync(dataDir, { recursive: true, force: true });
await ensureServiceBuild();
const child = spawn(process.execPath, [...SERVICE_V8_FLAGS, serviceEntry(PROJECT_ROOT), '--data', dataDir, '--port', port, '--quiet'], {
  stdio: 'inherit',
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
