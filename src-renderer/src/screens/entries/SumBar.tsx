import { useMemo } from 'react';
import type { Entry } from '../../api/types.ts';
import { useApiQuery } from '../../data/queries.ts';
import { plural } from '../../format/count.ts';
import { formatMoney, isNegative } from '../../format/money.ts';
import { sumsByCurrency, type CurrencySums } from './amounts.ts';
import { filterQuery, type EntryFilters } from './filters.ts';

interface SumBarProps {
  /** the selected rows, when the selection is the loaded ones */
  rows: readonly Entry[];
  /** every entry matching the filters is selected: the service adds them up */
  allMatching: boolean;
  filters: EntryFilters;
}

/**
 * The sums of the selection, per currency: net, tax and total, a credit note counted
 * negative. Loaded rows are added here exactly; "all matching" asks the service, which
 * adds every match the same way.
 */
export function SumBar({ rows, allMatching, filters }: SumBarProps) {
  const local = useMemo(() => (allMatching ? [] : sumsByCurrency(rows)), [allMatching, rows]);
  const remote = useApiQuery('sumEntries', { query: { ...filterQuery(filters), q: filters.q || undefined } }, { enabled: allMatching });
  const sums: CurrencySums[] = allMatching ? (remote.data?.list ?? []) : local;
  const loading = allMatching && remote.isFetching && !remote.data;
  if (!loading && sums.length === 0) return null;
  return (
    <section className="sum-bar" aria-label="Totals of the selected entries" aria-live="polite">
      {loading ? (
        <span className="muted">Adding up the selection…</span>
      ) : (
        sums.map((s) => (
          <div key={s.currency} className="sum-line" data-currency={s.currency}>
            <span className="sum-label">
              Σ {plural(s.count, 'entry', 'entries')} in {s.currency}
            </span>
            <Amount label="Net" value={s.net} currency={s.currency} />
            <Amount label="Tax" value={s.tax} currency={s.currency} />
            <Amount label="Total" value={s.total} currency={s.currency} strong />
          </div>
        ))
      )}
    </section>
  );
}

function Amount({ label, value, currency, strong }: { label: string; value: string; currency: string; strong?: boolean }) {
  return (
    <span className="sum-amount">
      <span className="muted">{label}</span>{' '}
      <span className={`num${isNegative(value) ? ' negative' : ''}${strong ? ' strong' : ''}`}>{formatMoney(value, currency)}</span>
    </span>
  );
}
