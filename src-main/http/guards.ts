/**
 * Which Host and Origin headers a local server answers. A browser page on another
 * site can reach 127.0.0.1 only through DNS rebinding (its own name resolving to
 * 127.0.0.1, so its Host is that name) or cross-origin requests (its Origin is that
 * site); refusing both keeps web pages out of the local API.
 */
export interface LocalOrigins {
  /** host[:port] values accepted in the Host header */
  hosts: Set<string>;
  /** scheme://host[:port] values accepted in the Origin header */
  origins: Set<string>;
}

export function localOrigins(port: number, extraHost?: string): LocalOrigins {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  if (extraHost && !names.includes(extraHost)) names.push(extraHost.includes(':') ? `[${extraHost}]` : extraHost);
  const hosts = new Set(names.map((n) => `${n}:${port}`.toLowerCase()));
  const origins = new Set(names.map((n) => `http://${n}:${port}`.toLowerCase()));
  return { hosts, origins };
}

/** Why a request must be refused, or undefined when its Host and Origin are local. */
export function refusalReason(allowed: LocalOrigins, host: string | undefined, origin: string | undefined): string | undefined {
  if (!host || !allowed.hosts.has(host.toLowerCase())) return 'Host header is not this local server';
  if (origin !== undefined && origin !== '' && !allowed.origins.has(origin.toLowerCase())) {
    return 'cross-origin requests are not allowed';
  }
  return undefined;
}
