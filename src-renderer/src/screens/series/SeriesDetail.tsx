import { useMemo, useState } from 'react';
import type { Series } from '../../api/types.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatCount } from '../../format/count.ts';
import { formatDateTime } from '../../format/date.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { seriesCode } from './code-preview.ts';
import { IssueDialog } from './IssueDialog.tsx';
import { SeriesEntries } from './SeriesEntries.tsx';
import { SeriesForm } from './SeriesForm.tsx';

/** One series: its numbering, whether its chain verifies, and the numbers it issued (all fetched again when it issues one: invalidation.ts). */
export function SeriesDetail({ series }: { series: Series }) {
  const [issuing, setIssuing] = useState(false);
  const [editing, setEditing] = useState(false);
  const verify = useApiQuery('verifySeries', { params: { id: series.id } });
  const keys = useApiQuery('getKeys');
  const knownKeys = useMemo(() => new Set((keys.data?.keys ?? []).map((k) => k.kid)), [keys.data]);
  const next = series.last_entry_id ? series.last_index + 1 : series.start;
  const result = verify.data;

  return (
    <div className="series-detail">
      <div className="page-header">
        <div>
          <h1>
            {series.name} {series.code && <span className="badge tone-info">{series.code}</span>}
          </h1>
          {series.description && <p>{series.description}</p>}
        </div>
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setIssuing(true)}>
            <Icon name="plus" /> Issue {seriesCode(series, next)}
          </button>
        </div>
      </div>

      <div className="series-facts">
        <div className="card card-body">
          <h2 className="section-title">Numbering</h2>
          <p className="preview-code">{seriesCode(series, next)}</p>
          <p className="muted">
            next · {series.prefix ? `prefix “${series.prefix}”, ` : ''}
            {series.padding} digits{series.suffix ? `, suffix “${series.suffix}”` : ''}, from {series.start}
          </p>
        </div>
        <div className="card card-body">
          <h2 className="section-title">Issued</h2>
          <p className="big-number">{formatCount(series.last_entry_id ? series.last_index - series.start + 1 : 0)}</p>
          <p className="muted">{series.last_entry_id ? `last ${seriesCode(series, series.last_index)} · ${formatDateTime(series.updated_at)}` : 'none yet'}</p>
        </div>
        <div className={`card card-body verify ${result ? (result.valid ? 'is-valid' : 'is-broken') : ''}`} aria-live="polite">
          <h2 className="section-title">Chain</h2>
          {verify.error ? (
            <ErrorNotice error={verify.error} />
          ) : !result ? (
            <p className="muted">Verifying…</p>
          ) : result.valid ? (
            <p className="verify-state">
              <Icon name="shield" /> Verified · {formatCount(result.count)} {result.count === 1 ? 'entry' : 'entries'} intact
            </p>
          ) : (
            <p className="verify-state">
              <Icon name="alert" /> Broken at <a href={`#series-entry-${result.broken?.id}`}>{result.broken?.id.slice(0, 8)}…</a>: {result.broken?.reason}
            </p>
          )}
          <button type="button" className="btn btn-sm" onClick={() => void verify.refetch()} disabled={verify.isFetching}>
            <Icon name="refresh" /> Verify again
          </button>
        </div>
      </div>

      <h2 className="list-heading">Issued numbers</h2>
      <SeriesEntries series={series} brokenId={result?.valid === false ? result.broken?.id : undefined} knownKeys={knownKeys} />

      <IssueDialog
        series={series}
        open={issuing}
        onClose={() => setIssuing(false)}
        onIssued={() => setIssuing(false)}
      />
      <Dialog open={editing} title={`Edit ${series.name}`} onClose={() => setEditing(false)} wide>
        <SeriesForm
          series={series}
          onCancel={() => setEditing(false)}
          onSaved={() => setEditing(false)}
        />
      </Dialog>
    </div>
  );
}
