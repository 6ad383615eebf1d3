import { describe, expect, it } from 'vitest';
import { findChromium, systemBrowserPaths, type BrowserContext } from '../../../scripts/browser.ts';

/** A machine where exactly `files` exist. */
function machine(over: Partial<BrowserContext> & { files?: string[] } = {}): BrowserContext {
  const files = new Set(over.files ?? []);
  return {
    platform: 'linux',
    env: {},
    home: '/home/ana',
    exists: (path) => files.has(path),
    playwrightChromium: () => '/home/ana/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome',
    ...over,
  };
}

describe('findChromium', () => {
  it('uses the executable an env variable names, before anything else', () => {
    const ctx = machine({ env: { PLAYWRIGHT_CHROMIUM: '/opt/my/chrome', CHROME_PATH: '/usr/bin/chromium' }, files: ['/opt/my/chrome', '/usr/bin/chromium'] });
    expect(findChromium(ctx)).toEqual({ found: true, path: '/opt/my/chrome', source: 'PLAYWRIGHT_CHROMIUM' });
    expect(findChromium(machine({ env: { CHROME_PATH: '/usr/bin/chromium' }, files: ['/usr/bin/chromium'] }))).toMatchObject({ source: 'CHROME_PATH' });
  });

  it('stops, without offering an install, when the named executable does not exist', () => {
    const result = findChromium(machine({ env: { CHROME_PATH: '/nowhere/chrome' }, files: ['/usr/bin/chromium'] }));
    expect(result).toMatchObject({ found: false, installable: false });
    expect(!result.found && result.message).toContain('CHROME_PATH=/nowhere/chrome does not exist');
  });

  it("prefers Playwright's own Chromium when it is installed", () => {
    const own = '/home/ana/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
    expect(findChromium(machine({ files: [own, '/usr/bin/chromium'] }))).toEqual({ found: true, path: own, source: "Playwright's Chromium" });
  });

  it("ignores Playwright's browser registry when it cannot answer", () => {
    const ctx = machine({ files: ['/usr/bin/chromium'], playwrightChromium: () => { throw new Error('no registry'); } });
    expect(findChromium(ctx)).toMatchObject({ found: true, path: '/usr/bin/chromium', source: 'system' });
  });

  it('finds a system Chromium or Chrome on Linux, also on PATH', () => {
    expect(findChromium(machine({ files: ['/usr/bin/chromium'] }))).toMatchObject({ path: '/usr/bin/chromium' });
    expect(findChromium(machine({ files: ['/usr/bin/google-chrome-stable'] }))).toMatchObject({ path: '/usr/bin/google-chrome-stable' });
    expect(findChromium(machine({ files: ['/opt/google/chrome/chrome'] }))).toMatchObject({ path: '/opt/google/chrome/chrome' });
    const nix = '/nix/store/abc-chromium/bin/chromium';
    expect(findChromium(machine({ env: { PATH: '/nix/store/abc-chromium/bin:/usr/bin' }, files: [nix] }))).toMatchObject({ path: nix });
  });

  it('finds Chrome or Chromium where macOS and Windows install them', () => {
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium(machine({ platform: 'darwin', files: [mac] }))).toMatchObject({ path: mac });
    const userMac = '/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(findChromium(machine({ platform: 'darwin', home: '/Users/ana', files: [userMac] }))).toMatchObject({ path: userMac });
    const win = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChromium(machine({ platform: 'win32', env: { PROGRAMFILES: 'C:\\Program Files' }, files: [win] }))).toMatchObject({ path: win });
    const local = 'C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    expect(systemBrowserPaths({ platform: 'win32', env: { LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, home: '' })).toContain(local);
  });

  it('says in one line what to install when there is no browser at all', () => {
    const debian = findChromium(machine({ files: ['/usr/bin/apt-get'] }));
    expect(debian).toMatchObject({ found: false, installable: true });
    const message = debian.found ? '' : debian.message;
    expect(message).toContain('apt-get install chromium');
    expect(message).toContain('PLAYWRIGHT_CHROMIUM');
    expect(message).not.toContain('\n');
    const mac = findChromium(machine({ platform: 'darwin' }));
    expect(!mac.found && mac.message).toContain('brew install --cask chromium');
  });
});
