import { hash } from 'node:crypto';
import { keysetPage } from '../api/keyset-page.ts';
import { auditStreams, streamsPageSql } from './audit-streams.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { CREATED_CHANGED } from './implied-created-version.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { canonicalJson } from '../gobl/index.ts';
import type { Actor, Via } from './audit-actor.ts';
import { actorKeyOf, storedOnce, withActors, type ActorKeys } from './audit-actors.ts';
import { letOthersIn } from '../let-others-in.ts';
import { companyIdOf, type CompanyKey, type NotACompanyKey } from '../access/company-key.ts';

/** What a row says was done to what. `detail` never holds a secret or a document. */
export interface AuditFact {
  company_id: CompanyKey;
  /** `entry.created`, `attachment.trashed`, `token.created`, `settings.sync`… */
  action: string;
  target_kind: string;
  target_id: string;
  detail?: Record<string, unknown>;
}

interface AuditRow {
  seq: number;
  company_id: CompanyKey;
  at: string;
  via: string;
  actor_id: string;
  actor_name: string;
  operation: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  detail: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);
const LAST_HASH = 'SELECT hash FROM audit_log WHERE company_id = ? ORDER BY seq DESC LIMIT 1';
/**
 * PostgreSQL runs appends at once (READ COMMITTED): two could read the same last hash
 * and fork the chain. Each takes the company's chain lock first, held to its
 * transaction's end, so the next append reads the last hash only once this one's row
 * is committed. SQLite has one writer at a time: nothing to take. (So never append in a
 * snapshot transaction on PostgreSQL: its reads keep the snapshot taken before the lock.)
 */
const CHAIN_LOCK_PG = 'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))';
const chainLockKey = (companyId: string) => `silodesk audit chain ${companyId}`;
const INSERT = `INSERT INTO audit_log (company_id, at, via, actor_id, actor_name, operation, actor, action, target_kind, target_id, detail, hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * The chain link of a row: SHA-256 over the previous row's hash (in hex) and this row's
 * content, in hex. The content names the company by its public id, as it did before rows
 * were stored under a key (company-key.ts): a log's links never change.
 */
function linkOf(previous: string, companyId: NotACompanyKey, row: Omit<AuditRow, 'seq' | 'hash' | 'company_id'>): string {
  const fields = [companyId, row.at, row.via, row.actor_id, row.actor_name, row.operation, row.action, row.target_kind, row.target_id, row.detail];
  // Text and nulls, as every row holds: their canonical JSON is what JSON.stringify writes (canonical.ts), without copying them first.
  const content = fields.every((f) => typeof f === 'string' || f === null) ? JSON.stringify(fields) : canonicalJson(fields);
  // One call over the joined text hashes the same bytes as three updates, in a third of the time.
  return hash('sha256', `${previous}
