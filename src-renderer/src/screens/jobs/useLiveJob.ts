import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Job } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { apiKey } from '../../data/keys.ts';
import { jobFinished, useJobEnds } from './useJobEnds.ts';

export { jobFinished } from './useJobEnds.ts';

/** Seconds each long-poll may hold: short, so steps and events show as they happen. */
const WAIT_SECONDS = 1;
/** The next long-poll starts this soon after an answer. */
const NEXT_POLL_MS = 100;
/** After a failed poll, the next one waits this long. */
const ERROR_POLL_MS = 3000;

/**
 * A job, kept current in the query cache: fetched once, then long-polled with `?wait=`
 * until it ends. The service answers a wait as soon as the job completes, so the end
 * shows at once; in between, each answer brings the intents and events so far.
 */
export function useLiveJob(jobId: string | undefined, initial?: Job) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = apiKey('getJob', { params: { id: jobId } });
  const query = useQuery({
    queryKey: key,
    enabled: jobId !== undefined,
    initialData: initial && initial.id === jobId ? initial : undefined,
    queryFn: () => {
      const shown = queryClient.getQueryData<Job>(key);
      // Once seen unfinished, each call waits for something to happen (or the job to end).
      return api.getJob({ params: { id: jobId! }, query: shown && !jobFinished(shown) ? { wait: WAIT_SECONDS } : {} });
    },
    refetchInterval: (q) => (q.state.status === 'error' ? ERROR_POLL_MS : q.state.data && jobFinished(q.state.data) ? false : NEXT_POLL_MS),
    refetchIntervalInBackground: true,
  });
  const job = query.data;
  useJobEnds(useMemo(() => (job ? [job] : undefined), [job]));
  return { job, error: query.error ?? undefined, setJob: (next: Job) => queryClient.setQueryData(key, next) };
}
