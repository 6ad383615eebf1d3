import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeFor, resolveAppPath } from '../../src-main/app-protocol.ts';

const ROOT = resolve('/srv/silodesk/out/renderer');
const inRoot = (...parts: string[]) => join(ROOT, ...parts);

describe('resolveAppPath', () => {
  it.each<[string, string | undefined]>([
    ['app://silodesk/index.html', inRoot('index.html')],
    ['app://silodesk/', inRoot('index.html')],
    ['app://silodesk', inRoot('index.html')],
    ['app://silodesk/assets/index-abc.js', inRoot('assets', 'index-abc.js')],
    ['app://silodesk/assets/', inRoot('assets', 'index.html')],
    ['app://silodesk/index.html?x=1#top', inRoot('index.html')],
    ['app://silodesk/index.html?file=../../etc/passwd', inRoot('index.html')],
    ['app://silodesk/assets/My%20Font.woff2', inRoot('assets', 'My Font.woff2')],
    // traversal, plain and encoded
    ['app://silodesk/../../etc/passwd', inRoot('etc', 'passwd')], // the URL parser already clamps at the root
    ['app://silodesk/assets/%2e%2e/%2e%2e/secret', inRoot('secret')],
    ['app://silodesk/%2e%2e%2f%2e%2e%2fetc/passwd', undefined],
    ['app://silodesk/assets%2f..%2f..%2fetc%2fpasswd', undefined],
    ['app://silodesk/..%5c..%5cwindows%5cwin.ini', undefined],
    ['app://silodesk/assets/%2E%2E', inRoot('index.html')],
    ['app://silodesk/%252e%252e/x', inRoot('%2e%2e', 'x')],
    // absolute paths and drive letters
    ['app://silodesk//etc/passwd', inRoot('etc', 'passwd')],
    ['app://silodesk/%2fetc%2fpasswd', undefined],
    ['app://silodesk/C:/Windows/win.ini', undefined],
    ['app://silodesk/C%3A%5CWindows', undefined],
    // control characters and broken encodings
    ['app://silodesk/index.html%00.png', undefined],
    ['app://silodesk/%E0%A4%A', undefined],
    // not ours
    ['app://other/index.html', undefined],
    ['file:///etc/passwd', undefined],
    ['http://silodesk/index.html', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, expected) => {
    expect(resolveAppPath(ROOT, url)).toBe(expected);
  });

  it('never answers a path outside the root, whatever the input', () => {
    const nasty = ['..', '%2e%2e', '%2E%2e', '.%2e', '%2e.', '..%2f', '%2f', '%5c', '//', '/..', '%00'];
    for (const a of nasty) {
      for (const b of nasty) {
        const file = resolveAppPath(ROOT, `app://silodesk/${a}/${b}/x`);
        if (file !== undefined) expect(file.startsWith(ROOT + sep)).toBe(true);
      }
    }
  });
});

describe('contentTypeFor', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['assets/a.JS', 'text/javascript; charset=utf-8'],
    ['assets/a.css', 'text/css; charset=utf-8'],
    ['logo.svg', 'image/svg+xml'],
    ['unknown.bin', 'application/octet-stream'],
    ['noextension', 'application/octet-stream'],
  ])('%s → %s', (file, type) => {
    expect(contentTypeFor(file)).toBe(type);
  });
});
