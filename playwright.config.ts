import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { findChromium, hostBrowserContext } from './scripts/browser.ts';
import { e2ePort, PLAYWRIGHT_OUTPUT_DIR } from './test/e2e/paths.ts';

/**
 * End-to-end tests drive a Chromium (Playwright's own, a system Chromium or Chrome, or
 * PLAYWRIGHT_CHROMIUM; see scripts/browser.ts) against a real `serve` on a fresh data dir,
 * on a free port picked once per run (the workers inherit it: SILODESK_E2E_PORT), so two
 * runs can share a machine. Everything they write goes under test-results/.
 */
const port = e2ePort();
const browser = findChromium(hostBrowserContext());
if (!browser.found) {
  // `npm test` runs scripts/ensure-browser.ts first (which may install one); this is for a bare `playwright test`.
  console.error(browser.message);
  process.exit(1);
}

// serve runs TypeScript directly: on the project's Node 24 (the `node` devDependency), also
// when this runs as a bare `node_modules/.bin/playwright test` on an older system Node.
const projectNode = resolve('node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
const node = existsSync(projectNode) ? projectNode : process.execPath;

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: PLAYWRIGHT_OUTPUT_DIR,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: browser.path,
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `"${node}" test/e2e/serve-fresh.ts ${port}`,
    url: `http://127.0.0.1:${port}/utils/v1/ping`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    // SIGTERM lets serve close its database and serve-fresh remove the run's data dir.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
