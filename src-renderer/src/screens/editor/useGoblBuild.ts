import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ApiClient } from '../../api/client.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { useDebounced } from '../../app/useDebounced.ts';
import { apiKey } from '../../data/keys.ts';
import type { Json } from '../entry/gobl.ts';
import { faultsOfError, type EditorFault } from './fault-fields.ts';

/** Typing pauses this long before the engine is asked (one build per pause, not per key). */
const BUILD_DELAY_MS = 300;

export interface BuildState {
  /** the document as GOBL builds it: line sums, taxes, totals (also while it still has faults) */
  built?: Json;
  faults: EditorFault[];
  /** a build is asked for or under way */
  busy: boolean;
  /** the engine could not be asked (service unreachable) */
  error?: unknown;
}

/**
 * The document as GOBL builds it: first as it stands, which answers GOBL's faults when it
 * has any; then, for those, as a draft, which still answers the figures.
 */
async function buildAsTyped(api: ApiClient, data: Json): Promise<{ built?: Json; faults: EditorFault[] }> {
  try {
    const answer = await api.buildGobl({ body: { data } });
    return { built: answer.data ?? undefined, faults: [] };
  } catch (error) {
    const faults = faultsOfError(error);
    if (faults.length === 0) throw error;
    try {
      return { built: (await api.buildGobl({ body: { data, draft: true } })).data ?? undefined, faults };
    } catch {
      // GOBL cannot build it at all yet (no lines, an unknown currency): figures wait
      return { faults };
    }
  }
}

/**
 * Calculates the document as the user types, with the GOBL engine in the service
 * (POST /silo/v1/gobl/build), through the query cache keyed by the document: an answer
 * for a document that has changed since is never shown, the same document is asked
 * once, and the last figures stay while the next build runs or when one cannot build.
 */
export function useGoblBuild(doc: Json): BuildState {
  const api = useApi();
  const text = JSON.stringify(doc);
  const settled = useDebounced(text, BUILD_DELAY_MS);
  const query = useQuery({
    queryKey: apiKey('buildGobl', settled, 'as-typed'),
    queryFn: () => buildAsTyped(api, JSON.parse(settled) as Json),
    placeholderData: keepPreviousData,
    gcTime: 30_000,
  });
  const built = query.data?.built;
  const [lastBuilt, setLastBuilt] = useState<Json>();
  useEffect(() => {
    if (built) setLastBuilt(built);
  }, [built]);
  return { built: built ?? lastBuilt, faults: query.data?.faults ?? [], busy: query.isFetching || settled !== text, error: query.error ?? undefined };
}
