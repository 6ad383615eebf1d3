import { describe, expect, it } from 'vitest';
import type { BuildFs } from '../../../scripts/build-freshness.ts';
import { serviceBuildStatus } from '../../../scripts/service-build.ts';
import { BUILT, fakeProject, ROOT } from './fake-build-fs.ts';

const RECORDED = ['src-main/serve.ts', 'src-main/http/serve-command.ts', 'src-main/core/service.ts'];

/** A project whose files have the given modification times, with a service build made from RECORDED (or none). */
const project = (files: Record<string, number>, built = true): BuildFs => fakeProject(files, { outDir: 'out/serve', entry: 'serve.js', recorded: built ? RECORDED : null });

const sources = {
  'src-main/serve.ts': 500,
  'src-main/http/serve-command.ts': 500,
  'src-main/core/service.ts': 500,
  'src-main/core/gobl/data': 500,
  'src-main/core/gobl/data/regimes/es.json': 500,
  'scripts/service-build.ts': 500,
  'package-lock.json': 500,
};

describe('serviceBuildStatus', () => {
  it('builds when there is no build yet', () => {
    expect(serviceBuildStatus(ROOT, project(sources, false))).toEqual({ current: false, reason: 'there is no service build yet' });
  });

  it('reuses a build newer than all it was made from', () => {
    expect(serviceBuildStatus(ROOT, project(sources))).toEqual({ current: true, reason: 'the service build is current' });
  });

  it.each([
    // a module the bundle holds
    ['src-main/http/serve-command.ts'],
    // GOBL's data, which the build copies rather than bundles
    ['src-main/core/gobl/data/regimes/es.json'],
    // the libraries bundled with it
    ['package-lock.json'],
    // how it is built
    ['scripts/service-build.ts'],
  ])('rebuilds when %s changed since', (path) => {
    expect(serviceBuildStatus(ROOT, project({ ...sources, [path]: BUILT + 5 }))).toEqual({ current: false, reason: `${path} changed since the last build` });
  });

  it('rebuilds when GOBL has new data, or a module the build used is gone', () => {
    expect(serviceBuildStatus(ROOT, project({ ...sources, 'src-main/core/gobl/data/regimes/pt.json': BUILT + 5 })).current).toBe(false);
    const { ['src-main/core/service.ts']: _gone, ...rest } = sources;
    expect(serviceBuildStatus(ROOT, project(rest))).toEqual({ current: false, reason: 'src-main/core/service.ts is gone' });
  });

  it('ignores changes to files the service does not load (the desktop shell, the renderer, tests)', () => {
    for (const path of ['src-main/index.ts', 'src-renderer/src/main.tsx', 'test/api/harness.ts']) {
      expect(serviceBuildStatus(ROOT, project({ ...sources, [path]: BUILT + 5 })).current).toBe(true);
    }
  });
});
