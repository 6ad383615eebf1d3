import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../sha256.ts';
import { ApiError } from '../api/errors.ts';
import type { Service } from '../service.ts';
import { createToken } from './tokens.ts';
import type { StoredCompany } from './companies.ts';

const TTL_MS = 10 * 60_000;
const codes = new WeakMap<Service, Map<string, { company: StoredCompany; expires: number }>>();

/**
 * A one-time login code for the browser UI: `serve` prints a URL with it instead
 * of the API token, so the secret that stays valid never reaches a terminal or a
 * log. The code works once, for ten minutes, and is kept only in memory.
 */
export function issueLoginCode(service: Service, company: StoredCompany): string {
  const code = randomBytes(18).toString('base64url');
  const map = codes.get(service) ?? new Map();
  codes.set(service, map);
  map.set(sha256Hex(code), { company, expires: Date.now() + TTL_MS });
  return code;
}

export async function exchangeLoginCode(service: Service, code: string): Promise<{ token: string; company_id: string }> {
  const map = codes.get(service);
  const key = sha256Hex(code);
  const found = map?.get(key);
  map?.delete(key);
  if (!found || found.expires < Date.now()) {
    throw new ApiError('unauthorized', 'the login code is not valid (it works once, for ten minutes); restart serve for a new one');
  }
  const { secret } = await createToken(service.db, found.company.key, 'user', `browser session ${new Date().toISOString().slice(0, 16)}`);
  return { token: secret, company_id: found.company.id };
}
