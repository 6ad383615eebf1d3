import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Db } from '../db/engine.ts';
import { nowIso } from '../clock.ts';
import { notFound } from '../api/errors.ts';

export interface Company {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export async function createCompany(db: Db, name: string): Promise<Company> {
  const at = nowIso();
  const company = { id: uuidv7(), name, created_at: at, updated_at: at };
  await db.run(db.q.insertInto('companies').values(company));
  return company;
}

export function listCompanies(db: Db): Promise<Company[]> {
  return db.all(db.q.selectFrom('companies').selectAll().orderBy('created_at'));
}

export async function renameCompany(db: Db, id: string, name: string): Promise<Company> {
  const { changes } = await db.run(db.q.updateTable('companies').set({ name, updated_at: nowIso() }).where('id', '=', id));
  if (changes === 0) throw notFound(`company ${id}`);
  return (await db.first(db.q.selectFrom('companies').selectAll().where('id', '=', id)))!;
}

export async function requireCompany(db: Db, id: string): Promise<Company> {
  const row = await db.first(db.q.selectFrom('companies').selectAll().where('id', '=', id));
  if (!row) throw notFound(`company ${id}`);
  return row;
}
