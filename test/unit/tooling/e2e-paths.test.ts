import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePortSync } from '../../../scripts/free-port.ts';
import { docsScreenshotTarget, e2eDataDir, e2ePort, FILES_DIR, PLAYWRIGHT_OUTPUT_DIR, SCREENS_DIR } from '../../e2e/paths.ts';

const listen = (port: number) =>
  new Promise<() => Promise<void>>((done, fail) => {
    const server = createServer().once('error', fail).listen(port, '127.0.0.1', () => done(() => new Promise((closed) => server.close(() => closed()))));
  });

describe('what an e2e run writes and where it listens', () => {
  it('writes only into git-ignored folders', () => {
    const outputs = [FILES_DIR, SCREENS_DIR, PLAYWRIGHT_OUTPUT_DIR, e2eDataDir('4321')];
    for (const dir of outputs) expect(relative(resolve('test-results'), dir)).not.toMatch(/^\.\./);
    // and test-results/ is ignored: by git itself in a clone, else by what .gitignore says
    const rel = outputs.map((dir) => relative(process.cwd(), `${dir}/x.png`));
    let ignored: string[];
    try {
      ignored = execFileSync('git', ['check-ignore', ...rel], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n');
    } catch (error) {
      if ((error as { status?: number }).status !== 128) throw error; // 1: some path is not ignored
      expect(readFileSync('.gitignore', 'utf8').split('\n').map((l) => l.trim())).toContain('test-results/');
      ignored = rel;
    }
    expect(ignored).toHaveLength(outputs.length);
  });

  it('leaves docs/ alone unless `npm run docs:screenshots` asks for it', () => {
    expect(docsScreenshotTarget('screenshot-entries.png', {})).toBeNull();
    expect(docsScreenshotTarget('screenshot-entries.png', { SILODESK_DOCS_SCREENSHOTS: '1' })).toBe(resolve('docs', 'screenshot-entries.png'));
  });

  it('picks a free port once per run, and the whole run shares it', async () => {
    const env: Record<string, string | undefined> = {};
    const port = e2ePort(env);
    expect(env.SILODESK_E2E_PORT).toBe(port);
    expect(e2ePort(env)).toBe(port);
    expect(e2eDataDir(port)).toContain(`e2e-data-${port}`);
    const close = await listen(Number(port)); // it really was free
    await close();
    expect(e2ePort({ SILODESK_E2E_PORT: '4555' })).toBe('4555');
  });

  it('never answers a port something listens on', async () => {
    const busy = freePortSync();
    const close = await listen(busy);
    try {
      for (let i = 0; i < 5; i++) expect(freePortSync()).not.toBe(busy);
    } finally {
      await close();
    }
  });
});
