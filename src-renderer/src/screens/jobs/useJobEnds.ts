import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Job } from '../../api/types.ts';
import { invalidateAfter } from '../../data/query-client.ts';

/** Jobs poll this often while one shown is unfinished. */
export const JOB_POLL_MS = 2000;

export const jobFinished = (job: Job): boolean => !!job.completed_at;

/** A refetch interval for a read of jobs: poll while one of them is unfinished. */
export const pollWhileRunning = (jobs: readonly Job[] | undefined): number | false => (jobs?.some((j) => !jobFinished(j)) ? JOB_POLL_MS : false);

/**
 * A job seen running that has ended did what its workflow's steps do: set its entry's
 * state, folder and tags, attach files, number it from a series. That is what starting
 * a job writes (invalidation.ts), so the same reads go stale once the end is seen.
 */
export function useJobEnds(jobs: readonly Job[] | undefined): void {
  const queryClient = useQueryClient();
  const [running, setRunning] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (!jobs) return;
    const ended = jobs.some((j) => running.has(j.id) && jobFinished(j));
    const now = new Set(jobs.filter((j) => !jobFinished(j)).map((j) => j.id));
    if (ended) void invalidateAfter(queryClient, ['createJob']);
    if (now.size !== running.size || [...now].some((id) => !running.has(id))) setRunning(now);
  }, [jobs, running, queryClient]);
}
