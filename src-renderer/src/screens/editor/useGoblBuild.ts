import { useEffect, useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { useDebounced } from '../../app/useDebounced.ts';
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
 * Calculates the document as the user types, with the GOBL engine in the service
 * (POST /silo/v1/gobl/build): first as it stands, which answers GOBL's faults when it
 * has any; then, for those, as a draft, which still answers the figures. An answer
 * that arrives after the document changed again is dropped.
 */
export function useGoblBuild(doc: Json): BuildState {
  const api = useApi();
  const text = JSON.stringify(doc);
  const settled = useDebounced(text, BUILD_DELAY_MS);
  const [state, setState] = useState<BuildState>({ faults: [], busy: true });

  useEffect(() => {
    let current = true;
    const data = JSON.parse(settled) as Json;
    setState((s) => ({ ...s, busy: true }));
    (async () => {
      try {
        const answer = await api.buildGobl({ body: { data } });
        if (current) setState({ built: answer.data ?? undefined, faults: [], busy: false });
      } catch (error) {
        const faults = faultsOfError(error);
        if (faults.length === 0) {
          if (current) setState((s) => ({ ...s, busy: false, error }));
          return;
        }
        let built: Json | undefined;
        try {
          built = (await api.buildGobl({ body: { data, draft: true } })).data ?? undefined;
        } catch {
          // GOBL cannot build it at all yet (no lines, an unknown currency): figures wait
        }
        if (current) setState((s) => ({ built: built ?? s.built, faults, busy: false }));
      }
    })();
    return () => {
      current = false;
    };
  }, [api, settled]);

  return { ...state, busy: state.busy || settled !== text };
}
