import { existsSync, writeFileSync, chmodSync } from 'node:fs';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { createCompany, listCompanies, type StoredCompany } from './companies.ts';
import { createToken, forgetResolvedTokens, installTokenId, setInstallTokenId } from './tokens.ts';
import { LOCAL } from '../db/write-scopes.ts';

const FILE_TOKEN_NAME = 'owner (api-token file)';
const DEFAULT_COMPANY_LOCK_PG = "SELECT pg_advisory_xact_lock(hashtextextended('silodesk default company', 0))";

/** The company a fresh install works in until the accountant adds their clients. */
export function ensureDefaultCompany(db: Db): Promise<StoredCompany> {
  return db.tx(async () => {
    // Two services opening one PostgreSQL database at once would each find none and make one: they take turns.
    if (db.dialect === 'postgres') await db.sql(DEFAULT_COMPANY_LOCK_PG);
    return (await listCompanies(db))[0] ?? (await createCompany(db, 'My company'));
  }, { origin: LOCAL });
}

/**
 * Makes sure the data dir holds an owner token for the default company in
 * `api-token` (mode 0600). A new token is minted only when the file is missing,
 * so deleting the file is how a user recovers access (a leaked token is replaced
 * this way too): the token the file held before is revoked in the same step, so
 * only the new one works. The secret is never printed.
 */
export async function ensureOwnerTokenFile(db: Db, company: StoredCompany, file: string): Promise<{ created: boolean }> {
  if (existsSync(file)) {
    // An install from before the file's token was remembered: remember it now (the newest of its kind).
    if (!(await installTokenId(db))) {
      const newest = await db.first(
        db.q.selectFrom('tokens').select('id').where('name', '=', FILE_TOKEN_NAME).where('revoked_at', 'is', null).orderBy('created_at', 'desc'),
      );
      if (newest) await setInstallTokenId(db, newest.id);
    }
    return { created: false };
  }
  const { id, secret } = await db.tx(async () => {
    const previous = await installTokenId(db);
    // Older installs did not remember the id: every token minted for the file goes.
    let revoke = db.q.updateTable('tokens').set({ revoked_at: nowIso() }).where('revoked_at', 'is', null);
    revoke = previous ? revoke.where('id', '=', previous) : revoke.where('name', '=', FILE_TOKEN_NAME);
    await db.run(revoke);
    const minted = await createToken(db, company.key, 'owner', FILE_TOKEN_NAME);
    await setInstallTokenId(db, minted.id);
    return minted;
  }, { origin: LOCAL });
  forgetResolvedTokens(db);
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { created: Boolean(id) };
}
