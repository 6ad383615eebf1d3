import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePortSync } from '../../scripts/free-port.ts';

/**
 * Everything an e2e run writes goes under test-results/ (git-ignored); the README's
 * images in docs/ are refreshed only by `npm run docs:screenshots`.
 */
export const E2E_OUTPUT_DIR = resolve('test-results');
export const PLAYWRIGHT_OUTPUT_DIR = join(E2E_OUTPUT_DIR, 'playwright');
/** Where the tests write the files they import (real files, picked as a user would). */
export const FILES_DIR = join(E2E_OUTPUT_DIR, 'e2e-files');
export const SCREENS_DIR = join(E2E_OUTPUT_DIR, 'screens');

/** Set by `npm run docs:screenshots`: only then do tests copy screenshots into docs/. */
export const DOCS_SCREENSHOTS_ENV = 'SILODESK_DOCS_SCREENSHOTS';
export const docsScreenshotTarget = (docsName: string, env: Record<string, string | undefined> = process.env): string | null =>
  env[DOCS_SCREENSHOTS_ENV] === '1' ? resolve('docs', docsName) : null;

/**
 * The port of this run's `serve`: a free one, picked once by playwright.config.ts and
 * handed to the workers (and anything else it starts) through the environment.
 */
export const E2E_PORT_ENV = 'SILODESK_E2E_PORT';
export function e2ePort(env: Record<string, string | undefined> = process.env): string {
  env[E2E_PORT_ENV] ||= String(freePortSync());
  return env[E2E_PORT_ENV]!;
}

export const e2eDataDir = (port = e2ePort()) => join(E2E_OUTPUT_DIR, `e2e-data-${port}`);
export const e2eToken = (port = e2ePort()) => readFileSync(join(e2eDataDir(port), 'api-token'), 'utf8').trim();
