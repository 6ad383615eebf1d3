import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Db } from '../db/engine.ts';
import { nowIso } from '../clock.ts';
import { notFound } from '../api/errors.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { newCompanyKey, type CompanyKey } from './company-key.ts';

/** A company as the API shows it: `id` is its public id. */
export interface Company {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** A company with the key its rows are stored under (company-key.ts), which never leaves the install. */
export interface StoredCompany extends Company {
  key: CompanyKey;
}

export const companyView = ({ id, name, created_at, updated_at }: Company): Company => ({ id, name, created_at, updated_at });

const COLUMNS = 'id AS key, uuid AS id, name, created_at, updated_at';

// Keys are numbers given in turn; two makers at once (PostgreSQL) collide on the primary key, and the later
// transaction is tried again whole (pg-db.ts retries a unique violation), finding the next.
const INSERT = `INSERT INTO companies (id, uuid, name, created_at, updated_at)
  SELECT CAST(coalesce(max(CAST(id AS INTEGER)), 0) + 1 AS TEXT), ?, ?, ?, ? FROM companies
  RETURNING ${COLUMNS}`;

export async function createCompany(db: Db, name: string): Promise<StoredCompany> {
  const at = nowIso();
  const row = (await db.tx(() => db.sqlFirst<StoredCompany>(INSERT, [uuidv7(), name, at, at]), { origin: LOCAL }))!;
  newCompanyKey(db, row.key);
  return row;
}

export function listCompanies(db: Db): Promise<StoredCompany[]> {
  return db.sql<StoredCompany>(`SELECT ${COLUMNS} FROM companies ORDER BY created_at, id`);
}

export async function renameCompany(db: Db, id: string, name: string): Promise<Company> {
  const { changes } = await db.sqlRun('UPDATE companies SET name = ?, updated_at = ? WHERE uuid = ?', [name, nowIso(), id]);
  if (changes === 0) throw notFound(`company ${id}`);
  return companyView(await requireCompany(db, id));
}

/** The company with public id `id`; a 404 when there is none. */
export async function requireCompany(db: Db, id: string): Promise<StoredCompany> {
  const row = await db.sqlFirst<StoredCompany>(`SELECT ${COLUMNS} FROM companies WHERE uuid = ?`, [id]);
  if (!row) throw notFound(`company ${id}`);
  return row;
}
