import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AnswerOf } from '../../api/client.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { apiKey } from '../../data/keys.ts';
import { docKind } from '../entries/doc-kind.ts';

export interface EntryName {
  /** what a person calls the document: "Invoice FV-2026-0001", or its title */
  label: string;
  title: string;
}

const NAMES_PER_CALL = 100;

/**
 * What to call the entries of a list of jobs (or results), by id: the document's
 * kind and number (series-code), else its title. Fetched through the query cache in
 * calls of up to 100 ids (sorted, so the same ids share a call); an id the service
 * does not know (another company's, a deleted entry) gets no name, and the caller
 * shows a short id instead. A job that numbers its document renames it: its end
 * makes the names stale (useJobEnds).
 */
export function useEntryNames(ids: readonly string[]): ReadonlyMap<string, EntryName> {
  const api = useApi();
  const key = [...new Set(ids)].sort().join(',');
  const calls = useMemo(() => {
    const wanted = key ? key.split(',') : [];
    const chunks: string[] = [];
    for (let i = 0; i < wanted.length; i += NAMES_PER_CALL) chunks.push(wanted.slice(i, i + NAMES_PER_CALL).join(','));
    return chunks;
  }, [key]);
  return useQueries({
    queries: calls.map((chunk) => ({
      queryKey: apiKey('entryNames', { query: { ids: chunk } }),
      queryFn: () => api.entryNames({ query: { ids: chunk } }),
    })),
    combine: namesOf,
  });
}

/** Names are a nicety: a call that failed leaves its ids shown as they are. */
function namesOf(results: ReadonlyArray<{ data?: AnswerOf<'entryNames'> }>): ReadonlyMap<string, EntryName> {
  const found = new Map<string, EntryName>();
  for (const result of results) {
    for (const n of result.data?.list ?? []) {
      const kind = docKind(n.doc_schema, n.type);
      found.set(n.id, { label: n.number ? `${kind} ${n.number}` : n.title || kind, title: n.title });
    }
  }
  return found;
}

/** An entry's name, or the start of its id while the name is unknown. */
export const entryLabel = (names: ReadonlyMap<string, EntryName>, id: string): string => names.get(id)?.label ?? `${id.slice(0, 8)}…`;
