import { ApiError, notFound } from '../api/errors.ts';
import { afterPosition, keysetPage } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { Via } from './audit-actor.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { findAnyEntryRow, requireEntryRow } from './entries.ts';
import { writeEntryChange } from './patch.ts';
import { documentOfRow, partsAhead } from './row-document.ts';
import { documentNumber } from './sort-keys.ts';
import { schemaFromStored } from './stored-schema.ts';
import { snippetFromStored } from './stored-snippet.ts';
import type { CompanyKey } from '../access/company-key.ts';

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

/** How long the company keeps what is in its trash before it is purged for good. */
export async function retentionDays(db: Db, companyKey: CompanyKey): Promise<number> {
  const row = await db.sqlFirst<{ retention_days: number }>('SELECT retention_days FROM trash_settings WHERE company_id = ?', [companyKey]);
  return row?.retention_days ?? DEFAULT_RETENTION_DAYS;
}

export async function getTrashSettings(ctx: Ctx) {
  return { retention_days: await retentionDays(ctx.service.db, ctx.caller.companyKey) };
}

export async function putTrashSettings(ctx: Ctx, body: { retention_days: number }) {
  const { db } = ctx.service;
  await db.sqlRun(
    `INSERT INTO trash_settings (company_id, retention_days, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (company_id) DO UPDATE SET retention_days = excluded.retention_days, updated_at = excluded.updated_at`,
    [ctx.caller.companyKey, body.retention_days, nowIso()],
  );
  return getTrashSettings(ctx);
}

export const purgeAt = (trashedAt: string, days: number): string => new Date(Date.parse(trashedAt) + days * DAY_MS).toISOString();

/**
 * Moves an entry (with its files and meta, which stay attached to it) to the trash:
 * gone from lists, search, related entries, sums and exports, still whole, and back
 * with `restoreEntry` until the retention purges it. A signed document can be
 * trashed: nothing of it changes. Trashing it again answers the same. Refused while a
 * job works on the entry, whose steps would find it gone. One transaction from the
 * look-ups to the write: trashing it twice at once answers the same twice (never a
 * 409), and no job is started on it in between.
 */
export async function trashEntry(ctx: Ctx, id: string) {
  const { db } = ctx.service;
  return db.tx(async () => {
    // Locked on PostgreSQL until the end: a second trashing at once waits, then finds it trashed.
    const any = await findAnyEntryRow(ctx, id, 'for-update');
    if (!any) throw notFound(`entry ${id}`);
    if (any.trashed_at === null) {
      const running = await db.sqlFirst<{ id: string }>(
        'SELECT id FROM jobs WHERE company_id = ? AND silo_entry_id = ? AND completed_at IS NULL LIMIT 1',
        [any.company_id, id],
      );
      if (running) throw new ApiError('conflict', `entry ${id} has a job under way (${running.id}); move it to the trash once the job ends`);
      const row = await requireEntryRow(ctx, id, 'for-update');
      await writeEntryChange(ctx, row, documentOfRow(row), { trashed: nowIso() });
    }
    return trashItem(ctx, 'entry', id);
  }, { origin: db.origin ?? LOCAL });
}

/**
 * Brings an entry back from the trash as it was, with its files and meta. Restoring a live entry answers it as it is.
 * One transaction from the look-up to the write: restoring it twice at once answers it twice, never a 409.
 */
export async function restoreEntry(ctx: Ctx, id: string): Promise<EntryView> {
  const { db } = ctx.service;
  // Its search row and mentions come back with it, made of its document: a large one's worked out before the transaction.
  const before = await findAnyEntryRow(ctx, id);
  const ahead = before ? await partsAhead(before, { trashed: null }) : undefined;
  const restored = await db.tx(async () => {
    const row = await findAnyEntryRow(ctx, id, 'for-update');
    if (!row) throw notFound(`entry ${id}`);
    return row.trashed_at === null ? row : await writeEntryChange(ctx, row, documentOfRow(row, ahead), { trashed: null });
  }, { origin: db.origin ?? LOCAL });
  return (await entryViews(db, [restored], ctx))[0];
}

/** An entry in the trash, whole, with when it went there and when it will be purged. */
export async function getTrashedEntry(ctx: Ctx, id: string) {
  const row = await findAnyEntryRow(ctx, id);
  if (!row || row.trashed_at === null) throw notFound(`entry ${id} in the trash`);
  const days = await retentionDays(ctx.service.db, ctx.caller.companyKey);
  return { ...(await entryViews(ctx.service.db, [row], ctx))[0], trashed_at: row.trashed_at, purge_at: purgeAt(row.trashed_at, days) };
}

interface TrashRow {
  kind: 'entry' | 'file';
  id: string;
  entry_id: string;
  trashed_at: string;
  snippet: string | null;
  doc_schema: string | null;
  folder: string | null;
  state: string | null;
  signed: number | null;
  file_id: string | null;
  name: string | null;
  mime: string | null;
  size: number | null;
  via: string | null;
  actor_id: string | null;
  actor_name: string | null;
  files: number | null;
}

