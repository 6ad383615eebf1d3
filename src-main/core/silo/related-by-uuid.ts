import { sql } from 'kysely';
import type { Ctx } from '../api/handler.ts';
import { createdAtPage } from '../api/keyset-page.ts';
import { entryViews } from './entry-view.ts';
import type { EntryPage } from './list.ts';

export interface RelatedByUuidQuery {
  uuid: string;
  context?: string;
  created_at?: string;
  cursor?: string;
  limit: number;
  ascending: boolean;
}

/**
 * The hosted form of "related" without an entry in the path: the company's entries
 * whose document mentions `uuid` (a credit note's `preceding[].uuid`, a payment's
 * `lines[].document.uuid`), each with the `context` it is mentioned in, newest first.
 * An index lookup on the mentions (company, uuid); pages are keysets on the entry.
 */
export async function findRelated(ctx: Ctx, q: RelatedByUuidQuery): Promise<EntryPage> {
  const { service } = ctx;
  const company = ctx.caller.companyKey;
  const scope = JSON.stringify(['related-uuid', company, q.uuid, q.context, q.ascending, q.created_at]);
  // One row per entry, with the first context it is mentioned in (an entry may mention a uuid twice).
  let hits = service.db.q
    .selectFrom('mentions')
    .select(['entry_id', (eb) => eb.fn.min('context').as('context')])
    .where('company_id', '=', company)
    .where('uuid', '=', q.uuid)
    .groupBy('entry_id');
  if (q.context !== undefined) hits = hits.where('context', '=', q.context);
  const base = service.db.q
    .selectFrom('entries')
    .innerJoin(hits.as('h'), 'h.entry_id', 'entries.id')
    .selectAll('entries')
    .select(sql<string>`h.context`.as('related_context'))
    .where('entries.company_id', '=', company);
  const { rows, nextCursor } = await createdAtPage(service, scope, base, q);
  const contexts = new Map(rows.map((r) => [r.id, String(r.related_context)]));
  return {
    list: await entryViews(service.db, rows.map(({ related_context: _c, ...row }) => row), false, contexts),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
    ...(q.created_at ? { created_at: q.created_at } : {}),
  };
}
