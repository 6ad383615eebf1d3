// Which Chromium the end-to-end tests drive. Pure: the file system, environment and
// Playwright's own browser path are passed in, so test/unit/tooling/browser.test.ts
// can try every platform. Used by playwright.config.ts and scripts/ensure-browser.ts.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** Variables that name a browser executable, strongest first (CHROMIUM_PATH: the name this project used before). */
export const BROWSER_ENV = ['PLAYWRIGHT_CHROMIUM', 'CHROME_PATH', 'CHROMIUM_PATH'] as const;

export type BrowserContext = {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
  exists: (path: string) => boolean;
  /** Where Playwright's own Chromium (`playwright install chromium`) is or would be; undefined when unknown. */
  playwrightChromium: () => string | undefined;
};

export type BrowserFound = { found: true; path: string; source: string };
export type BrowserMissing = {
  found: false;
  /** One line saying what to install or set. */
  message: string;
  /** false when an env variable names a missing file: installing another browser would not help. */
  installable: boolean;
};

/** The usual places of a system Chromium or Chrome, in the order they are tried. */
export function systemBrowserPaths(ctx: Pick<BrowserContext, 'platform' | 'env' | 'home'>): string[] {
  const { platform, env, home } = ctx;
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES ?? 'C:\\Program Files', env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)'];
    const paths: string[] = [];
    for (const root of roots) {
      if (!root) continue;
      paths.push(win32.join(root, 'Chromium', 'Application', 'chrome.exe'));
      paths.push(win32.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'));
    }
    return paths;
  }
  if (platform === 'darwin') {
    const apps = ['/Applications', posix.join(home, 'Applications')];
    return apps.flatMap((dir) => [
      posix.join(dir, 'Chromium.app/Contents/MacOS/Chromium'),
      posix.join(dir, 'Google Chrome.app/Contents/MacOS/Google Chrome'),
    ]);
  }
  // Linux and the other Unixes: the usual places, then the same names anywhere on PATH.
  const names = ['chromium', 'google-chrome-stable', 'google-chrome', 'chromium-browser'];
  const fixed = ['/usr/bin', '/usr/local/bin', '/snap/bin'].flatMap((dir) => names.map((name) => posix.join(dir, name)));
  fixed.push('/opt/google/chrome/chrome');
  const onPath = (env.PATH ?? '')
    .split(':')
    .filter((dir) => dir.startsWith('/'))
    .flatMap((dir) => names.map((name) => posix.join(dir, name)));
  return [...new Set([...fixed, ...onPath])];
}

/** What to install, for this platform, in a few words. */
export function installHint(ctx: Pick<BrowserContext, 'platform' | 'exists'>): string {
  switch (ctx.platform) {
    case 'linux':
      if (ctx.exists('/usr/bin/apt-get')) return 'sudo apt-get install chromium';
      if (ctx.exists('/usr/bin/dnf')) return 'sudo dnf install chromium';
      if (ctx.exists('/usr/bin/pacman')) return 'sudo pacman -S chromium';
      return 'install Chromium or Google Chrome with your package manager';
    case 'darwin':
      return 'brew install --cask chromium (or install Google Chrome)';
    case 'win32':
      return 'install Google Chrome';
    default:
      return 'install Chromium or Google Chrome';
  }
}

/**
 * The browser for the e2e tests: a path named by PLAYWRIGHT_CHROMIUM / CHROME_PATH /
 * CHROMIUM_PATH, else Playwright's own Chromium when installed, else a system Chromium
 * or Chrome at the usual paths.
 */
export function findChromium(ctx: BrowserContext): BrowserFound | BrowserMissing {
  for (const name of BROWSER_ENV) {
    const value = ctx.env[name]?.trim();
    if (!value) continue;
    if (ctx.exists(value)) return { found: true, path: value, source: name };
    return {
      found: false,
      installable: false,
      message: `e2e: ${name}=${value} does not exist; point it at a Chromium or Chrome executable, or unset it.`,
    };
  }
  const own = safely(ctx.playwrightChromium);
  if (own && ctx.exists(own)) return { found: true, path: own, source: "Playwright's Chromium" };
  for (const path of systemBrowserPaths(ctx)) {
    if (ctx.exists(path)) return { found: true, path, source: 'system' };
  }
  return {
    found: false,
    installable: true,
    message:
      `e2e: no Chromium or Chrome for the browser tests; install one (${installHint(ctx)}), ` +
      `or run \`npx playwright install chromium\` (needs internet), or set PLAYWRIGHT_CHROMIUM=/path/to/chrome.`,
  };
}

function safely(fn: () => string | undefined): string | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** This machine, as findChromium sees it. */
export function hostBrowserContext(): BrowserContext {
  return {
    platform: process.platform,
    env: process.env,
    home: homedir(),
    exists: (path) => existsSync(path),
    playwrightChromium: () => {
      const require = createRequire(import.meta.url);
      return (require('playwright-core') as { chromium: { executablePath(): string } }).chromium.executablePath();
    },
  };
}
