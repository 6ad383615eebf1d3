import type { Db, Dialect } from '../db/engine.ts';

/**
 * The company's audit log by action and origin, so a filter that keeps few rows reads
 * those rows: at a million rows a page of "Tokens" or "Silodesk" walked the whole log
 * backwards to find 25 (274 ms a page). Rows of one (action, via) are read along the
 * index newest first, each stream a page at most, and the streams merged by seq.
 */
export const AUDIT_STREAMS_SCHEMA = [`CREATE INDEX audit_log_action ON audit_log(company_id, action, via, seq)`];

/** An action, or a family of actions (`entry` holds `entry.created`, `entry.trashed`…). */
export interface AuditFilter {
  action?: string;
  via?: string;
}

/**
 * The (action, via) pairs of the company's log that the filter keeps, each found by a
 * seek along the index: the next action after the last, then its origins (or whether it
 * has the one asked for). A family of a dozen actions in five origins is a few dozen
 * seeks, however many rows each holds.
 */
export async function auditStreams(db: Db, company: string, f: AuditFilter): Promise<Array<{ action: string; via: string }>> {
  // A family's actions lie from "family" to before "family/" ('/' follows '.'): the family itself and every "family.…".
  const high = f.action === undefined ? [] : [`${f.action}/`];
  const nextAction = (after: string | undefined) =>
    db.sqlFirst<{ action: string }>(
      `SELECT action FROM audit_log WHERE company_id = ? AND action ${after === undefined ? '>=' : '>'} ? ${high.length ? 'AND action < ?' : ''} ORDER BY action LIMIT 1`,
      [company, after ?? f.action ?? '', ...high],
    );
  const nextVia = (action: string, after: string) =>
    db.sqlFirst<{ via: string }>('SELECT via FROM audit_log WHERE company_id = ? AND action = ? AND via > ? ORDER BY via LIMIT 1', [company, action, after]);
  const streams: Array<{ action: string; via: string }> = [];
  for (let row = await nextAction(undefined); row; row = await nextAction(row.action)) {
    const { action } = row;
    // Between "entry" and "entry/" lie "entry", "entry.…" and also "entry-x" or "entry+": only the first two are the family.
    if (f.action !== undefined && action !== f.action && !action.startsWith(`${f.action}.`)) continue;
    if (f.via !== undefined) {
      if (await db.sqlFirst('SELECT 1 AS found FROM audit_log WHERE company_id = ? AND action = ? AND via = ? LIMIT 1', [company, action, f.via])) streams.push({ action, via: f.via });
      continue;
    }
    for (let v = await nextVia(action, ''); v; v = await nextVia(action, v.via)) streams.push({ action, via: v.via });
  }
  return streams;
}

/**
 * The SQL of a page over the streams: each newest first up to `take`, merged by seq. SQLite
 * is told the index: with statistics it took the seq range instead and sorted every row
 * before the cursor.
 */
export function streamsPageSql(
  streams: ReadonlyArray<{ action: string; via: string }>,
  company: string,
  before: number | undefined,
  take: number,
  dialect: Dialect = 'sqlite',
): { sql: string; params: unknown[] } {
  const from = dialect === 'sqlite' ? 'audit_log INDEXED BY audit_log_action' : 'audit_log';
  const one = (i: number) =>
    `SELECT * FROM (SELECT * FROM ${from} WHERE company_id = ? AND action = ? AND via = ?${before !== undefined ? ' AND seq < ?' : ''} ORDER BY seq DESC LIMIT ?) AS s${i}`;
  const params = streams.flatMap((s) => [company, s.action, s.via, ...(before !== undefined ? [before] : []), take]);
  return { sql: `SELECT * FROM (${streams.map((_, i) => one(i)).join(' UNION ALL ')}) AS page ORDER BY seq DESC LIMIT ?`, params: [...params, take] };
}
