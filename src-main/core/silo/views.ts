import type { z } from 'zod';
import { conflict, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { siloOperations, viewSchema } from '../api/contract/silo.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

export type SavedView = z.infer<typeof viewSchema>;
type ViewBody = ParsedInput<typeof siloOperations.putView>['body'];

/** Enough for any desk; a runaway script cannot fill the table. */
const MAX_VIEWS_PER_COMPANY = 200;

interface ViewRow {
  id: string;
  company_id: CompanyKey;
  name: string;
  body: string;
  created_at: string;
  updated_at: string;
}

function viewOf(row: ViewRow): SavedView {
  const body = JSON.parse(row.body) as Pick<SavedView, 'filters' | 'columns' | 'sort'>;
  return { id: row.id, name: row.name, filters: body.filters, columns: body.columns, sort: body.sort, created_at: row.created_at, updated_at: row.updated_at };
}

export async function listViews(ctx: Ctx): Promise<{ list: SavedView[] }> {
  const rows = await ctx.service.db.sql<ViewRow>('SELECT * FROM entry_views WHERE company_id = ? ORDER BY name, id', [ctx.caller.companyKey]);
  return { list: rows.map(viewOf) };
}

/**
 * Creates or replaces a view under the client's id. A name names one view per company
 * (another view with it is a 409); ids are the company's own, like every id a client chooses.
 */
export function putView(ctx: Ctx, id: string, input: ViewBody): Promise<SavedView> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const body = JSON.stringify({ filters: input.filters, columns: input.columns, sort: input.sort });
  return db.tx(async () => {
    // Two saves at once on PostgreSQL would both count under the limit: the company's views are saved one at a time.
    if (db.dialect === 'postgres') await db.sql('SELECT 1 FROM companies WHERE id = ? FOR UPDATE', [company]);
    const existing = await db.sqlFirst<ViewRow>('SELECT * FROM entry_views WHERE company_id = ? AND id = ?', [company, id]);
    const holder = await db.sqlFirst<{ id: string }>('SELECT id FROM entry_views WHERE company_id = ? AND name = ? AND id <> ?', [company, input.name, id]);
    if (holder) throw conflict(`a view named ${JSON.stringify(input.name)} exists already (${holder.id})`);
    const at = nowIso();
    if (existing) {
      await db.sqlRun('UPDATE entry_views SET name = ?, body = ?, updated_at = ? WHERE company_id = ? AND id = ?', [input.name, body, at, company, id]);
      return viewOf({ ...existing, name: input.name, body, updated_at: at });
    }
    const { count } = (await db.sqlFirst<{ count: number }>('SELECT count(*) AS count FROM entry_views WHERE company_id = ?', [company]))!;
    if (count >= MAX_VIEWS_PER_COMPANY) {
      throw validationError(`a company keeps at most ${MAX_VIEWS_PER_COMPANY} views`, { '$.name': 'delete a view before saving another' });
    }
    const row: ViewRow = { id, company_id: company, name: input.name, body, created_at: at, updated_at: at };
    await db.sqlRun('INSERT INTO entry_views (id, company_id, name, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.id, row.company_id, row.name, row.body, row.created_at, row.updated_at]);
    return viewOf(row);
  }, { origin: LOCAL });
}

export async function deleteView(ctx: Ctx, id: string): Promise<{ deleted: number }> {
  const info = await ctx.service.db.sqlRun('DELETE FROM entry_views WHERE company_id = ? AND id = ?', [ctx.caller.companyKey, id]);
  return { deleted: info.changes };
}
