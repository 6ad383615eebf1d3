import { isIP } from 'node:net';
import { validationError } from '../api/errors.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname)) return true;
  return isIP(hostname) === 4 && hostname.startsWith('127.');
}

/**
 * The remote's base URL: http(s) only, no credentials, query or fragment. The
 * token travels in a header on every call, so plain http is allowed only to this
 * machine (tests, or a local tunnel); a remote elsewhere is reached over HTTPS,
 * through the reverse proxy that terminates TLS in front of its `serve`.
 */
export function normalizeRemoteUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw validationError('remote_url is not a URL', { '$.remote_url': 'must be an http(s) URL like https://silodesk.example.com' });
  }
  const bad = (why: string) => validationError(`remote_url ${why}`, { '$.remote_url': why });
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('must start with https:// (or http:// for this machine)');
  if (url.username || url.password) throw bad('must not carry a user name or password; the token goes in its own field');
  if (url.search || url.hash) throw bad('must not have a query or fragment');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) throw bad('must use https:// unless the remote runs on this machine');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
