import { formatMoney, formatPercent } from '../../format/money.ts';
import { obj, objs, str, type Json } from '../entry/gobl.ts';

/** The figures GOBL calculates for the document: sums, taxes by rate and totals. */
export function TotalsPanel({ built, currency, busy }: { built?: Json; currency: string; busy: boolean }) {
  const totals = obj(built?.totals);
  const money = (value: unknown) => formatMoney(str(value), currency);
  const rows: Array<[string, string, string?]> = [];
  if (totals) {
    rows.push(['Sum of lines', money(totals.sum)]);
    if (str(totals.discount)) rows.push(['Discounts', `−${money(totals.discount)}`]);
    if (str(totals.charge)) rows.push(['Charges', money(totals.charge)]);
    if (str(totals.tax_included)) rows.push(['Tax included in prices', `−${money(totals.tax_included)}`]);
    rows.push(['Net', money(totals.total), 'net']);
    for (const category of objs(obj(totals.taxes)?.categories)) {
      const retained = category.retained === true;
      for (const rate of objs(category.rates)) {
        const what = [str(category.code), str(rate.percent) ? formatPercent(str(rate.percent)) : str(rate.key)].filter(Boolean).join(' ');
        rows.push([`${what} on ${money(rate.base)}${retained ? ' (withheld)' : ''}`, `${retained ? '−' : ''}${money(rate.amount)}`, 'rate']);
      }
    }
    rows.push(['Tax', money(totals.tax)]);
    rows.push(['Total', money(totals.total_with_tax), 'total']);
    if (str(totals.payable) && str(totals.payable) !== str(totals.total_with_tax)) rows.push(['Payable', money(totals.payable), 'total']);
  }
  return (
    <section className="editor-card totals-panel" aria-labelledby="totals-title" aria-busy={busy}>
      <h2 id="totals-title" className="card-title">
        Totals <span className="muted totals-state">{busy ? 'calculating…' : 'calculated by GOBL'}</span>
      </h2>
      {rows.length === 0 ? (
        <p className="muted">Figures appear once the document has a line GOBL can calculate.</p>
      ) : (
        <dl className="totals-list" aria-live="polite">
          {rows.map(([label, value, kind], i) => (
            <div key={i} className={kind ? `totals-${kind}` : undefined}>
              <dt>{label}</dt>
              <dd className="num">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