${content}`, 'hex');
}

// A row keeps its link as base64url, 43 characters (rows stored before keep 64 hex digits):
// 21 bytes of every change less. The chain is made and checked over the hex, as it always was.
const storedLink = (hex: string): string => Buffer.from(hex, 'hex').toString('base64url');
const hexLink = (stored: string): string => (stored.length === 64 ? stored : Buffer.from(stored, 'base64url').toString('hex'));

/**
 * Appends one row to the company's audit log, in the caller's transaction (so a
 * change and its record commit or roll back together). There is no other way in:
 * both engines refuse any UPDATE or DELETE of the table. Outside every transaction (an
 * operation put on record after it answered) it takes one of its own: another row
 * appended between reading the last link and writing this one would break the chain.
 *
 * `batch`: for a caller appending many rows in a row in one transaction (record-keeping.ts:
 * an import's slice puts a thousand entries on record at once), the last link of each
 * company's log as the appends made with it left it, and the actors' keys they found. The
 * first append of a company reads its last link (and on PostgreSQL takes its chain lock,
 * held to the transaction's end); the others take it from the batch. Only sound while
 * every append to those companies' logs in between goes through the same batch, and
 * only within one transaction.
 */
export async function appendAudit(db: Db, actor: Actor, fact: AuditFact, batch?: AuditBatch): Promise<void> {
  if (db.origin === undefined) return db.tx(() => appendAudit(db, actor, fact), { origin: LOCAL });
  const links = batch?.links;
  let previous = links?.get(fact.company_id);
  if (previous === undefined) {
    if (db.dialect === 'postgres') await db.sql(CHAIN_LOCK_PG, [chainLockKey(fact.company_id)]);
    const last = await db.sqlFirst<{ hash: string }>(LAST_HASH, [fact.company_id]);
    previous = last ? hexLink(last.hash) : GENESIS;
  }
  const row = {
    company_id: fact.company_id,
    at: nowIso(),
    via: actor.via,
    actor_id: actor.id,
    actor_name: actor.name,
    operation: actor.operation ?? null,
    action: fact.action,
    target_kind: fact.target_kind,
    target_id: fact.target_id,
    detail: JSON.stringify(fact.detail ?? {}),
  };
  const link = linkOf(previous, await companyIdOf(db, fact.company_id), row);
  // The actor by key, its texts empty; or in the row (audit-actors.ts).
  const who = storedOnce(actor) ? ['', '', null, await actorKeyOf(db, actor, batch?.actors)] : [row.actor_id, row.actor_name, row.operation, null];
  await db.sqlRun(INSERT, [row.company_id, row.at, row.via, ...who, row.action, row.target_kind, row.target_id, row.detail, storedLink(link)]);
  links?.set(fact.company_id, link);
}

/** What appends made in a row in one transaction share (appendAudit): each company's last link (hex), and the actors' keys. */
export interface AuditBatch {
  links: Map<string, string>;
  actors: ActorKeys;
}

export const newAuditBatch = (): AuditBatch => ({ links: new Map(), actors: new Map() });

export function auditView(row: AuditRow) {
  return {
    seq: row.seq,
    at: row.at,
    via: row.via as Via,
    actor: { id: row.actor_id, name: row.actor_name },
    ...(row.operation ? { operation: row.operation } : {}),
    action: row.action,
    target: { kind: row.target_kind, id: row.target_id },
    detail: detailOf(row),
  };
}

/**
 * A row's detail as the API shows it: an entry's creation changed everything history
 * records, stored or not, and made version 1 unless its row says another.
 */
function detailOf(row: AuditRow): Record<string, unknown> {
  const detail = JSON.parse(row.detail) as Record<string, unknown>;
  if (row.action !== 'entry.created' || detail.changed !== undefined) return detail;
  const { version = '1', ...rest } = detail;
  return { version, changed: [...CREATED_CHANGED], ...rest };
}

export interface AuditQuery {
  cursor?: string;
  limit: number;
  target_id?: string;
  via?: string;
  /** an action or its family: `entry` matches `entry.created`, `entry.trashed`… */
  action?: string;
}

/** The company's log, newest first, a keyset page at a time (by seq, which only grows). */
export async function listAudit(ctx: Ctx, q: AuditQuery) {
  const { db, cursorSecret } = ctx.service;
  const company = ctx.caller.companyKey;
  const scope = JSON.stringify(['audit', company, q.target_id, q.via, q.action]);
  const where = ['company_id = ?'];
  const params: unknown[] = [company];
  if (q.target_id !== undefined) {
    where.push('target_id = ?');
    params.push(q.target_id);
  }
  if (q.via !== undefined) {
    where.push('via = ?');
    params.push(q.via);
  }
  if (q.action !== undefined) {
    where.push('(action = ? OR substr(action, 1, ?) = ?)');
    params.push(q.action, q.action.length + 1, `${q.action}.`);
  }
  const { rows, nextCursor } = await keysetPage<AuditRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['int'],
    key: (row) => [row.seq],
    async fetch(after, take) {
      // By action or origin alone: the streams of the rows kept, merged (audit-streams.ts). A target's own rows are few: walked.
      if (q.target_id === undefined && (q.action !== undefined || q.via !== undefined)) {
        const streams = await auditStreams(db, company, q);
        if (streams.length === 0) return [];
        const page = streamsPageSql(streams, company, after ? Number(after[0]) : undefined, take, db.dialect);
        return db.sql<AuditRow>(withActors(page.sql, 'DESC'), page.params);
      }
      const inner = `SELECT * FROM audit_log WHERE ${[...where, ...(after ? ['seq < ?'] : [])].join(' AND ')} ORDER BY seq DESC LIMIT ?`;
      return db.sql<AuditRow>(withActors(inner, 'DESC'), [...params, ...(after ?? []), take]);
    },
  });
  return {
    list: rows.map(auditView),
    limit: q.limit,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}

const VERIFY_PAGE = 5_000;

/**
 * Walks the company's whole log and checks every link. A row changed or removed
 * behind the app's back (the database edited with another tool) breaks the chain at
 * that row: `broken_at` names the first row that no longer follows from the one before.
 * A page at a time, letting other requests in between: a log of millions of rows takes
 * a while, and nobody else waits for it.
 */
export async function verifyAudit(ctx: Ctx): Promise<{ ok: boolean; count: number; broken_at?: number }> {
  const { db } = ctx.service;
  let previous = GENESIS;
  let count = 0;
  let after = 0;
  for (;;) {
    const rows = await db.sql<AuditRow>(withActors('SELECT * FROM audit_log WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?', 'ASC'), [
      ctx.caller.companyKey,
      after,
      VERIFY_PAGE,
    ]);
    for (const row of rows) {
      count++;
      const link = hexLink(row.hash);
      if (linkOf(previous, ctx.caller.companyId, row) !== link) return { ok: false, count, broken_at: row.seq };
      previous = link;
    }
    if (rows.length < VERIFY_PAGE) return { ok: true, count };
    after = rows[rows.length - 1].seq;
    await letOthersIn();
  }
}
