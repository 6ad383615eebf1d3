import { sql, type SelectQueryBuilder } from 'kysely';
import type { Service } from '../service.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

export interface KeysetQuery {
  cursor?: string;
  limit: number;
  ascending?: boolean;
  /** upper bound when descending, lower bound when ascending */
  created_at?: string;
}

/**
 * One keyset page over (created_at, id) of any table that has both: the cursor is
 * the position of the last row served, so pages never skip or repeat rows however
 * many are added meanwhile. `scope` binds the cursor to the list it came from.
 */
export function keysetPage<R extends { created_at: string; id: string }>(
  service: Service,
  scope: string,
  base: SelectQueryBuilder<any, any, R>,
  q: KeysetQuery,
): { rows: R[]; nextCursor?: string } {
  const createdAt = sql.ref<string>('created_at');
  const dir = q.ascending ? 'asc' : 'desc';
  let query = base;
  if (q.created_at) {
    const bound = new Date(q.created_at).toISOString();
    query = query.where(createdAt, q.ascending ? '>=' : '<=', bound);
  }
  if (q.cursor) {
    const pos = decodeCursor(service.cursorSecret, scope, q.cursor);
    // The operator is one of two fixed strings; the position is bound as values.
    query = query.where(sql<boolean>`(created_at, id) ${sql.raw(q.ascending ? '>' : '<')} (${pos.at}, ${pos.id})`);
  }
  const rows = service.store.all(query.orderBy(createdAt, dir).orderBy(sql.ref('id'), dir).limit(q.limit + 1));
  const more = rows.length > q.limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  return {
    rows,
    ...(more && last ? { nextCursor: encodeCursor(service.cursorSecret, scope, { at: last.created_at, id: last.id }) } : {}),
  };
}
