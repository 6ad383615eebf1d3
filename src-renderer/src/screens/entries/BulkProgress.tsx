import { formatCount } from '../../format/count.ts';
import type { BulkRun } from './bulk.ts';

/** The progress bar of a bulk action, announced as it moves. */
export function BulkProgress({ run }: { run: BulkRun }) {
  if (!run.running) return null;
  return (
    <div className="bulk-progress" role="status">
      <div className="bulk-progress-label">
        <span>{run.phase}</span>
        {run.total > 0 && (
          <span className="muted">
            {formatCount(run.done)} / {formatCount(run.total)}
          </span>
        )}
      </div>
      <progress aria-label={run.phase} max={run.total || undefined} value={run.total ? run.done : undefined} />
    </div>
  );
}
