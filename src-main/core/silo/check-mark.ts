import { hash } from 'node:crypto';
import type { EngineFault } from '../gobl/engine/index.ts';
import { ENGINE_REVISION } from '../gobl/engine/revision.ts';
import { parseFaults } from '../gobl/fault.ts';
import type { Dialect } from '../db/engine.ts';
import { documentText, packDocument, readableAs, type StoredDocument } from './packed-document.ts';
import { storedEnvSchema, storedSchema } from './stored-schema.ts';
import { storedSnippetText } from './stored-snippet.ts';

/** Migration 0021 (PostgreSQL 0006): a nullable column, so adding it rewrites no row on either engine. */
export const ENTRY_CHECK_MARK = 'ALTER TABLE entries ADD COLUMN checked TEXT';

/**
 * An entry's `checked` column: that its `faults` are what GOBL's engine, at this
 * revision, found checking its `data` as stored (GOBL's check costs about 0.4 ms; a
 * workflow's gobl.validate and silo.close need not run it again on a document nobody
 * changed). It is a hash of the revision, the faults and the document, so it stands
 * for those exact texts: a write that changes either without marking them anew (or an
 * engine of another revision) leaves a mark that no longer matches, and the document is
 * checked again. Nothing but a check by the engine marks a document.
 *
 * 11 characters of base64url (66 bits): the mark guards against a stale verdict, not an
 * adversary (whoever can write the row can write the faults), and rows marked before
 * with 22 still match (11 bytes of every entry less).
 */
export function checkMark(data: string, faults: string, revision: string = ENGINE_REVISION): string {
  return markOf(data, faults, revision).slice(0, MARK_LENGTH);
}

const MARK_LENGTH = 11;
const MARK_LENGTH_BEFORE = 22;

// One call over the joined text: the same bytes hashed as by three updates, without a Hash object.
const markOf = (data: string, faults: string, revision: string): string => hash('sha256', `${revision}\u0000${faults}\u0000${data}`, 'base64url');

/** Whether a row's mark is the one its document and faults make now, in either stored length. */
function marked(row: { id: string; data: StoredDocument; faults: string; checked: string | null }): boolean {
  const length = row.checked?.length;
  if (length !== MARK_LENGTH && length !== MARK_LENGTH_BEFORE) return false;
  return row.checked === markOf(documentText(row.data, row.id), row.faults, ENGINE_REVISION).slice(0, length);
}

/** What the engine found in the stored document, when the entry's mark says so; undefined when it must be checked. */
export function standingVerdict(row: { id: string; data: StoredDocument; faults: string; checked: string | null }): EngineFault[] | undefined {
  if (!marked(row)) return undefined;
  return parseFaults(row.faults).map(({ code, message, paths, stated, calculated }) => ({
    code,
    message,
    paths,
    ...(stated !== undefined ? { stated } : {}),
    ...(calculated !== undefined ? { calculated } : {}),
  }));
}

/**
 * What the row of entry `entryId` on `dialect` stores of a derived document: its text
 * packed (the stored bytes as they are when it was read unchanged, unless they are packed
 * for another entry), its faults, the mark over the
 * text, made only when the faults are the engine's verdict on it (null otherwise: a
 * writer keeping a stored mark decides that itself), and its snippet and schemas in the
 * forms a row keeps them (stored-snippet.ts, stored-schema.ts). Every writer of an
 * entry row takes them from here.
 */
export function documentColumns(
  doc: {
    envelope: unknown;
    faults: unknown;
    checked: boolean;
    text?: string;
    stored?: StoredDocument;
    docSchema: string;
    envSchema: string;
    snippet: Record<string, string>;
  },
  entryId: string,
  dialect: Dialect,
): { data: StoredDocument; faults: string; checked: string | null; doc_schema: string; env_schema: string; snippet: string } {
  const text = doc.text ?? JSON.stringify(doc.envelope);
  const faults = JSON.stringify(doc.faults);
  const keep = doc.text !== undefined && doc.stored !== undefined && readableAs(doc.stored, entryId);
  const data = keep ? doc.stored! : packDocument(dialect, text, entryId);
  return {
    data,
    faults,
    checked: doc.checked ? checkMark(text, faults) : null,
    doc_schema: storedSchema(doc.docSchema),
    env_schema: storedEnvSchema(doc.envSchema),
    snippet: storedSnippetText(doc.snippet, dialect),
  };
}
