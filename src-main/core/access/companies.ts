import { v7 as uuidv7 } from 'uuid';
import type { Store } from '../db/store.ts';
import { nowIso } from '../clock.ts';
import { notFound } from '../api/errors.ts';

export interface Company {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export function createCompany(store: Store, name: string): Company {
  const at = nowIso();
  const company = { id: uuidv7(), name, created_at: at, updated_at: at };
  store.run(store.q.insertInto('companies').values(company));
  return company;
}

export function listCompanies(store: Store): Company[] {
  return store.all(store.q.selectFrom('companies').selectAll().orderBy('created_at'));
}

export function renameCompany(store: Store, id: string, name: string): Company {
  const { changes } = store.run(store.q.updateTable('companies').set({ name, updated_at: nowIso() }).where('id', '=', id));
  if (changes === 0) throw notFound(`company ${id}`);
  return store.first(store.q.selectFrom('companies').selectAll().where('id', '=', id))!;
}

export function requireCompany(store: Store, id: string): Company {
  const row = store.first(store.q.selectFrom('companies').selectAll().where('id', '=', id));
  if (!row) throw notFound(`company ${id}`);
  return row;
}
