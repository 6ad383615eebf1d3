import { useMemo } from 'react';
import type { Workflow } from '../../api/types.ts';
import { useApiQuery } from '../../app/useApiQuery.ts';
import { useChangeVersion } from '../../app/changes.ts';

/** Workflows by id, to name them wherever a job shows (one list call, refreshed when workflows change). */
export function useWorkflows() {
  const version = useChangeVersion('workflows');
  const query = useApiQuery(async (api) => {
    const all: Workflow[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listWorkflows({ query: { limit: 100, cursor } });
      all.push(...page.list);
      cursor = page.next_cursor || undefined;
    } while (cursor && all.length < 1000);
    return all;
  }, [version]);
  const byId = useMemo(() => new Map((query.data ?? []).map((w) => [w.id, w])), [query.data]);
  return { workflows: query.data, byId, error: query.error, loading: query.loading };
}
