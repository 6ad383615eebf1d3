import type { Ctx } from '../api/handler.ts';
import { digestHolderSql } from './digest-prefix-index.ts';
import type { DerivedDocument } from './document.ts';

/** Silodesk's placeholder for an imported file (a PDF, a scan): it names the file's SHA-256. */
export const SCAN_SCHEMA = 'https://silodesk.app/draft-0/scan';

export interface Twin {
  /** the entry of the company that already holds this document or file */
  id: string;
  by: 'digest' | 'file';
}

/** The SHA-256 of the file a scan placeholder stands for, when it is one. */
export function scannedFileHash(doc: DerivedDocument): string | undefined {
  const body = doc.envelope.doc as Record<string, unknown> | undefined;
  if (body?.$schema !== SCAN_SCHEMA) return undefined;
  return typeof body.sha256 === 'string' && /^[0-9a-f]{64}$/.test(body.sha256) ? body.sha256 : undefined;
}

// By the bytes' hash: the files' key leads with the company too, and a walk of all its files is no look-up.
const FILE_HOLDER = 'SELECT entry_id FROM attachments INDEXED BY attachments_hash WHERE hash = ? AND company_id = ? AND entry_id <> ? ORDER BY created_at LIMIT 1';
// Its twin on PostgreSQL, which has no INDEXED BY (its planner takes the hash index by itself).
const FILE_HOLDER_PG = 'SELECT entry_id FROM attachments WHERE hash = ? AND company_id = ? AND entry_id <> ? ORDER BY created_at LIMIT 1';

/**
 * Another entry of the company holding the same thing as `doc` would: the same document
 * (its digest), or for a scanned file the same bytes under any name (an attachment of
 * that hash, or a file met earlier in the same import, `seenFiles`). Index lookups only.
 */
export async function findTwin(ctx: Ctx, id: string, doc: DerivedDocument, seenFiles: ReadonlyMap<string, string>): Promise<Twin | undefined> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const hash = scannedFileHash(doc);
  if (hash) {
    const earlier = seenFiles.get(hash);
    if (earlier && earlier !== id) return { id: earlier, by: 'file' };
    const holder = await db.sqlFirst<{ entry_id: string }>(db.dialect === 'postgres' ? FILE_HOLDER_PG : FILE_HOLDER, [hash, company, id]);
    if (holder) return { id: holder.entry_id, by: 'file' };
  }
  const same = await db.sqlFirst<{ id: string }>(...digestHolderSql(db.dialect, company, doc.digest.val, id));
  return same ? { id: same.id, by: 'digest' } : undefined;
}
