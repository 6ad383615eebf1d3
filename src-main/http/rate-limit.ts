/**
 * A token bucket per key (a token's id, or the client address for calls without
 * one): `burst` calls at once, refilled at `perSecond`. Pure and clock-injected,
 * so its behaviour is tested without waiting.
 */
export class RateLimiter {
  readonly #perSecond: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(opts: { perSecond: number; burst: number; now?: () => number }) {
    this.#perSecond = opts.perSecond;
    this.#burst = opts.burst;
    this.#now = opts.now ?? Date.now;
  }

  /** Takes one call from the key's bucket: 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, at: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#perSecond);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 10_000) this.#forgetFull(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.#perSecond);
  }

  /** Buckets that have refilled carry no information; drop them so memory stays bounded. */
  #forgetFull(now: number): void {
    for (const [key, b] of this.#buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.#perSecond >= this.#burst) this.#buckets.delete(key);
    }
  }
}

/** Addresses of this machine: a socket from one of them is a process of the same user's machine. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * The owner's own tools on this machine (a script, a spreadsheet, the accounting
 * software with the owner token, over loopback) are never throttled: they hold the
 * keys to everything anyway, and a batch job of theirs answered with 429 seven times
 * in ten is only slower, never safer. Other tokens, and calls from other machines,
 * keep their bucket; calls without a valid token keep theirs per address.
 */
export function isOwnersLocalTool(caller: { kind: string; tokenId?: string }, remoteAddress: string | undefined): boolean {
  return caller.kind === 'owner' && caller.tokenId !== undefined && isLoopbackAddress(remoteAddress);
}
