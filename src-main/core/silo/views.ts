import type { z } from 'zod';
import { conflict, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { siloOperations, viewSchema } from '../api/contract/silo.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';

export type SavedView = z.infer<typeof viewSchema>;
type ViewBody = ParsedInput<typeof siloOperations.putView>['body'];

/** Enough for any desk; a runaway script cannot fill the table. */
const MAX_VIEWS_PER_COMPANY = 200;

interface ViewRow {
  id: string;
  company_id: string;
  name: string;
  body: string;
  created_at: string;
  updated_at: string;
}

function viewOf(row: ViewRow): SavedView {
  const body = JSON.parse(row.body) as Pick<SavedView, 'filters' | 'columns' | 'sort'>;
  return { id: row.id, name: row.name, filters: body.filters, columns: body.columns, sort: body.sort, created_at: row.created_at, updated_at: row.updated_at };
}

export function listViews(ctx: Ctx): { list: SavedView[] } {
  const rows = ctx.service.store
    .statement('SELECT * FROM entry_views WHERE company_id = ? ORDER BY name, id')
    .all(ctx.caller.companyId) as ViewRow[];
  return { list: rows.map(viewOf) };
}

/**
 * Creates or replaces a view under the client's id. A name names one view per company
 * (another view with it is a 409); ids are the company's own, like every id a client chooses.
 */
export function putView(ctx: Ctx, id: string, input: ViewBody): SavedView {
  const { store } = ctx.service;
  const company = ctx.caller.companyId;
  const body = JSON.stringify({ filters: input.filters, columns: input.columns, sort: input.sort });
  return store.tx(() => {
    const existing = store.statement('SELECT * FROM entry_views WHERE company_id = ? AND id = ?').get(company, id) as ViewRow | undefined;
    const holder = store.statement('SELECT id FROM entry_views WHERE company_id = ? AND name = ? AND id <> ?').get(company, input.name, id) as { id: string } | undefined;
    if (holder) throw conflict(`a view named ${JSON.stringify(input.name)} exists already (${holder.id})`);
    const at = nowIso();
    if (existing) {
      store.statement('UPDATE entry_views SET name = ?, body = ?, updated_at = ? WHERE company_id = ? AND id = ?').run(input.name, body, at, company, id);
      return viewOf({ ...existing, name: input.name, body, updated_at: at });
    }
    const { count } = store.statement('SELECT count(*) AS count FROM entry_views WHERE company_id = ?').get(company) as { count: number };
    if (count >= MAX_VIEWS_PER_COMPANY) {
      throw validationError(`a company keeps at most ${MAX_VIEWS_PER_COMPANY} views`, { '$.name': 'delete a view before saving another' });
    }
    const row: ViewRow = { id, company_id: company, name: input.name, body, created_at: at, updated_at: at };
    store.statement('INSERT INTO entry_views (id, company_id, name, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(row.id, row.company_id, row.name, row.body, row.created_at, row.updated_at);
    return viewOf(row);
  }, { origin: LOCAL });
}

export function deleteView(ctx: Ctx, id: string): { deleted: number } {
  const info = ctx.service.store.statement('DELETE FROM entry_views WHERE company_id = ? AND id = ?').run(ctx.caller.companyId, id);
  return { deleted: info.changes };
}
