import { toApiError, conflict, type ErrorBody } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import { defaultFolderOf } from '../gobl/index.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { asWriter } from './audit-actor.ts';
import { documentColumns } from './check-mark.ts';
import { documentRowsOf, searchRowOf, writeDocumentRows, writeFreshSearchRows, type DerivedOf, type DocumentRows, type SearchRowLater } from './derived-index.ts';
import { findTwin, scannedFileHash, type Twin } from './duplicates.ts';
import { digestPrefix } from './digest-prefix-index.ts';
import { storedDigestAlg } from './stored-schema.ts';
import { commitEntry, issueDateOf, sameRequest, type PreparedEntry } from './entries.ts';
import { SORT_KEY_COLUMNS, sortKeysOf } from './sort-keys.ts';

export interface ImportResult {
  index: number;
  status: 'created' | 'exists' | 'duplicate' | 'error';
  id?: string;
  error?: ErrorBody;
  /** another entry of the company holds the same document (same digest) or the same file bytes */
  duplicate_of?: string;
  duplicate_by?: 'digest' | 'file';
}

/** What to do with a document the company holds already: store it again (flagged), or leave it out. */
export type OnDuplicate = 'store' | 'skip';

/** An item of an import, GOBL's work done: the entry to write, or why it cannot be. */
export interface PreparedItem {
  index: number;
  p?: PreparedEntry;
  error?: ErrorBody;
}

const COLUMNS = [
  'id', 'company_id', 'key', 'folder', 'state', 'context', 'draft', 'invalid', 'signed', 'doc_schema', 'doc_uuid', 'issue_date', 'env_schema',
  'digest_alg', 'digest_val', 'snippet', 'tags', 'faults', 'data', 'checked', 'request_hash', 'version', 'created_at', 'updated_at', ...SORT_KEY_COLUMNS,
] as const;
/**
 * The most entries one insert writes. An entry's insert (its triggers: the change log,
 * the counts, the sums) is a statement SQLite can undo alone, so it journals the pages
 * it changes for that, a dozen of them; one statement for many rows does it once for
 * all of them (measured: the same rows raw, 25 a statement, about 9 µs less each; in a
 * slice, the write 214-229 -> 204-219 µs an entry). Inserts of 32, 16, 8, 4, 2 and 1
 * rows are all there is, so a slice of any length takes six statements at most from
 * the cache (import.ts makes slices of about forty).
 */
const MAX_ROWS = 32;
const ROW = `(${COLUMNS.map(() => '?').join(', ')})`;
// In the VALUES' order, as single inserts would: their triggers record the changes in that order.
const INSERT_ENTRIES = new Map(
  [1, 2, 4, 8, 16, MAX_ROWS].map((n) => [n, `INSERT INTO entries (${COLUMNS.join(', ')}) VALUES ${Array(n).fill(ROW).join(', ')} RETURNING seq, id`]),
);
// The company's own ids only: another company may hold the same id (issue 12).
const EXISTING = 'SELECT id, request_hash FROM entries WHERE company_id = ? AND id IN (SELECT value FROM json_each(?))';
const KEY_HOLDERS = 'SELECT key, id FROM entries WHERE company_id = ? AND key IN (SELECT value FROM json_each(?))';
// The first entry holding each digest, as findTwin's index walk finds it (lowest seq).
// Along the index of digests' prefixes (digest-prefix-index.ts): the digests are sent twice, for it and for the row.
export const DIGEST_HOLDERS = `SELECT digest_val, id FROM entries WHERE company_id = ?
  AND ${digestPrefix('digest_val')} IN (SELECT ${digestPrefix('value')} FROM json_each(?)) AND digest_val IN (SELECT value FROM json_each(?))
  ORDER BY seq DESC`;
// Their twins on PostgreSQL, which reads the JSON array with jsonb_array_elements_text.
const EXISTING_PG = 'SELECT id, request_hash FROM entries WHERE company_id = ? AND id IN (SELECT jsonb_array_elements_text(?::jsonb))';
const KEY_HOLDERS_PG = 'SELECT key, id FROM entries WHERE company_id = ? AND key IN (SELECT jsonb_array_elements_text(?::jsonb))';
const DIGEST_HOLDERS_PG = `SELECT digest_val, id FROM entries WHERE company_id = ? AND digest_val IN (SELECT jsonb_array_elements_text(?::jsonb))
  ORDER BY seq DESC`;

