import { sql, type SelectQueryBuilder } from 'kysely';
import type { Service } from '../service.ts';
import { decodeCursor, encodeCursor, invalidCursor, type KeyValue } from './cursor.ts';

/**
 * Every list of the service pages here: by keyset, never by offset. A list says how
 * its rows are ordered (`key`: the values of a row's sort key, the last one unique)
 * and how to fetch rows after a position; this decodes the cursor, asks for one row
 * more than the page to know whether another page follows, and makes the next
 * cursor from the last row served. Pages never skip or repeat rows however many are
 * added meanwhile, and a cursor only opens the list (`scope`) it came from.
 */
export interface KeysetList<R> {
  secret: Buffer;
  scope: string;
  cursor?: string;
  limit: number;
  /** how many values a position has, and what each must be (checked on a cursor that comes back) */
  shape: readonly KeyShape[];
  key(row: R): KeyValue[];
  /** rows after `after` (from the start when undefined), in the list's order, at most `take` */
  fetch(after: KeyValue[] | undefined, take: number): Promise<R[]>;
}

/** What one value of a position must be: a string, a whole number, or either of those or null. */
export type KeyShape = 'string' | 'int' | 'string?' | 'int?' | 'any?';

export async function keysetPage<R>(list: KeysetList<R>): Promise<{ rows: R[]; nextCursor?: string }> {
  const after = list.cursor === undefined ? undefined : positionOf(list);
  const rows = await list.fetch(after, list.limit + 1);
  const more = rows.length > list.limit;
  if (more) rows.length = list.limit;
  const last = rows[rows.length - 1];
  return more && last !== undefined ? { rows, nextCursor: encodeCursor(list.secret, list.scope, list.key(last)) } : { rows };
}

function positionOf<R>(list: KeysetList<R>): KeyValue[] {
  const position = decodeCursor(list.secret, list.scope, list.cursor!, list.shape.length);
  list.shape.forEach((shape, i) => {
    if (!fits(shape, position[i])) throw invalidCursor();
  });
  return position;
}

function fits(shape: KeyShape, v: KeyValue): boolean {
  if (v === null) return shape.endsWith('?');
  if (shape.startsWith('string')) return typeof v === 'string';
  if (shape.startsWith('int')) return Number.isSafeInteger(v);
  return true;
}

/**
 * The condition that starts a page after a position: a row-value comparison over the
 * sort key's columns (`(a, b) < (?, ?)`), which SQLite and PostgreSQL both answer from
 * an index on those columns. The operator is one of two fixed strings.
 */
export function afterPosition(columns: readonly string[], ascending: boolean): string {
  return `(${columns.join(', ')}) ${ascending ? '>' : '<'} (${columns.map(() => '?').join(', ')})`;
}

export interface CreatedAtQuery {
  cursor?: string;
  limit: number;
  ascending?: boolean;
  /** upper bound when descending, lower bound when ascending */
  created_at?: string;
}

/** A list over a typed query of any table with (created_at, id), newest first unless `ascending`. */
export function createdAtPage<R extends { created_at: string; id: string }>(
  service: Service,
  scope: string,
  base: SelectQueryBuilder<any, any, R>,
  q: CreatedAtQuery,
): Promise<{ rows: R[]; nextCursor?: string }> {
  const createdAt = sql.ref<string>('created_at');
  const dir = q.ascending ? 'asc' : 'desc';
  const bounded = q.created_at ? base.where(createdAt, q.ascending ? '>=' : '<=', new Date(q.created_at).toISOString()) : base;
  return keysetPage({
    secret: service.cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['string', 'string'],
    key: (row) => [row.created_at, row.id],
    fetch(after, take) {
      const query = after
        ? bounded.where(sql<boolean>`(created_at, id) ${sql.raw(q.ascending ? '>' : '<')} (${after[0]}, ${after[1]})`)
        : bounded;
      return service.db.all(query.orderBy(createdAt, dir).orderBy(sql.ref('id'), dir).limit(take));
    },
  });
}
