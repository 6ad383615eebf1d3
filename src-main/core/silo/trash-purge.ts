import { rmSync, statSync } from 'node:fs';
import { notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { Store } from '../db/store.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { Service } from '../service.ts';
import { currentActor, withActor, type Actor } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
import { deleteEntry } from './entry-delete.ts';
import type { EntryRow } from './entry-view.ts';
import { retentionDays } from './trash.ts';

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
  company_id: string;
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
function purgeEntry(ctx: Ctx, row: EntryRow): string[] {
  const { store } = ctx.service;
  // By company and id: another company's entry may have the same id (issue 12).
  const hashes = (store.statement('SELECT hash FROM attachments WHERE company_id = ? AND entry_id = ? UNION SELECT hash FROM trash_files WHERE company_id = ? AND entry_id = ?')
    .all(row.company_id, row.id, row.company_id, row.id) as Array<{ hash: string }>).map((r) => r.hash);
  const files = store
    .statement('SELECT trash_id, company_id, entry_id, id, hash, name FROM trash_files WHERE company_id = ? AND entry_id = ?')
    .all(row.company_id, row.id) as TrashedFile[];
  for (const file of files) purgeFileRow(store, file);
  // Its versions, meta, files and finished jobs go with it (deleteEntry); the audit log keeps that it was.
  deleteEntry(ctx, row);
  return hashes;
}

function purgeFileRow(store: Store, file: TrashedFile): void {
  store.statement('DELETE FROM trash_files WHERE trash_id = ?').run(file.trash_id);
  appendAudit(store, currentActor(store, { companyId: file.company_id, entryId: file.entry_id }), {
    company_id: file.company_id,
    action: 'attachment.purged',
    target_kind: 'attachment',
    target_id: `${file.entry_id}:${file.id}`,
    detail: { name: file.name },
  });
}

/**
 * Removes bytes no row refers to any more (no attachment or trashed file of any
 * company, no conflict holding a losing file), unless written within the hour: a
 * sync may have fetched them and not yet written the row that links them.
 */
function dropUnreferencedBytes(service: Service, hashes: Iterable<string>): void {
  const { store, blobs } = service;
  for (const hash of new Set(hashes)) {
    const used =
      store.statement('SELECT 1 FROM attachments WHERE hash = ? LIMIT 1').get(hash) ??
      store.statement('SELECT 1 FROM trash_files WHERE hash = ? LIMIT 1').get(hash) ??
      store.statement(`SELECT 1 FROM sync_conflicts WHERE kind = 'attachment' AND instr(loser, ?) > 0 LIMIT 1`).get(hash);
    if (used || !blobs.has(hash)) continue;
    const path = blobs.pathOf(hash);
    try {
      if (Date.now() - statSync(path).mtimeMs < FRESH_BYTES_MS) continue;
      rmSync(path, { force: true });
    } catch {
      // Gone already, or not ours to remove now: the next purge looks again.
    }
  }
}

const PAGE = 200;

/** Purges one page of items in one transaction; a named item not in the trash is a 404 and nothing of the page goes. */
function purgePage(ctx: Ctx, items: PurgeItem[], strict: boolean): { purged: number; hashes: string[] } {
  const { store } = ctx.service;
  const company = ctx.caller.companyId;
  const hashes: string[] = [];
  let purged = 0;
  store.tx(() => {
    for (const item of items) {
      if (item.kind === 'entry') {
        const row = store.statement('SELECT * FROM entries WHERE company_id = ? AND id = ? AND trashed_at IS NOT NULL').get(company, item.id) as EntryRow | undefined;
        if (!row) {
          if (strict) throw notFound(`entry ${item.id} in the trash`);
          continue;
        }
        hashes.push(...purgeEntry(ctx, row));
      } else {
        const file = store.statement('SELECT trash_id, company_id, entry_id, id, hash, name FROM trash_files WHERE trash_id = ? AND company_id = ?').get(item.id, company) as TrashedFile | undefined;
        if (!file) {
          if (strict) throw notFound(`file ${item.id} in the trash`);
          continue;
        }
        purgeFileRow(store, file);
        hashes.push(file.hash);
      }
      purged++;
    }
  }, { origin: LOCAL });
  return { purged, hashes };
}

/** Everything in the company's trash (or only what was put there before `before`). */
function trashed(store: Store, companyId: string, before?: string): PurgeItem[] {
  const bound = before ?? '9999';
  const entries = store.statement('SELECT id FROM entries WHERE company_id = ? AND trashed_at IS NOT NULL AND trashed_at <= ?').all(companyId, bound) as Array<{ id: string }>;
  const files = store.statement('SELECT trash_id AS id FROM trash_files WHERE company_id = ? AND trashed_at <= ?').all(companyId, bound) as Array<{ id: string }>;
  return [...entries.map((r) => ({ kind: 'entry' as const, id: r.id })), ...files.map((r) => ({ kind: 'file' as const, id: r.id }))];
}

/**
 * Purges what the caller names from its company's trash now (all or nothing), or,
 * without a list, the whole trash a page per transaction, so a big trash never holds
 * the database for long.
 */
export function purgeNow(ctx: Ctx, items?: PurgeItem[]): { purged: number } {
  const all = items ?? trashed(ctx.service.store, ctx.caller.companyId);
  let purged = 0;
  for (let i = 0; i < all.length; i += items ? all.length : PAGE) {
    const page = purgePage(ctx, items ? all : all.slice(i, i + PAGE), items !== undefined);
    purged += page.purged;
    dropUnreferencedBytes(ctx.service, page.hashes);
  }
  return { purged };
}

/** Purges, in every company, what has been in the trash longer than the company keeps it. Answers how many went. */
export function purgeExpired(service: Service, now = Date.now()): number {
  const { store } = service;
  let purged = 0;
  const companies = store.statement('SELECT id FROM companies').all() as Array<{ id: string }>;
  for (const { id: companyId } of companies) {
    const before = new Date(now - retentionDays(store, companyId) * DAY_MS).toISOString();
    const ctx: Ctx = { service, caller: { companyId, kind: 'owner' } };
    const items = trashed(store, companyId, before);
    for (let i = 0; i < items.length; i += PAGE) {
      try {
        const page = withActor(store, RETENTION, () => purgePage(ctx, items.slice(i, i + PAGE), false));
        purged += page.purged;
        dropUnreferencedBytes(service, page.hashes);
      } catch (err) {
        service.log?.(`trash purge in company ${companyId}: ${(err as Error).message}`);
      }
    }
  }
  return purged;
}

/** Purges the expired trash when the service opens and then once a day. */
export class TrashPurger {
  readonly #service: Service;
  #timer: NodeJS.Timeout | undefined;

  constructor(service: Service) {
    this.#service = service;
  }

  start(): void {
    this.#tick();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    try {
      const purged = purgeExpired(this.#service);
      if (purged > 0) this.#service.log?.(`trash: ${purged} purged after their retention`);
    } catch (err) {
      this.#service.log?.(`trash purge failed: ${(err as Error).message}`);
    }
    this.#timer = setTimeout(() => this.#tick(), DAY_MS);
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
