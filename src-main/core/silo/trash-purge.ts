import { rm, stat } from 'node:fs/promises';
import { notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { Db } from '../db/engine.ts';
import { applyInSlices } from '../db/time-slices.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { Service } from '../service.ts';
import { currentActor, withActor, type Actor } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
import { deleteEntry } from './entry-delete.ts';
import type { EntryRow } from './entry-view.ts';
import { retentionDays } from './trash.ts';
import { ownerOf, type CompanyKey } from '../access/company-key.ts';

const DAY_MS = 24 * 60 * 60_000;
/** The retention purge's own name in history and the audit log. */
const RETENTION: Actor = { via: 'system', id: 'trash-retention', name: 'Trash retention' };
/** Bytes written this recently may belong to a sync that has fetched them and not yet linked them: they stay. */
const FRESH_BYTES_MS = 60 * 60_000;

export interface PurgeItem {
  kind: 'entry' | 'file';
  /** an entry id, or a file's trash id */
  id: string;
}

interface TrashedFile {
  trash_id: string;
  company_id: CompanyKey;
  entry_id: string;
  id: string;
  hash: string;
  name: string;
}

/**
 * Deletes an entry in the trash for good, with its files, meta, versions and finished
 * jobs (the audit log keeps that it was). Synced as a deletion. Answers the file
 * hashes it let go of.
 */
async function purgeEntry(ctx: Ctx, row: EntryRow): Promise<string[]> {
  const { db } = ctx.service;
  // By company and id: another company's entry may have the same id (issue 12).
  const hashes = (
    await db.sql<{ hash: string }>(
      'SELECT hash FROM attachments WHERE company_id = ? AND entry_id = ? UNION SELECT hash FROM trash_files WHERE company_id = ? AND entry_id = ?',
      [row.company_id, row.id, row.company_id, row.id],
    )
  ).map((r) => r.hash);
  const files = await db.sql<TrashedFile>('SELECT trash_id, company_id, entry_id, id, hash, name FROM trash_files WHERE company_id = ? AND entry_id = ?', [
    row.company_id,
    row.id,
  ]);
  for (const file of files) await purgeFileRow(db, file);
  // Its versions, meta, files and finished jobs go with it (deleteEntry); the audit log keeps that it was.
  await deleteEntry(ctx, row);
  return hashes;
}

async function purgeFileRow(db: Db, file: TrashedFile): Promise<void> {
  await db.sqlRun('DELETE FROM trash_files WHERE trash_id = ?', [file.trash_id]);
  await appendAudit(db, await currentActor(db, { companyKey: file.company_id, entryId: file.entry_id }), {
    company_id: file.company_id,
    action: 'attachment.purged',
    target_kind: 'attachment',
    target_id: `${file.entry_id}:${file.id}`,
    detail: { name: file.name },
  });
}

// A conflict whose losing file (JSON text) names the hash, on each engine.
const LOSER_HOLDS_SQLITE = `SELECT 1 FROM sync_conflicts WHERE kind = 'attachment' AND instr(loser, ?) > 0 LIMIT 1`;
const LOSER_HOLDS_PG = `SELECT 1 FROM sync_conflicts WHERE kind = 'attachment' AND strpos(loser, ?) > 0 LIMIT 1`;

/**
 * Removes bytes no row refers to any more (no attachment or trashed file of any
 * company, no conflict holding a losing file), unless written within the hour: a
 * sync may have fetched them and not yet written the row that links them.
 */
async function dropUnreferencedBytes(service: Service, hashes: Iterable<string>): Promise<void> {
  const { db, blobs } = service;
  for (const hash of new Set(hashes)) {
    const used =
      (await db.sqlFirst('SELECT 1 FROM attachments WHERE hash = ? LIMIT 1', [hash])) ??
      (await db.sqlFirst('SELECT 1 FROM trash_files WHERE hash = ? LIMIT 1', [hash])) ??
      (await db.sqlFirst(db.dialect === 'postgres' ? LOSER_HOLDS_PG : LOSER_HOLDS_SQLITE, [hash]));
    if (used) continue;
    const path = blobs.pathOf(hash);
    // On libuv's threads, as every look-up in the content store: the disk may keep it waiting.
    try {
      if (Date.now() - (await stat(path)).mtimeMs < FRESH_BYTES_MS) continue;
      await rm(path, { force: true });
    } catch {
      // Gone already, or not ours to remove now: the next purge looks again.
    }
  }
}

const PAGE = 200;

/*
 * What a purge is about to delete, locked on PostgreSQL until it commits: a restore (or
 * another purge) running at once waits, then finds it gone, and never sees it deleted
 * after it was put back. SQLite has one writer at a time.
 */
const TRASHED_ENTRY_SQLITE = 'SELECT * FROM entries WHERE company_id = ? AND id = ? AND trashed_at IS NOT NULL';
const TRASHED_ENTRY_PG = `${TRASHED_ENTRY_SQLITE} FOR UPDATE`;
const TRASHED_FILE_SQLITE = 'SELECT trash_id, company_id, entry_id, id, hash, name FROM trash_files WHERE trash_id = ? AND company_id = ?';
const TRASHED_FILE_PG = `${TRASHED_FILE_SQLITE} FOR UPDATE`;

/**
 * Purges one page of items, a time slice of them per transaction (time-slices.ts), each
 * in a savepoint of its own: a page of 200 entries, each with its files, history and
 * audit rows, held the event loop for a tenth of a second or more in one transaction.
 * Items named by the caller (`strict`) are all looked up first: one not in the trash is
 * a 404 and nothing goes. One gone meanwhile (restored, purged by another) is passed over.
 */
async function purgePage(ctx: Ctx, items: PurgeItem[], strict: boolean): Promise<{ purged: number; hashes: string[] }> {
  const { db } = ctx.service;
  if (strict) await requireInTrash(ctx, items);
  const done = await applyInSlices(db, items, (item) => db.tx(() => purgeItem(ctx, item), { origin: LOCAL }), { origin: LOCAL });
  const purged = done.filter((hashes) => hashes !== undefined);
  return { purged: purged.length, hashes: purged.flat() };
}

/** Throws 404 for the first of `items` that is not in the company's trash. */
async function requireInTrash(ctx: Ctx, items: PurgeItem[]): Promise<void> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  for (const item of items) {
    // A plain read on either engine: purgeItem reads each again, locked on PostgreSQL.
    const found = item.kind === 'entry'
      ? await db.sqlFirst(TRASHED_ENTRY_SQLITE, [company, item.id])
      : await db.sqlFirst(TRASHED_FILE_SQLITE, [item.id, company]);
    if (!found) throw notFound(`${item.kind} ${item.id} in the trash`);
  }
}

