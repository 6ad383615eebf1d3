import { useMemo } from 'react';
import { createdAtPages, rowsOf, useEveryPage } from '../../data/queries.ts';

/** Workflows are few: all of them, up to this many, are held to name them wherever a job shows. */
const WORKFLOWS_HELD = 1000;

/** Workflows by id, to name them wherever a job shows (paged as the hosted API pages them, refreshed when a workflow is saved). */
export function useWorkflows() {
  const pages = useEveryPage(createdAtPages('listWorkflows', { query: { limit: 100 } }), WORKFLOWS_HELD);
  const workflows = useMemo(() => (pages.data ? rowsOf(pages.data) : undefined), [pages.data]);
  const byId = useMemo(() => new Map((workflows ?? []).map((w) => [w.id, w])), [workflows]);
  // Every page is in: a workflow not among them does not exist.
  const complete = pages.isSuccess && !pages.hasNextPage;
  return { workflows, byId, error: pages.error ?? undefined, loading: pages.isFetching, complete };
}
