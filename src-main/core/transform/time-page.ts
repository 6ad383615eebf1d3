import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/engine.ts';

/**
 * One page of a list paged the hosted way: newest first, from `createdAt` (inclusive)
 * down, the next page starting at `next` (pass it back as `createdAt`).
 *
 * A timestamp alone cannot split rows created in the same millisecond, so a page
 * never ends inside such a run: it stops before the run (the next page starts with
 * it), and only when a whole page is one run does it take the run entire, longer
 * than `limit`. Every row is served exactly once, however the hosted loop walks it.
 */
export async function timePage<R extends { created_at: string }>(
  db: Db,
  base: SelectQueryBuilder<any, any, R>,
  createdAt: string | undefined,
  limit: number,
): Promise<{ rows: R[]; next?: string }> {
  const from = createdAt ? base.where('created_at', '<=', new Date(createdAt).toISOString()) : base;
  const rows = await db.all(from.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1));
  if (rows.length <= limit) return { rows };
  const boundary = rows[limit].created_at;
  const cut = rows.findIndex((r) => r.created_at === boundary);
  if (cut > 0) return { rows: rows.slice(0, cut), next: boundary };
  const run = await db.all(base.where('created_at', '=', boundary).orderBy('id', 'desc'));
  const after = await db.first(base.where('created_at', '<', boundary).orderBy('created_at', 'desc').limit(1));
  return { rows: run, ...(after ? { next: after.created_at } : {}) };
}
