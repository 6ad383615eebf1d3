import type { Db, Dialect } from '../db/engine.ts';
import type { ChangeRow } from './change-rows.ts';
import type { Direction } from './parked.ts';
import type { CompanyKey } from '../access/company-key.ts';

/**
 * Trusted signers (kind `trusted_jwks`) verify the signed documents sync carries,
 * and a signer often changes after the documents it signed (a key added when it
 * rotates), so in the log it comes after them. Sync therefore pushes signers before
 * anything else, and when signers arrive (pulled) or are taken (pushed), documents
 * refused for their signatures are tried again at once instead of waiting, parked,
 * for someone to press retry.
 */
export async function pendingSigners(db: Db, companyKey: CompanyKey): Promise<ChangeRow[]> {
  return await db.sql<ChangeRow>(pendingSignersSql(db.dialect), [companyKey]);
}

/**
 * By kind (a few rows), never along the outbox's index, which SQLite chose and then walked
 * every pending change for the signers among them: 99 ms at a million (PostgreSQL has
 * statistics on kind, and no INDEXED BY).
 */
export function pendingSignersSql(dialect: Dialect): string {
  const from = dialect === 'postgres' ? 'sync_changes c' : 'sync_changes c INDEXED BY sync_changes_record';
  return `SELECT c.* FROM ${from}
     WHERE c.company_id = ? AND c.kind = 'trusted_jwks'
       AND c.origin = 'local' AND (c.synced_version IS NULL OR c.version > c.synced_version)
       AND NOT EXISTS (SELECT 1 FROM sync_parked p WHERE p.company_id = c.company_id AND p.direction = 'push'
                       AND p.kind = c.kind AND p.record_id = c.record_id AND p.version = c.version)
     ORDER BY c.seq`;
}

/**
 * Entries parked for a signature no key verified (`$.record.data.sigs…`) go again:
 * a refused push back into the outbox, a refused pull fetched again. Answers how many.
 */
export async function retrySignatureRefusals(db: Db, companyKey: CompanyKey, direction: Direction): Promise<number> {
  const which = `company_id = ? AND direction = ? AND kind = 'entry' AND error LIKE '%"$.record.data.sigs%'`;
  const statement = direction === 'push' ? `DELETE FROM sync_parked WHERE ${which}` : `UPDATE sync_parked SET retry = 1 WHERE ${which}`;
  return (await db.sqlRun(statement, [companyKey, direction])).changes;
}
