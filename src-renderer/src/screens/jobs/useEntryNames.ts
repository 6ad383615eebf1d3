import { useEffect, useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { docKind } from '../entries/doc-kind.ts';

export interface EntryName {
  /** what a person calls the document: "Invoice FV-2026-0001", or its title */
  label: string;
  title: string;
}

const NAMES_PER_CALL = 100;

/**
 * What to call the entries of a list of jobs (or results), by id: the document's
 * kind and number (series-code), else its title. Fetched in calls of up to 100
 * ids; an id the service does not know (another company's, a deleted entry) gets
 * no name, and the caller shows a short id instead. A change of `version` asks again
 * (a job that numbered its document renames it).
 */
export function useEntryNames(ids: readonly string[], version: unknown = 0): ReadonlyMap<string, EntryName> {
  const api = useApi();
  const [names, setNames] = useState<ReadonlyMap<string, EntryName>>(new Map());
  const key = [...new Set(ids)].sort().join(',');
  useEffect(() => {
    const wanted = key ? key.split(',') : [];
    if (wanted.length === 0) return;
    let current = true;
    (async () => {
      const found = new Map<string, EntryName>();
      for (let i = 0; i < wanted.length; i += NAMES_PER_CALL) {
        const page = await api.entryNames({ query: { ids: wanted.slice(i, i + NAMES_PER_CALL).join(',') } });
        for (const n of page.list) {
          const kind = docKind(n.doc_schema, n.type);
          found.set(n.id, { label: n.number ? `${kind} ${n.number}` : n.title || kind, title: n.title });
        }
      }
      if (current) setNames(found);
    })().catch(() => {
      // Names are a nicety: the ids stay shown.
    });
    return () => {
      current = false;
    };
  }, [api, key, version]);
  return names;
}

/** An entry's name, or the start of its id while the name is unknown. */
export const entryLabel = (names: ReadonlyMap<string, EntryName>, id: string): string => names.get(id)?.label ?? `${id.slice(0, 8)}…`;
