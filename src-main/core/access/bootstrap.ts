import { existsSync, writeFileSync, chmodSync } from 'node:fs';
import type { Store } from '../db/store.ts';
import { createCompany, listCompanies, type Company } from './companies.ts';
import { createToken } from './tokens.ts';

/** The company a fresh install works in until the accountant adds their clients. */
export function ensureDefaultCompany(store: Store): Company {
  return store.tx(() => listCompanies(store)[0] ?? createCompany(store, 'My company'));
}

/**
 * Makes sure the data dir holds an owner token for the default company in
 * `api-token` (mode 0600). A new token is minted only when the file is missing,
 * so deleting the file is how a user recovers access; the secret is never printed.
 */
export function ensureOwnerTokenFile(store: Store, company: Company, file: string): { created: boolean } {
  if (existsSync(file)) return { created: false };
  const { secret } = createToken(store, company.id, 'owner', 'owner (api-token file)');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { created: true };
}