/** Purges one item of the company's trash: the hashes of the bytes it held, or undefined when it is not in the trash. */
async function purgeItem(ctx: Ctx, item: PurgeItem): Promise<string[] | undefined> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  if (item.kind === 'entry') {
    const row = await db.sqlFirst<EntryRow>(db.dialect === 'postgres' ? TRASHED_ENTRY_PG : TRASHED_ENTRY_SQLITE, [company, item.id]);
    return row ? purgeEntry(ctx, row) : undefined;
  }
  const file = await db.sqlFirst<TrashedFile>(db.dialect === 'postgres' ? TRASHED_FILE_PG : TRASHED_FILE_SQLITE, [item.id, company]);
  if (!file) return undefined;
  await purgeFileRow(db, file);
  return [file.hash];
}

/**
 * Everything in the company's trash (or only what was put there before `before`), PAGE
 * items at a time in the order it went there (entries, then files), each page read
 * after the last one's position: listing a trash of a million entries at once took
 * 380 ms of the database.
 */
async function* trashedPages(db: Db, companyKey: CompanyKey, before?: string): AsyncGenerator<PurgeItem[]> {
  const bound = before ?? '9999';
  const sources = [
    { kind: 'entry' as const, table: 'entries', key: 'id', live: ' AND trashed_at IS NOT NULL' },
    { kind: 'file' as const, table: 'trash_files', key: 'trash_id', live: '' },
  ];
  for (const { kind, table, key, live } of sources) {
    let after: { trashed_at: string; id: string } | undefined;
    for (;;) {
      const rows = await db.sql<{ id: string; trashed_at: string }>(
        `SELECT ${key} AS id, trashed_at FROM ${table} WHERE company_id = ?${live} AND trashed_at <= ?${after ? ` AND (trashed_at, ${key}) > (?, ?)` : ''}
         ORDER BY trashed_at, ${key} LIMIT ${PAGE}`,
        [companyKey, bound, ...(after ? [after.trashed_at, after.id] : [])],
      );
      if (rows.length > 0) yield rows.map((r) => ({ kind, id: r.id }));
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1];
    }
  }
}

