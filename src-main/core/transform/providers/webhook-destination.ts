/** Why a webhook URL is refused; each is final (KO), retrying cannot change it. */
export type DestinationRefusal = 'bad-url' | 'scheme-not-allowed' | 'credentials-not-allowed' | 'host-not-allowed';

export type DestinationCheck =
  | { ok: true; url: URL }
  | { ok: false; code: DestinationRefusal; reason: string };

const DEFAULT_PORT: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * Decides whether the webhook provider may call `raw`: http(s) only, no
 * credentials in the URL, and a host that is loopback (127.0.0.0/8, [::1],
 * localhost) or listed in `allowedHosts` as `host` (any port) or `host:port`.
 *
 * The decision is made on the WHATWG parse of the URL, the same parse fetch
 * connects with, so spellings like `http://2130706433/`, `0x7f.1` or `127.1` are
 * judged by the address they really name (127.0.0.1), and `127.0.0.1@evil.com` or
 * `127.0.0.1.nip.io` by their real host. Callers must request the returned `url`.
 * Names are compared as written, not resolved: a listed host is trusted by the
 * deployment, and loopback by name means only `localhost` itself.
 */
export function checkWebhookDestination(raw: string, allowedHosts: readonly string[]): DestinationCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'bad-url', reason: 'the URL does not parse' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, code: 'scheme-not-allowed', reason: `only http and https are allowed, not ${url.protocol}` };
  }
  const port = url.port || DEFAULT_PORT[url.protocol];
  const allowed = isLoopback(url.hostname) || allowedHosts.some((entry) => {
    const rule = parseAllowedHost(entry);
    return rule !== undefined && rule.hostname === url.hostname && (rule.port === undefined || rule.port === port);
  });
  if (!allowed) {
    return { ok: false, code: 'host-not-allowed', reason: `${url.host} is neither loopback nor an allowed webhook host` };
  }
  // fetch refuses them anyway; saying why here is clearer than its error.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, code: 'credentials-not-allowed', reason: 'the URL must not carry a user name or password' };
  }
  return { ok: true, url };
}

// WHATWG has already turned every IPv4 spelling into dotted decimal and
// compressed IPv6, so exact text checks are enough here.
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * "erp.example.com:8443" → { hostname, port: '8443' }; "erp.example.com" → any port.
 * Entries go through the same parser as URLs so "ERP.example.com" or "[0::1]"
 * compare equal to what a URL normalises to. Malformed entries match nothing.
 */
function parseAllowedHost(entry: string): { hostname: string; port?: string } | undefined {
  const text = entry.trim();
  if (text === '' || /[/?#@\\\s]/.test(text)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  // URL drops a port equal to the scheme default, so read an explicit one from the text.
  const explicit = /:(\d{1,5})$/.exec(text);
  const bracketless = text.includes(':') && !text.startsWith('[') && text.indexOf(':') !== text.lastIndexOf(':');
  if (bracketless) return undefined;
  return { hostname: parsed.hostname, port: explicit ? String(Number(explicit[1])) : undefined };
}
