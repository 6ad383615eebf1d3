import { formatDay } from '../../format/date.ts';
import { formatDecimal, formatMoney, formatPercent } from '../../format/money.ts';
import { docKind } from '../entries/doc-kind.ts';
import { arr, comboParts, humanKey, obj, objs, refNumber, str, type Json } from './gobl.ts';
import { PartyBlock } from './PartyBlock.tsx';

/**
 * An invoice (or order, delivery note) laid out like the paper it stands for:
 * header, parties, lines, taxes, totals, payment and notes. Amounts are shown
 * exactly as the document states them, right-aligned, in its currency.
 */
export function InvoiceDocument({ doc }: { doc: Json }) {
  const currency = str(doc.currency);
  const money = (value: unknown) => formatMoney(str(value), currency);
  const kind = docKind(str(doc.$schema), str(doc.type));
  const number = refNumber(doc);
  const lines = objs(doc.lines);
  const totals = obj(doc.totals);

  return (
    <article className="paper" aria-label={`${kind} ${number ?? ''}`.trim()}>
      <header className="paper-head">
        <div>
          <p className="paper-kind">{kind}</p>
          <h2 className="paper-number">{number ?? 'No number yet'}</h2>
          {arr(doc.$tags).length > 0 && <p className="muted">{arr(doc.$tags).map(String).map(humanKey).join(', ')}</p>}
        </div>
        <dl className="kv paper-dates">
          <dt>Issued</dt>
          <dd>{formatDay(str(doc.issue_date)) || '—'}</dd>
          {str(doc.op_date) && (
            <>
              <dt>Operation</dt>
              <dd>{formatDay(str(doc.op_date))}</dd>
            </>
          )}
          {str(doc.value_date) && (
            <>
              <dt>Value date</dt>
              <dd>{formatDay(str(doc.value_date))}</dd>
            </>
          )}
          {currency && (
            <>
              <dt>Currency</dt>
              <dd>{currency}</dd>
            </>
          )}
          {str(doc.$regime) && (
            <>
              <dt>Tax regime</dt>
              <dd>{str(doc.$regime)}</dd>
            </>
          )}
        </dl>
      </header>

      <div className="paper-parties">
        <PartyBlock role="Supplier" party={doc.supplier} />
        <PartyBlock role="Customer" party={doc.customer} />
      </div>

      <References doc={doc} />

      {lines.length > 0 && <LinesTable lines={lines} money={money} />}
      <AdjustmentsTable title="Discounts" rows={objs(doc.discounts)} money={money} />
      <AdjustmentsTable title="Charges" rows={objs(doc.charges)} money={money} />

      {totals && (
        <div className="paper-summary">
          <TaxBreakdown totals={totals} money={money} />
          <TotalsTable totals={totals} money={money} currency={currency} />
        </div>
      )}

      <Payment payment={obj(doc.payment)} money={money} />
      <Notes doc={doc} />
    </article>
  );
}

type Money = (value: unknown) => string;

function References({ doc }: { doc: Json }) {
  const preceding = objs(doc.preceding);
  const ordering = obj(doc.ordering);
  const delivery = obj(doc.delivery);
  if (preceding.length === 0 && !ordering && !delivery && !obj(doc.tracking)) return null;
  return (
    <section className="paper-refs" aria-label="References">
      {preceding.map((ref, i) => (
        <p key={i}>
          <span className="muted">{str(doc.type) === 'credit-note' ? 'Corrects ' : 'Refers to '}</span>
          <strong>{refNumber(ref) ?? str(ref.uuid) ?? 'a document'}</strong>
          {str(ref.issue_date) && <span className="muted"> of {formatDay(str(ref.issue_date))}</span>}
          {str(ref.reason) && <span> — {str(ref.reason)}</span>}
        </p>
      ))}
      {ordering && str(ordering.code) && (
        <p>
          <span className="muted">Order </span>
          <strong>{str(ordering.code)}</strong>
        </p>
      )}
      {delivery && str(delivery.date) && (
        <p>
          <span className="muted">Delivered </span>
          {formatDay(str(delivery.date))}
        </p>
      )}
      {obj(doc.tracking) && str(obj(doc.tracking)!.code) && (
        <p>
          <span className="muted">Tracking </span>
          <strong>{str(obj(doc.tracking)!.code)}</strong>
        </p>
      )}
    </section>
  );
}

