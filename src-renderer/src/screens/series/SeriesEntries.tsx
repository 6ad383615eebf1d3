import { Fragment, useMemo, useState } from 'react';
import type { Series } from '../../api/types.ts';
import { entryHref } from '../../app/routes.ts';
import { cursorPages, rowsOf, usePages } from '../../data/queries.ts';
import { formatDateTime } from '../../format/date.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { decodeJws } from './jws.ts';

interface SeriesEntriesProps {
  series: Series;
  brokenId?: string;
  knownKeys: ReadonlySet<string>;
}

/** The numbers a series has issued, newest first, each with its signatures decoded on demand. */
export function SeriesEntries({ series, brokenId, knownKeys }: SeriesEntriesProps) {
  const pages = usePages(cursorPages('listSeriesEntries', { params: { series_id: series.id }, query: { ascending: false, limit: 50 } }));
  const entries = useMemo(() => (pages.data ? rowsOf(pages.data) : undefined), [pages.data]);
  const error = pages.error;
  const [open, setOpen] = useState<string>();

  if (error) return <ErrorNotice error={error} onRetry={() => void pages.refetch()} />;
  if (entries && entries.length === 0) return <EmptyState icon="hash" title="No numbers issued yet">Issue one by hand, or number invoices with a workflow step (sequence.enumerate).</EmptyState>;

  return (
    <>
      <table className="data-table series-entries">
        <caption className="visually-hidden">Issued numbers</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Code</th>
            <th scope="col">Issued</th>
            <th scope="col">For</th>
            <th scope="col">Signatures</th>
          </tr>
        </thead>
        <tbody>
          {(entries ?? []).map((e) => {
            const shown = open === e.id;
            const siloEntry = e.meta.silo_entry_id;
            const notes = Object.entries(e.meta).filter(([k]) => !['silo_entry_id', 'job_id', 'step_id'].includes(k));
            return (
              <Fragment key={e.id}>
                <tr className={e.id === brokenId ? 'is-broken' : undefined} id={`series-entry-${e.id}`}>
                  <td className="num">{e.index}</td>
                  <td className="strong mono">{e.code}</td>
                  <td className="nowrap">{formatDateTime(e.created_at)}</td>
                  <td>
                    {siloEntry && <a href={entryHref(siloEntry)}>Open the document</a>}
                    {notes.map(([k, v]) => (
                      <span key={k} className="stack">
                        <span className="muted">{k}:</span> {v}
                      </span>
                    ))}
                    {!siloEntry && notes.length === 0 && <span className="muted">—</span>}
                  </td>
                  <td>
                    <button type="button" className="btn btn-sm btn-ghost" aria-expanded={shown} onClick={() => setOpen(shown ? undefined : e.id)}>
                      <Icon name={shown ? 'down' : 'right'} /> {e.sigs.length} {e.sigs.length === 1 ? 'signature' : 'signatures'}
                    </button>
                  </td>
                </tr>
                {shown && (
                  <tr className="sig-row">
                    <td colSpan={5}>
                      {e.sigs.map((sig, i) => (
                        <Signature key={i} token={sig} label={i === 0 ? 'Issuer signature' : 'Client signature'} knownKeys={knownKeys} />
                      ))}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {pages.hasNextPage && (
        <button type="button" className="btn load-more" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}>
          Load more
        </button>
      )}
    </>
  );
}

function Signature({ token, label, knownKeys }: { token: string; label: string; knownKeys: ReadonlySet<string> }) {
  const decoded = decodeJws(token);
  if (!decoded) return <p className="negative">{label}: not a readable JWS</p>;
  const kid = typeof decoded.header.kid === 'string' ? decoded.header.kid : undefined;
  const payload = decoded.payload as Record<string, unknown>;
  return (
    <div className="signature">
      <h4>
        {label} <span className="muted">{String(decoded.header.alg ?? '')}</span>
        {kid && (knownKeys.has(kid) ? <span className="badge tone-good">key of this instance</span> : <span className="badge tone-warn">other key</span>)}
      </h4>
      <dl className="kv">
        <dt>Key</dt>
        <dd className="mono">{kid ?? '—'}</dd>
        {typeof payload === 'object' && payload !== null ? (
          Object.entries(payload).map(([k, v]) => (
            <div key={k} className="contents">
              <dt>{k}</dt>
              <dd className="mono">{typeof v === 'string' ? v || '—' : JSON.stringify(v)}</dd>
            </div>
          ))
        ) : (
          <>
            <dt>Payload</dt>
            <dd className="mono">{String(decoded.payload)}</dd>
          </>
        )}
        <dt>Signature</dt>
        <dd className="mono sig-value">{decoded.signature}</dd>
      </dl>
    </div>
  );
}
