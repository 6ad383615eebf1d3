import { entryHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDay } from '../../format/date.ts';
import { formatMoney } from '../../format/money.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { amountOf } from '../entries/amounts.ts';
import { docKind, docNumber } from '../entries/doc-kind.ts';

/** Entries whose documents mention this one: credit notes correcting it, payments settling it. */
export function RelatedEntries({ entryId }: { entryId: string }) {
  const related = useApiQuery('listRelated', { params: { id: entryId }, query: { limit: 50 } });
  const list = related.data?.list ?? [];
  return (
    <section className="related" aria-labelledby="related-title">
      <h3 className="section-title" id="related-title">
        Related entries
      </h3>
      <ErrorNotice error={related.error} />
      {related.data && list.length === 0 && <p className="muted">No other entry mentions this document.</p>}
      {list.length > 0 && (
        <ul className="plain-list related-list">
          {list.map((e) => (
            <li key={e.id}>
              <a href={entryHref(e.id)}>
                {docKind(e.doc_schema, e.snippet.type)} {docNumber(e.snippet) ?? e.snippet.title}
              </a>
              <span className="muted">
                {' '}
                {formatDay(e.snippet.issue_date)} {formatMoney(amountOf(e, 'total'), e.snippet.currency)}
                {e.context && ` · in ${e.context}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {related.data?.next_cursor && <p className="muted">The 50 most recent are shown.</p>}
    </section>
  );
}
