import { derivedPartsOffLoop, type DerivedParts } from '../gobl/engine-thread/index.ts';
import { derivedPartsOf } from '../gobl/engine-thread/ahead.ts';
import { parseFaults } from '../gobl/fault.ts';
import { isLargeStored, type DerivedDocument, type Envelope } from './document.ts';
import type { EntryRow } from './entry-view.ts';
import { documentText, sameStored, type StoredDocument } from './packed-document.ts';
import { digestOfRow, envSchemaFromStored, schemaFromStored } from './stored-schema.ts';
import { snippetFromStored } from './stored-snippet.ts';

/** What a write derives from a stored document, worked out ahead of it, and the stored bytes it was worked out of. */
export interface PartsAhead {
  from: StoredDocument;
  parts: DerivedParts;
}

/**
 * An entry's document as its row holds it, for a write that changes only its labels (a state, a
 * folder, tags, the trash): nothing parsed, nothing checked. Its faults, digest, schemas and
 * snippet are the row's. The envelope, and the parts a write derives from it (its mentions and
 * search text, rebuilt when the tags change or the entry leaves the trash), are worked out when
 * read, or taken from `ahead` when that was worked out of these very bytes (partsAhead).
 */
export function documentOfRow(row: EntryRow, ahead?: PartsAhead): DerivedDocument {
  const text = documentText(row.data, row.id);
  let envelope: Envelope | undefined;
  const read = () => (envelope ??= JSON.parse(text) as Envelope);
  let parts: DerivedParts | undefined = ahead && sameStored(ahead.from, row.data) ? ahead.parts : undefined;
  const derived = () => (parts ??= derivedPartsOf(read()));
  return {
    get envelope() {
      return read();
    },
    digest: digestOfRow(row),
    docSchema: schemaFromStored(row.doc_schema),
    docUuid: row.doc_uuid,
    envSchema: envSchemaFromStored(row.env_schema),
    signed: row.signed === 1,
    faults: parseFaults(row.faults),
    checked: false,
    text,
    stored: row.data,
    snippet: snippetFromStored(row.snippet),
    get mentions() {
      return derived().mentions;
    },
    get identity() {
      return derived().identity;
    },
    get references() {
      return derived().references;
    },
    get searchText() {
      return derived().searchText;
    },
  };
}

/**
 * The parts a labels-only write of `row` derives from its document, worked out ahead of the
 * write's transaction when it will need them (the tags change on a live entry, or it leaves
 * the trash) and the document is large: on the engine's thread, where 80 ms of walking a
 * 13,000-line invoice holds neither the event loop nor the database.
 */
export async function partsAhead(row: EntryRow, labels: { tags?: string[]; trashed?: string | null }): Promise<PartsAhead | undefined> {
  if (!isLargeStored(row.data) || !needsParts(row, labels)) return undefined;
  return { from: row.data, parts: await derivedPartsOffLoop(documentText(row.data, row.id)) };
}

/** Whether a labels-only write rebuilds what is derived from the document, as writeEntryChange decides it. */
function needsParts(row: EntryRow, labels: { tags?: string[]; trashed?: string | null }): boolean {
  const live = labels.trashed === undefined ? row.trashed_at === null : labels.trashed === null;
  if (!live) return false;
  if (row.trashed_at !== null) return true;
  return labels.tags !== undefined && JSON.stringify([...new Set(labels.tags)]) !== row.tags;
}
