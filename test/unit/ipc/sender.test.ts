import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../../src-main/ipc/sender.ts';

const APP = 'app://silodesk';
const DEV = 'http://localhost:5173';

describe('isTrustedSender', () => {
  it.each<[string | undefined, string, boolean]>([
    // the built app
    ['app://silodesk/index.html', APP, true],
    ['app://silodesk/', APP, true],
    ['app://silodesk/index.html#/entries?x=1', APP, true],
    ['app://SILODESK/index.html', APP, true],
    ['app://other/index.html', APP, false],
    ['app://silodesk.evil/index.html', APP, false],
    ['app://user:pw@silodesk/index.html', APP, false],
    ['file:///work/out/renderer/index.html', APP, false],
    ['http://evil.example/', APP, false],
    ['https://silodesk/', APP, false],
    ['about:blank', APP, false],
    ['data:text/html,<script>1</script>', APP, false],
    ['', APP, false],
    [undefined, APP, false],
    ['not a url', APP, false],
    // development: the electron-vite dev server
    ['http://localhost:5173/', DEV, true],
    ['http://localhost:5173/src/main.tsx', DEV, true],
    ['http://localhost:5174/', DEV, false],
    ['https://localhost:5173/', DEV, false],
    ['http://localhost:5173.evil.example/', DEV, false],
    ['http://evil.example/', DEV, false],
    ['app://silodesk/index.html', DEV, false],
    // an app origin that is not ours to trust is refused whatever the frame says
    ['http://evil.example/', 'http://evil.example', false],
    ['file:///index.html', 'file:///', false],
    ['about:blank', 'about:blank', false],
    ['app://silodesk/index.html', '', false],
  ])('%s from %s → %s', (frameUrl, appOrigin, expected) => {
    expect(isTrustedSender(frameUrl, appOrigin)).toBe(expected);
  });
});
