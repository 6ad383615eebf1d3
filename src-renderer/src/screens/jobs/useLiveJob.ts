import { useEffect, useState } from 'react';
import type { Job } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { notifyChanged, notifyEntryChanged } from '../../app/changes.ts';

/** Seconds each long-poll may hold: short, so steps and events show as they happen. */
const WAIT_SECONDS = 1;

export const jobFinished = (job: Job): boolean => !!job.completed_at;

/**
 * A job, kept current: fetched once, then long-polled with `?wait=` until it ends.
 * The service answers a wait as soon as the job completes, so the end shows at once;
 * in between, each answer brings the intents and events so far.
 */
export function useLiveJob(jobId: string | undefined, initial?: Job) {
  const api = useApi();
  const [job, setJob] = useState<Job | undefined>(initial);
  const [error, setError] = useState<unknown>();
  const [restart, setRestart] = useState(0);

  useEffect(() => {
    if (!jobId) return;
    let live = true;
    setError(undefined);
    // Seen unfinished (here, or as started by the caller): its end changes what other screens show.
    let sawRunning = !!initial && initial.id === jobId && !jobFinished(initial);
    (async () => {
      let wait = 0;
      while (live) {
        try {
          const next = await api.getJob({ params: { id: jobId }, query: wait ? { wait } : {} });
          if (!live) return;
          setJob(next);
          setError(undefined);
          if (jobFinished(next)) {
            // What it did (state, folder, tags, files) shows elsewhere too.
            if (sawRunning) {
              notifyEntryChanged(next.silo_entry_id);
              notifyChanged('folders', 'jobs', 'series');
            }
            return;
          }
          sawRunning = true;
          wait = WAIT_SECONDS;
        } catch (err) {
          if (!live) return;
          setError(err);
          await new Promise((resolve) => setTimeout(resolve, 3000));
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [api, jobId, restart]);

  // A job of an earlier id must not show while the new one loads.
  const current = job && job.id === jobId ? job : initial;
  return { job: current, error, setJob, refresh: () => setRestart((n) => n + 1) };
}
