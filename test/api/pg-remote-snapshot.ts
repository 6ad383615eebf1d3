import { join } from 'node:path';
import { asCompanyKey, type CompanyKey } from '../../src-main/core/access/company-key.ts';
import type { Db } from '../../src-main/core/db/engine.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { BlobStore } from '../../src-main/core/files/blob-store.ts';
import { snapshot, type Instance } from './sync-helpers.ts';

/** Every entry, whichever folder (conflict copies too: they sync like any entry), in a fixed order. */
const ENTRIES_SQL = 'SELECT id, key, folder, state, tags, digest_val FROM entries WHERE company_id = ?';

async function allEntries(db: Db, companyKey: CompanyKey): Promise<Array<Record<string, unknown>>> {
  // Sorted here: the engines' collations need not agree on text.
  return (await db.sql(ENTRIES_SQL, [companyKey])).sort((x, y) => (String(x.id) < String(y.id) ? -1 : 1));
}

/** A laptop's records, as remoteSnapshot gives the remote's. */
export async function laptopSnapshot(t: Instance) {
  return { ...(await snapshot(t)), allEntries: await allEntries(t.service.db, t.companyKey) };
}

/**
 * The records of the remote that `serve` processes keep on PostgreSQL (and in the shared
 * data dir's files/), read by sync-helpers.ts `snapshot` itself, so a laptop's and the
 * remote's compare with toEqual.
 */
export async function remoteSnapshot(databaseUrl: string, dataDir: string) {
  const db = pgDb(databaseUrl, { max: 2 });
  try {
    const companies = await db.sql<{ id: string; uuid: string }>('SELECT id, uuid FROM companies ORDER BY id');
    if (companies.length !== 1) throw new Error(`the remote holds ${companies.length} companies, not its one default company`);
    const companyKey = asCompanyKey(companies[0].id);
    const companyId = companies[0].uuid;
    // Only what snapshot reads: the database, the blob store and the company.
    const remote = { service: { db, blobs: new BlobStore(join(dataDir, 'files')) }, companyKey, companyId } as unknown as Instance;
    return { ...(await snapshot(remote)), allEntries: await allEntries(db, companyKey), companyId };
  } finally {
    await db.close();
  }
}
