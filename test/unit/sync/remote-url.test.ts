import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { normalizeRemoteUrl } from '../../../src-main/core/sync/remote-url.ts';

describe('remote URL', () => {
  it('takes https anywhere and plain http only on this machine, without a trailing slash', () => {
    expect(normalizeRemoteUrl('https://silodesk.example.com/')).toBe('https://silodesk.example.com');
    expect(normalizeRemoteUrl(' https://proxy.example.com/silodesk// ')).toBe('https://proxy.example.com/silodesk');
    expect(normalizeRemoteUrl('http://127.0.0.1:4100')).toBe('http://127.0.0.1:4100');
    expect(normalizeRemoteUrl('http://localhost:4100/')).toBe('http://localhost:4100');
    expect(normalizeRemoteUrl('http://[::1]:4100')).toBe('http://[::1]:4100');
  });

  it('refuses anything else with a field error', () => {
    for (const bad of ['http://192.168.1.10:4100', 'http://example.com', 'ftp://example.com', 'file:///etc/passwd', 'https://a:b@example.com', 'https://example.com/?token=x', 'https://example.com/#x', 'example.com', '']) {
      let error: unknown;
      try {
        normalizeRemoteUrl(bad);
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ApiError);
      expect((error as ApiError).fields?.['$.remote_url'], bad).toBeTruthy();
    }
  });
});
