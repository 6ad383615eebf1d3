import { v7 as uuidv7 } from 'uuid';
import type { Store } from '../db/store.ts';
import { nowIso } from '../clock.ts';

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
