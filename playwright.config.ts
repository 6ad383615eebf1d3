import { defineConfig } from '@playwright/test';
import { E2E_PORT } from './test/e2e/paths.ts';

const PORT = Number(E2E_PORT);

/**
 * End-to-end tests drive Debian's Chromium (Playwright cannot download browsers
 * here) against a real `serve` on a fresh data dir.
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node test/e2e/serve-fresh.ts ${PORT}`,
    url: `http://127.0.0.1:${PORT}/utils/v1/ping`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
  },
});
