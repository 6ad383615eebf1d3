import { useMemo, useState } from 'react';
import type { AnswerOf } from '../../api/client.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref } from '../../app/routes.ts';
import { useSession } from '../../app/SessionContext.tsx';
import { cursorPages, rowsOf, usePages } from '../../data/queries.ts';
import { formatDateTime } from '../../format/date.ts';
import { Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { viaLabel } from '../trash/via.ts';
import './Audit.css';

type AuditRow = AnswerOf<'listAudit'>['list'][number];
type Via = 'http' | 'ipc' | 'sync' | 'workflow' | 'system';

const FAMILIES = [
  { value: '', label: 'Every change' },
  { value: 'entry', label: 'Entries' },
  { value: 'attachment', label: 'Files' },
  { value: 'meta', label: 'Meta' },
  { value: 'workflow', label: 'Workflows' },
  { value: 'series', label: 'Series' },
  { value: 'series_entry', label: 'Numbers issued' },
  { value: 'token', label: 'Tokens' },
  { value: 'settings', label: 'Settings' },
] as const;

const ORIGINS: Array<{ value: '' | Via; label: string }> = [
  { value: '', label: 'Anywhere' },
  { value: 'http', label: 'API (tokens)' },
  { value: 'ipc', label: 'Desktop app' },
  { value: 'sync', label: 'Sync' },
  { value: 'workflow', label: 'Workflows' },
  { value: 'system', label: 'Silodesk' },
];

/** `entry.trashed` → "Entry trashed". */
const actionText = (action: string): string => {
  const text = action.replace(/[._-]/g, ' ');
  return text[0].toUpperCase() + text.slice(1);
};

/** What a row is about, linked when it is an entry or one of its files. */
function Target({ row }: { row: AuditRow }) {
  const { kind, id } = row.target;
  const title = typeof row.detail.title === 'string' && row.detail.title ? row.detail.title : undefined;
  const gone = row.action === 'entry.purged' || row.action === 'entry.deleted';
  if (kind === 'entry' && gone) return <span title={id}>{title ?? `${id.slice(0, 8)}…`}</span>;
  if (kind === 'entry') return <a href={entryHref(id)} title={id}>{title ?? `${id.slice(0, 8)}…`}</a>;
  if (kind === 'attachment' || kind === 'meta') {
    const [entryId, ...rest] = id.split(':');
    return (
      <>
        {rest.join(':')} on <a href={entryHref(entryId, kind === 'attachment' ? 'files' : 'meta')}>{`${entryId.slice(0, 8)}…`}</a>
      </>
    );
  }
  return <span className="mono" title={id}>{id.length > 24 ? `${id.slice(0, 8)}…` : id}</span>;
}

/**
 * The company's audit log (owners only): every change, who made it, when, what and
 * from where, newest first. Append-only; "Verify" checks its hash chain end to end.
 */
export function AuditLog() {
  const { session } = useSession();
  const api = useApi();
  const [family, setFamily] = useState('');
  const [via, setVia] = useState<(typeof ORIGINS)[number]['value']>('');
  const owner = session?.caller.kind === 'owner';
  const pages = usePages(cursorPages('listAudit', { query: { limit: 25, action: family || undefined, via: via || undefined } }), { enabled: owner, keepShown: true });
  const rows = useMemo(() => (pages.data ? rowsOf(pages.data) : undefined), [pages.data]);
  const [verdict, setVerdict] = useState<AnswerOf<'verifyAudit'>>();
  const [verifyError, setVerifyError] = useState<unknown>();

  if (!owner) return null;
  return (
    <section className="card settings-card" aria-labelledby="audit-title">
      <div className="card-header">
        <h2 id="audit-title">Audit log</h2>
        <button
          type="button"
          className="btn btn-sm"
          onClick={async () => {
            setVerifyError(undefined);
            try {
              setVerdict(await api.verifyAudit());
            } catch (err) {
              setVerifyError(err);
            }
          }}
        >
          Verify
        </button>
      </div>
      <div className="card-body settings-body">
        <p className="muted">Every change to this company, who made it and from where. Nothing in it can be changed or removed.</p>
        {verdict && (
          <p role="status" className={verdict.ok ? 'audit-verdict is-ok' : 'audit-verdict is-bad'}>
            {verdict.ok
              ? `All ${verdict.count} records are intact: each follows from the one before.`
              : `Record ${verdict.broken_at} does not follow from the one before it: the log was altered outside Silodesk.`}
          </p>
        )}
        <ErrorNotice error={verifyError ?? pages.error} />
        <div className="audit-filters">
          <label>
            Show
            <select className="select" value={family} onChange={(event) => setFamily(event.target.value)}>
              {FAMILIES.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            From
            <select className="select" value={via} onChange={(event) => setVia(event.target.value as typeof via)}>
              {ORIGINS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {!rows ? (
          <Loading label="Reading the log…" />
        ) : rows.length === 0 ? (
          <p className="muted">No change recorded yet{family || via ? ' of this kind' : ''}.</p>
        ) : (
          <table className="data-table audit-table">
            <caption className="visually-hidden">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">On</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.seq}>
                  <td className="nowrap">{formatDateTime(row.at)}</td>
                  <td>
                    <span>{row.actor.name}</span> <span className="muted">{viaLabel(row.via)}</span>
                  </td>
                  <td>
                    {actionText(row.action)}
                    {typeof row.detail.version === 'string' && <span className="muted"> (version {row.detail.version})</span>}
                  </td>
                  <td className="audit-target">
                    <Target row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {pages.hasNextPage && (
          <button type="button" className="btn btn-sm load-more" disabled={pages.isFetching} onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}>
            Older changes
          </button>
        )}
      </div>
    </section>
  );
}