/** An item of a slice to be written: its row, what its derived rows are made from, and the rows made. */
interface Planned {
  row: unknown[];
  entry: Omit<DerivedOf, 'seq'>;
  documentRows: DocumentRows;
  search: [title: string, body: string];
}

/**
 * Writes a slice of an import in the caller's transaction with what a bulk write
 * needs and nothing more: one look-up each for the ids, keys and digests of the whole
 * slice; then every item decided and its rows made; then, in the items' order, per
 * entry one insert of the whole row (sort columns included, so the row is written
 * once; its trigger records the change) and its derived rows (nothing to delete
 * first), and the slice's full-text rows after all its entries (derived-index.ts,
 * writeFreshSearchRows). Written apart from the work that makes them, the inserts run
 * one after another with the database's pages still in the processor's caches: the
 * entries insert cost 89-128 µs between the items' work, 68-77 µs so. Every refusal (a
 * conflict, a key in use, a duplicate to skip) is decided before anything of that item
 * is written, so no item needs a savepoint of its own. Should a write
 * fail anyway, this throws and the caller runs the slice again item by item
 * (commitOneByOne). Rows come out as commitEntry would write them
 * (test/api/perf-import.test.ts holds the two to the same rows).
 */
export async function commitSlice(ctx: Ctx, items: PreparedItem[], onDuplicate: OnDuplicate, seenFiles: Map<string, string>): Promise<ImportResult[]> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const postgres = db.dialect === 'postgres';
  const ready = items.filter((i): i is PreparedItem & { p: PreparedEntry } => i.p !== undefined);
  const existing = new Map(
    (await db.sql<{ id: string; request_hash: string }>(postgres ? EXISTING_PG : EXISTING, [company, JSON.stringify(ready.map((i) => i.p.id))])).map((r) => [r.id, r]),
  );
  const keys = ready.map((i) => i.p.input.key).filter((k): k is string => k !== undefined);
  const keyHolders = new Map(
    keys.length ? (await db.sql<{ key: string; id: string }>(postgres ? KEY_HOLDERS_PG : KEY_HOLDERS, [company, JSON.stringify(keys)])).map((r) => [r.key, r.id]) : [],
  );
  const digests = JSON.stringify(ready.map((i) => i.p.doc.digest.val));
  const digestHolders = new Map(
    (await db.sql<{ digest_val: string; id: string }>(postgres ? DIGEST_HOLDERS_PG : DIGEST_HOLDERS, postgres ? [company, digests] : [company, digests, digests]))
      .map((r) => [r.digest_val, r.id]),
  );
  let written = 0;
  const searchLater: SearchRowLater[] = [];
  // Items decided and their rows made, not written yet (writePlanned).
  const planned: Planned[] = [];

  const planItem = async ({ index, p, error }: PreparedItem): Promise<ImportResult> => {
    if (!p) return { index, status: 'error', error };
    const before = existing.get(p.id);
    if (before) {
      if (sameRequest(before.request_hash, p.requestHash)) return { index, status: 'exists', id: p.id };
      return { index, status: 'error', id: p.id, error: conflict(`entry ${p.id} already exists with a different body`).toBody() };
    }
    const hash = scannedFileHash(p.doc);
    // A scanned file is matched by its bytes too (rare: asked one by one, of the database with the items before it written); a document by its digest.
    if (hash) await writePlanned();
    const twin: Twin | undefined = hash
      ? await findTwin(ctx, p.id, p.doc, seenFiles)
      : digestHolders.has(p.doc.digest.val) ? { id: digestHolders.get(p.doc.digest.val)!, by: 'digest' } : undefined;
    if (twin && onDuplicate === 'skip') return { index, status: 'duplicate', duplicate_of: twin.id, duplicate_by: twin.by };
    const key = p.input.key;
    if (key !== undefined && keyHolders.has(key)) {
      return { index, status: 'error', id: p.id, error: conflict(`key ${JSON.stringify(key)} is already used by entry ${keyHolders.get(key)}`).toBody() };
    }

    const at = nowIso();
    const tags = [...new Set(p.input.tags ?? [])];
    const folder = p.input.folder ?? defaultFolderOf(p.doc.docSchema);
    const sortKeys = sortKeysOf(p.doc.snippet);
    const { doc } = p;
    const stored = documentColumns(doc, p.id, db.dialect);
    const entry = { id: p.id, company_id: company, created_at: at, folder, tags, fresh: true, sortKeysWritten: true };
    planned.push({
      row: [
        p.id, company, key ?? null, folder, p.input.state ?? (doc.signed ? 'completed' : 'draft'), '', doc.signed ? 0 : 1,
        doc.faults.length > 0 ? 1 : 0, doc.signed ? 1 : 0, stored.doc_schema, doc.docUuid, issueDateOf(doc), stored.env_schema,
        storedDigestAlg(doc.digest.alg), doc.digest.val, stored.snippet, JSON.stringify(tags), stored.faults,
        stored.data, stored.checked, p.requestHash, 1, at, at, ...SORT_KEY_COLUMNS.map((c) => sortKeys[c]),
      ],
      entry,
      documentRows: documentRowsOf(entry, doc),
      search: searchRowOf(doc, tags),
    });
    written++;
    // What this slice writes counts for the items after it, as it would one by one.
    existing.set(p.id, { id: p.id, request_hash: p.requestHash });
    if (key !== undefined) keyHolders.set(key, p.id);
    if (!digestHolders.has(doc.digest.val)) digestHolders.set(doc.digest.val, p.id);
    if (hash && !seenFiles.has(hash)) seenFiles.set(hash, p.id);
    return { index, status: 'created', id: p.id, ...(twin ? { duplicate_of: twin.id, duplicate_by: twin.by } : {}) };
  };

  // The rows, in the items' order, one statement after another with nothing worked out in between
  // (the database's pages stay in the processor's caches); the full-text rows once the slice's entries are all written.
  const writePlanned = async () => {
    for (let from = 0; from < planned.length; ) {
      let n = MAX_ROWS;
      while (n > planned.length - from) n >>= 1;
      const part = planned.slice(from, from + n);
      // RETURNING's rows come in no promised order: each entry's seq is found by its id (unique in the slice).
      const inserted = await db.sql<{ seq: number; id: string }>(INSERT_ENTRIES.get(n)!, part.flatMap((w) => w.row));
      const seqs = new Map(inserted.map((r) => [r.id, Number(r.seq)]));
      for (const { entry, documentRows, search } of part) {
        const fresh: DerivedOf = { ...entry, seq: seqs.get(entry.id)! };
        await writeDocumentRows(db, fresh, documentRows);
        searchLater.push({ entry: fresh, row: search });
      }
      from += n;
    }
    planned.length = 0;
  };

  // The caller at hand is who history and the audit log name for these writes.
  const results = await asWriter(db, ctx.caller, async () => {
    const out: ImportResult[] = [];
    for (const item of items) out.push(await planItem(item));
    await writePlanned();
    // The slice's full-text rows after all its entries: FTS5 then writes them as one segment (derived-index.ts).
    await writeFreshSearchRows(db, searchLater);
    return out;
  });
  db.wrote(written);
  return results;
}

