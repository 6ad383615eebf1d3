import { describe, expect, it } from 'vitest';
import { projectDirOf, webRootOf } from '../../src-main/http/web-root.ts';

/** A file system holding only `paths`. */
const holding = (...paths: string[]) => (path: string) => paths.includes(path);

describe('webRootOf', () => {
  it('finds the project and its out/web from the sources and from the service build alike', () => {
    const exists = holding('/repo/package.json', '/repo/out/web');
    expect(webRootOf('/repo/src-main/http', exists)).toBe('/repo/out/web');
    expect(webRootOf('/repo/out/serve', exists)).toBe('/repo/out/web');
  });

  it('takes the nearest package.json, not one further up', () => {
    const exists = holding('/home/me/package.json', '/home/me/silodesk/package.json', '/home/me/out/web');
    expect(projectDirOf('/home/me/silodesk/out/serve', exists)).toBe('/home/me/silodesk');
    expect(webRootOf('/home/me/silodesk/out/serve', exists)).toBeUndefined();
  });

  it('answers nothing without a web UI build or outside any project', () => {
    expect(webRootOf('/repo/out/serve', holding('/repo/package.json'))).toBeUndefined();
    expect(projectDirOf('/tmp/somewhere', holding())).toBeUndefined();
  });
});
