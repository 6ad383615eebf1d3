import type { Db } from '../db/engine.ts';
import type { Caller } from './tokens.ts';

declare const companyKeyBrand: unique symbol;

/**
 * The key a company's rows are stored under: a short number, as text, that this
 * install gives each company, in every `company_id` column. The company's public id,
 * a UUID, shows only at the edges: the API, a caller's company, sync, the audit
 * chain's content and the search index's company token. Thirty-six characters leading
 * every index and sitting in every row cost about 900 bytes an entry (issue 13).
 *
 * The brand makes the compiler refuse a public id, or any other text, where a key
 * belongs: a key comes from a row, a caller, or the functions below.
 */
export type CompanyKey = string & { readonly [companyKeyBrand]: true };

/**
 * Text that is no company key: what takes a company's public id (the search index's
 * token, the audit chain's content, the feed's cursor) is typed with it, so a key passed
 * there by mistake does not compile.
 */
export type NotACompanyKey = string & { readonly [companyKeyBrand]?: never };

/** A key read from a column the type system cannot see (raw SQL, a trigger's row). */
export const asCompanyKey = (stored: string): CompanyKey => stored as CompanyKey;

interface Known {
  idByKey: Map<string, string>;
  keyById: Map<string, CompanyKey>;
  /** keys given by a transaction that may still roll back (newCompanyKey) */
  unsettled: Set<string>;
}

// Neither a key nor a public id ever changes once given, so what was read once holds
// for good; on PostgreSQL another process may add a company, which a miss reads.
const known = new WeakMap<Db, Known>();

function knownOf(db: Db): Known {
  let k = known.get(db);
  if (!k) known.set(db, (k = { idByKey: new Map(), keyById: new Map(), unsettled: new Set() }));
  return k;
}

/**
 * A key just given to a company, in a transaction that may yet roll back: a rolled-back
 * key is given again to the next company, so what its transaction read of it is not
 * kept. It is remembered once read outside every transaction (what is read there was
 * committed). Only the transaction that made the row can read it before it commits,
 * and it runs here, so no other reader needs telling.
 */
export function newCompanyKey(db: Db, key: CompanyKey): void {
  knownOf(db).unsettled.add(key);
}

/** That `key` stores the company with public id `id`, as a read of both found (a key still unsettled only outside every transaction). */
export function rememberCompany(db: Db, key: CompanyKey, id: string): void {
  const k = knownOf(db);
  if (k.unsettled.has(key)) {
    if (db.origin !== undefined) return;
    k.unsettled.delete(key);
  }
  k.idByKey.set(key, id);
  k.keyById.set(id, key);
}

/** The public id (UUID) of the company stored under `key`. */
export async function companyIdOf(db: Db, key: CompanyKey): Promise<string> {
  const hit = knownOf(db).idByKey.get(key);
  if (hit !== undefined) return hit;
  const row = await db.sqlFirst<{ uuid: string }>('SELECT uuid FROM companies WHERE id = ?', [key]);
  if (!row) throw new Error(`no company is stored under key ${key}`);
  rememberCompany(db, key, row.uuid);
  return row.uuid;
}

/** The key of the company with public id `id`, or undefined when there is none. */
export async function companyKeyOf(db: Db, id: string): Promise<CompanyKey | undefined> {
  const hit = knownOf(db).keyById.get(id);
  if (hit !== undefined) return hit;
  const row = await db.sqlFirst<{ id: string }>('SELECT id FROM companies WHERE uuid = ?', [id]);
  if (!row) return undefined;
  const key = asCompanyKey(row.id);
  rememberCompany(db, key, id);
  return key;
}

/** The company's owner: whom the work the install does for a company by itself (jobs, sync, retention) acts as. */
export async function ownerOf(db: Db, key: CompanyKey): Promise<Caller> {
  return { companyKey: key, companyId: await companyIdOf(db, key), kind: 'owner' };
}

/** The owner of the company with public id `id` (a tool or test that knows a company from the API). */
export async function ownerOfCompany(db: Db, id: string): Promise<Caller> {
  const key = await companyKeyOf(db, id);
  if (key === undefined) throw new Error(`no company has the id ${id}`);
  return { companyKey: key, companyId: id, kind: 'owner' };
}
