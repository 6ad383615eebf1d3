import { describe, expect, it } from 'vitest';
import type { BuildFs } from '../../../scripts/build-freshness.ts';
import { webBuildStatus } from '../../../scripts/web-build.ts';
import { BUILT, fakeProject, ROOT } from './fake-build-fs.ts';

/** A project whose files have the given modification times, with a web UI build made from `recorded`. */
const project = (files: Record<string, number>, recorded: string[] | null = ['src-renderer/src/main.tsx', 'src-main/core/api/contract/index.ts']): BuildFs =>
  fakeProject(files, { outDir: 'out/web', entry: 'index.html', recorded });

const sources = {
  'src-renderer': 500,
  'src-renderer/index.html': 500,
  'src-renderer/src/main.tsx': 500,
  'src-main/core/api/contract/index.ts': 500,
  'vite.web.config.ts': 500,
  'package-lock.json': 500,
};

describe('webBuildStatus', () => {
  it('builds when there is no build yet', () => {
    expect(webBuildStatus(ROOT, project(sources, null))).toEqual({ current: false, reason: 'there is no web UI build yet' });
  });

  it('reuses a build newer than all its inputs', () => {
    expect(webBuildStatus(ROOT, project(sources)).current).toBe(true);
  });

  it.each([
    ['src-renderer/src/main.tsx'],
    ['src-renderer/index.html'],
    ['vite.web.config.ts'],
    ['package-lock.json'],
    // not under src-renderer, but the bundle was made from it
    ['src-main/core/api/contract/index.ts'],
  ])('rebuilds when %s changed since', (path) => {
    expect(webBuildStatus(ROOT, project({ ...sources, [path]: BUILT + 5 }))).toEqual({ current: false, reason: `${path} changed since the last build` });
  });

  it('rebuilds when a file appeared in src-renderer, or one the build used is gone', () => {
    expect(webBuildStatus(ROOT, project({ ...sources, 'src-renderer/src/new.tsx': BUILT + 5 })).current).toBe(false);
    const { ['src-main/core/api/contract/index.ts']: _gone, ...rest } = sources;
    expect(webBuildStatus(ROOT, project(rest))).toEqual({ current: false, reason: 'src-main/core/api/contract/index.ts is gone' });
  });

  it('ignores changes to project files the bundle does not use', () => {
    expect(webBuildStatus(ROOT, project({ ...sources, 'src-main/core/db/store.ts': BUILT + 5 })).current).toBe(true);
  });
});
