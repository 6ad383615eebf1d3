import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { e2eDataDir } from './paths.ts';

/**
 * Starts `serve` on an emptied data dir for one e2e run; the tests read the owner
 * token from that dir. The UI is built by `npm run test:e2e` before this runs.
 */
const port = process.argv[2] ?? '4199';
const dataDir = e2eDataDir(port);
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ['src-main/serve.ts', '--data', dataDir, '--port', port, '--quiet'], {
  stdio: 'inherit',
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => process.exit(code ?? 0));