// Entries: who trashed one is in its history (its latest `trashed` version). Files keep it in their row.
// Children join their entry on company and id: an entry id is only unique within its company (issue 12).
const entryPart = (size: string) => `SELECT 'entry' AS kind, e.id AS id, e.id AS entry_id, e.trashed_at AS trashed_at, e.snippet AS snippet,
    e.doc_schema AS doc_schema, e.folder AS folder, e.state AS state, e.signed AS signed, NULL AS file_id, NULL AS name, NULL AS mime,
    (SELECT ${size} FROM attachments a WHERE a.company_id = e.company_id AND a.entry_id = e.id) AS size,
    v.via AS via, v.actor_id AS actor_id, v.actor_name AS actor_name,
    (SELECT count(*) FROM attachments a WHERE a.company_id = e.company_id AND a.entry_id = e.id) AS files
  FROM entries e LEFT JOIN entry_versions v ON v.company_id = e.company_id AND v.entry_id = e.id AND v.version =
    (SELECT max(version) FROM entry_versions WHERE company_id = e.company_id AND entry_id = e.id AND action = 'trashed')
  WHERE e.company_id = ? AND e.trashed_at IS NOT NULL`;
const ENTRY_PART_SQLITE = entryPart('coalesce(sum(a.size), 0)');
// The twin on PostgreSQL, where sum() of bigint is numeric (text to the client): a byte count stays a number.
const ENTRY_PART_PG = entryPart('coalesce(sum(a.size), 0)::bigint');
const FILE_PART = `SELECT 'file' AS kind, t.trash_id AS id, t.entry_id AS entry_id, t.trashed_at AS trashed_at, e.snippet AS snippet,
    e.doc_schema AS doc_schema, NULL AS folder, NULL AS state, NULL AS signed, t.id AS file_id, t.name AS name, t.mime AS mime,
    t.size AS size, t.via AS via, t.actor_id AS actor_id, t.actor_name AS actor_name, NULL AS files
  FROM trash_files t LEFT JOIN entries e ON e.company_id = t.company_id AND e.id = t.entry_id
  WHERE t.company_id = ?`;

// PostgreSQL before 16 wants a name for a subquery in FROM; SQLite's statement stays as it was.
const UNION_ALIAS_PG = ' AS items';

const entryPartOf = (db: Db): string => (db.dialect === 'postgres' ? ENTRY_PART_PG : ENTRY_PART_SQLITE);

function itemView(row: TrashRow, days: number) {
  const snippet = row.snippet ? snippetFromStored(row.snippet) : {};
  const number = documentNumber(snippet);
  return {
    kind: row.kind,
    id: row.id,
    entry_id: row.entry_id,
    trashed_at: row.trashed_at,
    purge_at: purgeAt(row.trashed_at, days),
    trashed_by: { via: (row.via ?? 'system') as Via, id: row.actor_id ?? '', name: row.actor_name ?? '' },
    title: snippet.title ?? '',
    ...(number ? { number } : {}),
    ...(row.doc_schema ? { doc_schema: schemaFromStored(row.doc_schema) } : {}),
    ...(row.folder !== null ? { folder: row.folder } : {}),
    ...(row.state !== null ? { state: row.state } : {}),
    ...(row.signed !== null ? { signed: row.signed === 1 } : {}),
    ...(row.files !== null ? { files: row.files } : {}),
    ...(row.file_id !== null ? { file_id: row.file_id, name: row.name ?? '', mime: row.mime ?? '' } : {}),
    size: row.size ?? 0,
  };
}

export type TrashItem = ReturnType<typeof itemView>;

async function trashItem(ctx: Ctx, kind: 'entry' | 'file', id: string): Promise<TrashItem> {
  const { db } = ctx.service;
  const part = kind === 'entry' ? `${entryPartOf(db)} AND e.id = ?` : `${FILE_PART} AND t.trash_id = ?`;
  const row = await db.sqlFirst<TrashRow>(part, [ctx.caller.companyKey, id]);
  if (!row) throw notFound(`${kind} ${id} in the trash`);
  return itemView(row, await retentionDays(db, ctx.caller.companyKey));
}

export { trashItem };

/** What the company's trash holds, entries and files, the most recently trashed first, a keyset page at a time. */
export async function listTrash(ctx: Ctx, q: { kind?: 'entry' | 'file'; cursor?: string; limit: number }) {
  const { db, cursorSecret } = ctx.service;
  const company = ctx.caller.companyKey;
  const scope = JSON.stringify(['trash', company, q.kind]);
  const parts: string[] = [];
  const params: unknown[] = [];
  if (q.kind !== 'file') {
    parts.push(entryPartOf(db));
    params.push(company);
  }
  if (q.kind !== 'entry') {
    parts.push(FILE_PART);
    params.push(company);
  }
  const { rows, nextCursor } = await keysetPage<TrashRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['string', 'string'],
    key: (row) => [row.trashed_at, row.id],
    fetch: (after, take) =>
      db.sql<TrashRow>(
        `SELECT * FROM (${parts.join(' UNION ALL ')})${db.dialect === 'postgres' ? UNION_ALIAS_PG : ''} ${after ? `WHERE ${afterPosition(['trashed_at', 'id'], false)}` : ''} ORDER BY trashed_at DESC, id DESC LIMIT ?`,
        [...params, ...(after ?? []), take],
      ),
  });
  const days = await retentionDays(db, company);
  return {
    list: rows.map((r) => itemView(r, days)),
    limit: q.limit,
    retention_days: days,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}
