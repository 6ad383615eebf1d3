import type { Ctx } from '../api/handler.ts';
import { documentNumber } from './sort-keys.ts';
import { schemaFromStored } from './stored-schema.ts';
import { snippetFromStored } from './stored-snippet.ts';

export interface EntryName {
  id: string;
  /** the snippet's title: "Invoice FV-2026-0001 — Supplier → Customer" */
  title: string;
  /** series-code, as GOBL presents a number */
  number?: string;
  /** the document's type (`standard`, `credit-note`…), when it has one */
  type?: string;
  doc_schema: string;
}

/**
 * What to call each of these entries of the company, so lists of jobs and results show
 * `Invoice FV-2026-0001` instead of an id. One primary-key lookup per id; ids of
 * other companies, or of no entry, are left out.
 */
export async function entryNames(ctx: Ctx, ids: string[]): Promise<{ list: EntryName[] }> {
  const unique = [...new Set(ids)];
  // `IN ()` is SQLite's alone: PostgreSQL refuses an empty list.
  if (unique.length === 0) return { list: [] };
  const rows = await ctx.service.db.sql<{ id: string; doc_schema: string; snippet: string }>(
    `SELECT id, doc_schema, snippet FROM entries WHERE company_id = ? AND id IN (${unique.map(() => '?').join(', ')})`,
    [ctx.caller.companyKey, ...unique],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const list: EntryName[] = [];
  for (const id of unique) {
    const row = byId.get(id);
    if (!row) continue;
    const snippet = snippetFromStored(row.snippet);
    const number = documentNumber(snippet);
    list.push({ id, title: snippet.title ?? '', ...(number ? { number } : {}), ...(snippet.type ? { type: snippet.type } : {}), doc_schema: schemaFromStored(row.doc_schema) });
  }
  return { list };
}
