// A TCP port nobody listens on right now: port 0 on 127.0.0.1 is bound and the port the
// OS gave is handed back. Lets two test runs, or a test run and `npm run serve`, coexist.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The same, synchronously (Playwright reads its config synchronously): a child process does the probing. */
const PROBE =
  "const s=require('node:net').createServer();" +
  "s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();});";

export function freePortSync(): number {
  const probe = spawnSync(process.execPath, ['-e', PROBE], { encoding: 'utf8', timeout: 10_000 });
  const port = Number(probe.stdout);
  if (probe.status !== 0 || !Number.isInteger(port) || port <= 0) {
    throw new Error(`could not find a free TCP port: ${probe.stderr || probe.error?.message || 'no answer'}`);
  }
  return port;
}
