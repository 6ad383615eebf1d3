// What the silo derives from a document to index it (mentions, identity, references, search
// text) and its JSON text, worked out on the engine thread beside a large document's verdict:
// for a 13,000-line invoice they are 80 ms of walking and writing that would otherwise follow
// the verdict on the service's thread.
import { mentionsOf, type Mention } from '../mentions.ts';
import { identityOf, referencesOf, type DocumentIdentity, type DocumentReference } from '../references.ts';
import { searchTextOf } from '../search-text.ts';

export interface DerivedParts {
  mentions: Mention[];
  identity: DocumentIdentity;
  references: DocumentReference[];
  searchText: string;
}

/** An envelope's JSON text (JSON.stringify's) and the parts derived from its document. */
export interface DerivedAhead {
  text: string;
  parts: DerivedParts;
}

export function derivedPartsOf(envelope: unknown): DerivedParts {
  const raw = typeof envelope === 'object' && envelope !== null ? (envelope as Record<string, unknown>).doc : undefined;
  const doc = typeof raw === 'object' && raw !== null ? raw : {};
  return { mentions: mentionsOf(doc), identity: identityOf(doc), references: referencesOf(doc), searchText: searchTextOf(doc) };
}
