// Run before the browser tests (`npm test`, `npm run test:e2e`): finds a Chromium for
// Playwright (see browser.ts); when there is none, tries `playwright install chromium`;
// when that fails too, stops with one line saying what to install.
//   node scripts/ensure-browser.ts [--quiet] [--no-install]
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findChromium, hostBrowserContext } from './browser.ts';

const quiet = process.argv.includes('--quiet');
const mayInstall = !process.argv.includes('--no-install');

/** What `playwright install` prints when it fails: kept back, summed up in one line. */
const isErrorReport = (text: string) => /Failed to install|^\s*\w*Error\b|\n\s+at /m.test(text);

/** Runs `playwright install chromium`, showing its progress; answers its error line, or null when it worked. */
function installPlaywrightChromium(): Promise<string | null> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, 'install', 'chromium'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    const shown = new Set<string>(); // it retries a failed download, saying so each time
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (isErrorReport(chunk)) errors += chunk;
        else if (!shown.has(chunk)) process.stderr.write(chunk);
        shown.add(chunk);
      });
    }
    child.on('error', (err) => done(err.message));
    child.on('close', (status) => {
      if (status === 0) return done(null);
      const lines = errors.split('\n').map((line) => line.trim());
      // The innermost cause reads best ("getaddrinfo ENOTFOUND cdn.playwright.dev").
      const why = lines.find((line) => /^Error: (getaddrinfo|connect|read|self|unable|certificate)/i.test(line)) ?? lines.find((line) => /^\w*Error\b/.test(line));
      done(why?.replace(/^Error:\s*/, '') ?? `exit code ${status}`);
    });
  });
}

let result = findChromium(hostBrowserContext());
if (!result.found && result.installable && mayInstall) {
  console.error('e2e: no Chromium found; trying `playwright install chromium`…');
  const failure = await installPlaywrightChromium();
  if (failure === null) result = findChromium(hostBrowserContext());
  else console.error(`e2e: playwright install chromium failed: ${failure}`);
}
if (!result.found) {
  console.error(result.message);
  process.exit(1);
}
if (!quiet) console.log(`e2e: browser ${result.path} (${result.source})`);
