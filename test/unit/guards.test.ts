import { describe, expect, it } from 'vitest';
import { localOrigins, refusalReason } from '../../src-main/http/guards.ts';

const allowed = localOrigins(4100);

describe('Host and Origin guard', () => {
  it.each([
    ['127.0.0.1:4100', undefined],
    ['localhost:4100', undefined],
    ['LOCALHOST:4100', undefined],
    ['[::1]:4100', undefined],
    ['127.0.0.1:4100', 'http://127.0.0.1:4100'],
    ['localhost:4100', 'http://localhost:4100'],
  ])('answers Host %s with Origin %s', (host, origin) => {
    expect(refusalReason(allowed, host, origin)).toBeUndefined();
  });

  it.each([
    [undefined, undefined, 'no Host'],
    ['evil.example:4100', undefined, 'rebinding'],
    ['127.0.0.1', undefined, 'no port'],
    ['127.0.0.1:4101', undefined, 'other port'],
    ['127.0.0.1.evil.example:4100', undefined, 'suffix trick'],
    ['127.0.0.1:4100', 'https://evil.example', 'foreign origin'],
    ['127.0.0.1:4100', 'null', 'opaque origin'],
    ['127.0.0.1:4100', 'http://127.0.0.1:4101', 'other port origin'],
    ['127.0.0.1:4100', 'https://127.0.0.1:4100', 'other scheme'],
  ] as Array<[string | undefined, string | undefined, string]>)('refuses Host %s with Origin %s (%s)', (host, origin) => {
    expect(refusalReason(allowed, host, origin)).toBeTypeOf('string');
  });

  it('also answers the host it was explicitly bound to', () => {
    const lan = localOrigins(4100, '192.168.1.20');
    expect(refusalReason(lan, '192.168.1.20:4100', 'http://192.168.1.20:4100')).toBeUndefined();
    expect(refusalReason(lan, 'evil.example:4100', undefined)).toBeTypeOf('string');
  });
});
