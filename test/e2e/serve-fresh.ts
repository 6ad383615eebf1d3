import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { e2eDataDir, e2ePort } from './paths.ts';

/**
 * Starts `serve` on an emptied data dir for one e2e run, on the run's own port (picked
 * free by playwright.config.ts), and removes that dir when Playwright stops it. The tests
 * read the owner token from that dir. `npm run test:e2e` builds the UI before this runs;
 * `serve` is started without --build-web, so it never rebuilds it.
 */
const port = process.argv[2] ?? e2ePort();
const dataDir = e2eDataDir(port);
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ['src-main/serve.ts', '--data', dataDir, '--port', port, '--quiet'], {
  stdio: 'inherit',
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