/**
 * The slow and sure way, for a slice whose bulk write failed: each item in its own
 * savepoint, checked and written by commitEntry, so one item's failure undoes only
 * that item. Call inside a transaction.
 */
export async function commitOneByOne(ctx: Ctx, items: PreparedItem[], onDuplicate: OnDuplicate, seenFiles: Map<string, string>): Promise<ImportResult[]> {
  const { db } = ctx.service;
  const results: ImportResult[] = [];
  for (const { index, p, error } of items) {
    if (!p) {
      results.push({ index, status: 'error', error });
      continue;
    }
    try {
      const replay = await db.sqlFirst('SELECT id FROM entries WHERE company_id = ? AND id = ?', [ctx.caller.companyKey, p.id]);
      // The same id again is a replay or a conflict (commitEntry tells), never a duplicate.
      const twin = replay ? undefined : await findTwin(ctx, p.id, p.doc, seenFiles);
      if (twin && onDuplicate === 'skip') {
        results.push({ index, status: 'duplicate', duplicate_of: twin.id, duplicate_by: twin.by });
        continue;
      }
      const { row, created } = await db.tx(() => commitEntry(ctx, p), { origin: LOCAL });
      const hash = scannedFileHash(p.doc);
      if (hash && !seenFiles.has(hash)) seenFiles.set(hash, row.id);
      results.push({ index, status: created ? 'created' : 'exists', id: row.id, ...(twin ? { duplicate_of: twin.id, duplicate_by: twin.by } : {}) });
    } catch (err) {
      results.push({ index, status: 'error', id: p.id, error: toApiError(err).toBody() });
    }
  }
  return results;
}