function LinesTable({ lines, money }: { lines: Json[]; money: Money }) {
  return (
    <table className="data-table lines-table">
      <caption className="visually-hidden">Lines</caption>
      <thead>
        <tr>
          <th scope="col" className="num">
            #
          </th>
          <th scope="col">Description</th>
          <th scope="col" className="num">
            Quantity
          </th>
          <th scope="col" className="num">
            Price
          </th>
          <th scope="col" className="num">
            Discount
          </th>
          <th scope="col">Taxes</th>
          <th scope="col" className="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => {
          const item = obj(line.item) ?? {};
          const discounts = objs(line.discounts);
          const charges = objs(line.charges);
          const identifier = obj(line.identifier);
          return (
            <tr key={index}>
              <td className="num muted">{str(line.i) ?? index + 1}</td>
              <td>
                <span className="line-name">{str(item.name) ?? '—'}</span>
                {str(item.ref) && <span className="line-sub muted">Ref. {str(item.ref)}</span>}
                {str(item.description) && <span className="line-sub muted">{str(item.description)}</span>}
                {identifier && (
                  <span className="line-sub muted">
                    {str(identifier.label) ?? 'ID'} {str(identifier.code)}
                  </span>
                )}
                {discounts
                  .filter((d) => str(d.reason))
                  .map((d, i) => (
                    <span key={i} className="line-sub muted">
                      {str(d.reason)}
                    </span>
                  ))}
                {charges.map((c, i) => (
                  <span key={`c${i}`} className="line-sub muted">
                    Charge {str(c.reason) ?? ''} {money(c.amount)}
                  </span>
                ))}
              </td>
              <td className="num">
                {formatDecimal(str(line.quantity))}
                {str(item.unit) && <span className="muted"> {str(item.unit)}</span>}
              </td>
              <td className="num">{money(item.price)}</td>
              <td className="num">
                {discounts.map((d, i) => (
                  <span key={i} className="stack">
                    {str(d.amount) ? `−${money(d.amount)}` : ''}
                    {str(d.percent) && <span className="muted"> ({formatPercent(str(d.percent))})</span>}
                  </span>
                ))}
              </td>
              <td>
                {objs(line.taxes).map((combo, i) => {
                  const { category, rate, percent } = comboParts(combo);
                  return (
                    <span key={i} className="stack nowrap">
                      {category} {percent ? formatPercent(percent) : humanKey(rate)}
                    </span>
                  );
                })}
              </td>
              <td className="num strong">{money(line.total ?? line.sum)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function AdjustmentsTable({ title, rows, money }: { title: string; rows: Json[]; money: Money }) {
  if (rows.length === 0) return null;
  return (
    <table className="data-table adjustments-table">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Reason</th>
          <th scope="col" className="num">
            Base
          </th>
          <th scope="col" className="num">
            Percent
          </th>
          <th scope="col">Taxes</th>
          <th scope="col" className="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            <td>{str(row.reason) ?? humanKey(str(row.key)) ?? '—'}</td>
            <td className="num">{money(row.base)}</td>
            <td className="num">{formatPercent(str(row.percent))}</td>
            <td>
              {objs(row.taxes)
                .map(comboParts)
                .map((c) => `${c.category ?? ''} ${c.percent ? formatPercent(c.percent) : (humanKey(c.rate) ?? '')}`.trim())
                .join(', ')}
            </td>
            <td className="num strong">{money(row.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TaxBreakdown({ totals, money }: { totals: Json; money: Money }) {
  const categories = objs(obj(totals.taxes)?.categories);
  if (categories.length === 0) return <div />;
  return (
    <table className="data-table tax-table">
      <caption>Taxes</caption>
      <thead>
        <tr>
          <th scope="col">Tax</th>
          <th scope="col" className="num">
            Base
          </th>
          <th scope="col" className="num">
            Rate
          </th>
          <th scope="col" className="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {categories.flatMap((category, ci) =>
          objs(category.rates).map((rate, ri) => (
            <tr key={`${ci}-${ri}`}>
              <td>
                {str(category.code)}
                {category.retained === true && <span className="muted"> (retained)</span>}
                {str(rate.key) && <span className="muted"> {humanKey(str(rate.key))}</span>}
              </td>
              <td className="num">{money(rate.base)}</td>
              <td className="num">{formatPercent(str(rate.percent)) || '—'}</td>
              <td className="num">{money(rate.amount)}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

function TotalsTable({ totals, money, currency }: { totals: Json; money: Money; currency?: string }) {
  const rows: Array<[string, unknown, string?]> = [
    ['Sum of lines', totals.sum],
    ['Discounts', totals.discount, '−'],
    ['Charges', totals.charge],
    ['Taxes included in prices', totals.tax_included, '−'],
    ['Total without tax', totals.total],
    ['Tax', totals.tax],
    ['Total with tax', totals.total_with_tax],
    ['Retained taxes', obj(totals.taxes)?.retained, '−'],
    ['Rounding', totals.rounding],
    ['Already paid', totals.advance, '−'],
  ];
  const shown = rows.filter(([, value]) => str(value) !== undefined);
  const payable = str(totals.payable);
  const due = str(totals.due);
  return (
    <table className="totals-table" aria-label="Totals">
      <tbody>
        {shown.map(([label, value, sign]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className="num">
              {sign && !/^[+-]?0+(\.0+)?$/.test(str(value)!) ? sign : ''}
              {money(value)}
            </td>
          </tr>
        ))}
        {payable && (
          <tr className="grand-total">
            <th scope="row">Total payable{currency ? ` (${currency})` : ''}</th>
            <td className="num">{money(payable)}</td>
          </tr>
        )}
        {due && (
          <tr>
            <th scope="row">Due</th>
            <td className="num">{money(due)}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

function Payment({ payment, money }: { payment?: Json; money: Money }) {
  if (!payment) return null;
  const terms = obj(payment.terms);
  const instructions = obj(payment.instructions);
  const dueDates = objs(terms?.due_dates);
  const transfers = objs(instructions?.credit_transfer);
  const advances = objs(payment.advances);
  if (!terms && !instructions && advances.length === 0) return null;
  return (
    <section className="paper-payment" aria-label="Payment">
      <h3 className="section-title">Payment</h3>
      <dl className="kv">
        {terms && str(terms.key) && (
          <>
            <dt>Terms</dt>
            <dd>{humanKey(str(terms.key))}</dd>
          </>
        )}
        {dueDates.map((d, i) => (
          <FragmentRow key={i} label={i === 0 ? 'Due' : ''} value={`${formatDay(str(d.date))}${str(d.amount) ? ` · ${money(d.amount)}` : ''}${str(d.percent) ? ` (${formatPercent(str(d.percent))})` : ''}`} />
        ))}
        {terms && str(terms.detail) && <FragmentRow label="Detail" value={str(terms.detail)!} />}
        {instructions && str(instructions.key) && <FragmentRow label="Method" value={humanKey(str(instructions.key))!} />}
        {instructions && str(instructions.detail) && <FragmentRow label="Instructions" value={str(instructions.detail)!} />}
        {transfers.map((t, i) => (
          <FragmentRow key={`t${i}`} label="Bank account" value={[str(t.iban) ?? str(t.number), str(t.bic), str(t.name)].filter(Boolean).join(' · ')} />
        ))}
        {advances.map((a, i) => (
          <FragmentRow key={`a${i}`} label="Advance" value={`${str(a.description) ?? ''} ${money(a.amount)}`.trim()} />
        ))}
      </dl>
    </section>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

function Notes({ doc }: { doc: Json }) {
  const notes = objs(doc.notes);
  const taxNotes = objs(obj(doc.tax)?.notes);
  if (notes.length === 0 && taxNotes.length === 0) return null;
  return (
    <section className="paper-notes" aria-label="Notes">
      <h3 className="section-title">Notes</h3>
      {[...taxNotes, ...notes].map((note, i) => (
        <p key={i}>
          {(str(note.key) || str(note.cat)) && <span className="muted">{[str(note.cat), humanKey(str(note.key))].filter(Boolean).join(' ')}: </span>}
          {str(note.text)}
        </p>
      ))}
    </section>
  );
}
