import { useMemo } from 'react';
import type { Workflow } from '../../api/types.ts';
import { useApiQuery } from '../../app/useApiQuery.ts';
import { useChangeVersion } from '../../app/changes.ts';

/** Workflows by id, to name them wherever a job shows (one list call, refreshed when workflows change). */
export function useWorkflows() {
  const version = useChangeVersion('workflows');
  const query = useApiQuery(async (api) => {
    const all: Workflow[] = [];
    // Paged as the hosted API pages workflows: next_created_at goes back as created_at.
    let createdAt: string | undefined;
    do {
      const page = await api.listWorkflows({ query: { limit: 100, created_at: createdAt } });
      all.push(...page.list);
      createdAt = page.next_created_at || undefined;
    } while (createdAt && all.length < 1000);
    return all;
  }, [version]);
  const byId = useMemo(() => new Map((query.data ?? []).map((w) => [w.id, w])), [query.data]);
  return { workflows: query.data, byId, error: query.error, loading: query.loading };
}