/**
 * Purges what the caller names from its company's trash now (none at all when one is
 * not in the trash), or, without a list, the whole trash a page at a time; either way a
 * time slice per transaction (purgePage), so a big trash never holds the database long.
 */
export async function purgeNow(ctx: Ctx, items?: PurgeItem[]): Promise<{ purged: number }> {
  const pages = items ? [items] : trashedPages(ctx.service.db, ctx.caller.companyKey);
  let purged = 0;
  for await (const list of pages) {
    const page = await purgePage(ctx, list, items !== undefined);
    purged += page.purged;
    await dropUnreferencedBytes(ctx.service, page.hashes);
  }
  return { purged };
}

/** Purges, in every company, what has been in the trash longer than the company keeps it. Answers how many went. */
export function purgeExpired(service: Service, now = Date.now()): Promise<number> {
  return purgeExpiredUntil(service, now, () => false);
}

/**
 * purgeExpired, asked before each page whether to stop: a page is one transaction and
 * its bytes are dropped right after it, so stopping between pages leaves no purge
 * half-done (what is left goes at the next purge).
 */
async function purgeExpiredUntil(service: Service, now: number, stopped: () => boolean): Promise<number> {
  const { db } = service;
  let purged = 0;
  const companies = await db.sql<{ id: CompanyKey }>('SELECT id FROM companies');
  for (const { id: companyKey } of companies) {
    if (stopped()) break;
    const before = new Date(now - (await retentionDays(db, companyKey)) * DAY_MS).toISOString();
    const ctx: Ctx = { service, caller: await ownerOf(db, companyKey) };
    for await (const list of trashedPages(db, companyKey, before)) {
      if (stopped()) break;
      try {
        const page = await withActor(db, RETENTION, () => purgePage(ctx, list, false));
        purged += page.purged;
        await dropUnreferencedBytes(service, page.hashes);
      } catch (err) {
        service.log?.(`trash purge in company ${ctx.caller.companyId}: ${(err as Error).message}`);
      }
    }
  }
  return purged;
}

/** Purges the expired trash when the service opens and then once a day. */
export class TrashPurger {
  readonly #service: Service;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(service: Service) {
    this.#service = service;
  }

  start(): void {
    this.#stopped = false;
    // #tick catches whatever the purge throws and logs it: it never rejects.
    void this.#tick();
  }

  /**
   * No purge starts after this, and one under way stops before its next page (the page
   * being written ends as one transaction and drops its bytes). It does not wait for
   * that page: stop() stays synchronous for its callers.
   */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #tick(): Promise<void> {
    try {
      const purged = await purgeExpiredUntil(this.#service, Date.now(), () => this.#stopped);
      if (purged > 0) this.#service.log?.(`trash: ${purged} purged after their retention`);
    } catch (err) {
      this.#service.log?.(`trash purge failed: ${(err as Error).message}`);
    }
    if (this.#stopped) return;
    // A stop and a start while a purge ran leave two purges ending: the last one plans the only next one.
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), DAY_MS);
    this.#timer.unref();
  }
}

const purgers = new WeakMap<Service, TrashPurger>();

export function trashPurger(service: Service): TrashPurger {
  let found = purgers.get(service);
  if (!found) {
    found = new TrashPurger(service);
    purgers.set(service, found);
  }
  return found;
}
