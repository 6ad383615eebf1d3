import { navigate, routeHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { EmptyState, Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { seriesCode } from './code-preview.ts';
import { SeriesDetail } from './SeriesDetail.tsx';
import { SeriesForm } from './SeriesForm.tsx';
import './series.css';

/** Numbering series: the list on the left; the chosen one, or the form for a new one, on the right. */
export function SeriesScreen({ seriesId }: { seriesId?: string }) {
  const query = useApiQuery('listSeries');
  const list = query.data?.list ?? [];
  const isNew = seriesId === 'new';
  const current = seriesId && !isNew ? list.find((s) => s.id === seriesId) : undefined;

  return (
    <section className="screen" aria-label="Series">
      <div className="split">
        <nav className="split-list" aria-label="Series list">
          <div className="split-list-header">
            <h2>Series</h2>
            <a className="btn btn-sm btn-primary" href={routeHref({ screen: 'series', seriesId: 'new' })}>
              <Icon name="plus" /> New
            </a>
          </div>
          <ErrorNotice error={query.error} />
          {query.data && list.length === 0 && <p className="muted pick-hint">No series yet.</p>}
          <ul className="pick-list">
            {list.map((s) => (
              <li key={s.id}>
                <a href={routeHref({ screen: 'series', seriesId: s.id })} aria-current={s.id === seriesId ? 'page' : undefined}>
                  <span className="strong">{s.name}</span>
                  <span className="sub mono">next {seriesCode(s, s.last_entry_id ? s.last_index + 1 : s.start)}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="split-detail">
          <div className="page">
            {!query.data && !query.error ? (
              <Loading />
            ) : isNew ? (
              <>
                <div className="page-header">
                  <div>
                    <h1>New series</h1>
                    <p>Numbers documents without gaps; every number is signed and chained to the one before.</p>
                  </div>
                </div>
                <SeriesForm onSaved={(s) => navigate({ screen: 'series', seriesId: s.id }, { replace: true })} onCancel={() => navigate({ screen: 'series' })} />
              </>
            ) : current ? (
              <SeriesDetail key={current.id} series={current} />
            ) : seriesId ? (
              <EmptyState title="Series not found">Pick another from the list.</EmptyState>
            ) : (
              <EmptyState
                icon="hash"
                title={list.length ? 'Pick a series' : 'Number your documents'}
                actions={
                  <a className="btn btn-primary" href={routeHref({ screen: 'series', seriesId: 'new' })}>
                    <Icon name="plus" /> New series
                  </a>
                }
              >
                A series hands out invoice numbers in order, with no gaps, each signed and chained so any later change is detected.
              </EmptyState>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
