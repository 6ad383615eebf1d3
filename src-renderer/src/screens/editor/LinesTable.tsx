import { formatMoney } from '../../format/money.ts';
import { Icon } from '../../ui/Icon.tsx';
import { objs, str, type Json } from '../entry/gobl.ts';
import type { EditorFault } from './fault-fields.ts';
import { emptyLine, type LineForm, type LineTax } from './invoice-form.ts';
import { categoryLabel, taxChoices, type Regime } from './regime-taxes.ts';

interface LinesTableProps {
  lines: LineForm[];
  built?: Json;
  currency: string;
  regime?: Regime;
  faults: Map<string, EditorFault[]>;
  onChange(lines: LineForm[]): void;
}

const messages = (faults?: EditorFault[]) => (faults && faults.length > 0 ? [...new Set(faults.map((f) => f.message))].join('; ') : undefined);

/** A cell's input with its fault announced: the message is the input's description. */
function CellInput({ id, label, value, fault, onChange, align, width }: {
  id: string; label: string; value: string; fault?: string; onChange(value: string): void; align?: 'end'; width?: string;
}) {
  return (
    <>
      <input
        id={id}
        className={`input${align === 'end' ? ' num' : ''}`}
        aria-label={label}
        value={value}
        style={width ? { width } : undefined}
        inputMode={align === 'end' ? 'decimal' : undefined}
        aria-invalid={fault ? true : undefined}
        aria-describedby={fault ? `${id}-fault` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {fault && (
        <span className="field-error" id={`${id}-fault`}>
          {fault}
        </span>
      )}
    </>
  );
}

function TaxCell({ line, index, regime, faults, onChange }: { line: LineForm; index: number; regime?: Regime; faults: Map<string, EditorFault[]>; onChange(taxes: LineTax[]): void }) {
  const categories = regime?.categories ?? [];
  const set = (i: number, change: Partial<LineTax>) => onChange(line.taxes.map((t, n) => (n === i ? { ...t, ...change } : t)));
  return (
    <div className="line-taxes">
      {line.taxes.map((tax, i) => {
        const category = categories.find((c) => c.code === tax.cat);
        const choices = taxChoices(category);
        const isPercent = tax.choice.startsWith('percent:');
        const selected = isPercent ? 'percent:' : tax.choice;
        const known = choices.some((c) => c.value === selected);
        const fault = messages(faults.get(`lines.${index}.taxes.${i}`));
        const id = `line-${index}-tax-${i}`;
        return (
          <div className="line-tax-block" key={i}>
            <div className="line-tax">
              <select className="select" aria-label={`Line ${index + 1} tax ${i + 1} category`} value={tax.cat} onChange={(e) => set(i, { cat: e.target.value, choice: taxChoices(categories.find((c) => c.code === e.target.value))[0]?.value ?? 'percent:' })}>
                {!categories.some((c) => c.code === tax.cat) && <option value={tax.cat}>{tax.cat || '—'}</option>}
                {categories.map((c) => (
                  <option key={c.code} value={c.code}>
                    {categoryLabel(c)}
                  </option>
                ))}
              </select>
              <select
                id={id}
                className="select"
                aria-label={`Line ${index + 1} tax ${i + 1} rate`}
                value={selected}
                aria-invalid={fault ? true : undefined}
                aria-describedby={fault ? `${id}-fault` : undefined}
                onChange={(e) => set(i, { choice: e.target.value })}
              >
                {!known && <option value={selected}>{selected.replace(/^\w+:/, '')}</option>}
                {choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
              {isPercent && (
                <CellInput id={`${id}-percent`} label={`Line ${index + 1} tax ${i + 1} percent`} value={tax.choice.slice('percent:'.length)} align="end" width="5em" onChange={(v) => set(i, { choice: `percent:${v}` })} />
              )}
              <button type="button" className="icon-btn" aria-label={`Remove tax ${i + 1} of line ${index + 1}`} onClick={() => onChange(line.taxes.filter((_, n) => n !== i))}>
                <Icon name="x" />
              </button>
            </div>
            {fault && (
              <span className="field-error" id={`${id}-fault`}>
                {fault}
              </span>
            )}
          </div>
        );
      })}
      <button type="button" className="link-btn" onClick={() => onChange([...line.taxes, { cat: categories.find((c) => c.retained)?.code ?? categories[0]?.code ?? 'VAT', choice: taxChoices(categories.find((c) => c.retained) ?? categories[0])[0]?.value ?? 'percent:', rest: {} }])}>
        <Icon name="plus" /> Tax
      </button>
    </div>
  );
}

/** The invoice's lines: item, quantity, price, discount and taxes, with the sum GOBL calculates for each. */
export function LinesTable({ lines, built, currency, regime, faults, onChange }: LinesTableProps) {
  const builtLines = objs(built?.lines);
  const set = (index: number, change: Partial<LineForm>) => onChange(lines.map((l, i) => (i === index ? { ...l, ...change } : l)));
  const firstCategory = regime?.categories.find((c) => !c.retained);
  const add = () => {
    const last = lines[lines.length - 1];
    // A new line takes the taxes of the one above: most invoices have one rate throughout.
    const line = last ? { ...emptyLine(), taxes: last.taxes.map((t) => ({ ...t, rest: {} })) } : emptyLine(firstCategory?.code ?? 'VAT', taxChoices(firstCategory)[0]?.value ?? 'rate:general');
    onChange([...lines, line]);
    requestAnimationFrame(() => document.getElementById(`line-${lines.length}-name`)?.focus());
  };
  const linesFault = messages(faults.get('lines'));
  return (
    <section className="editor-card" aria-labelledby="lines-title">
      <h2 id="lines-title" className="card-title">
        Lines
      </h2>
      {linesFault && <p className="field-error">{linesFault}</p>}
      <div className="lines-scroll">
        <table className="lines-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Item</th>
              <th scope="col" className="num">Quantity</th>
              <th scope="col" className="num">Price</th>
              <th scope="col" className="num">Discount %</th>
              <th scope="col">Taxes</th>
              <th scope="col" className="num">Sum</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => {
              const total = str(builtLines[index]?.total);
              return (
                <tr key={line.id}>
                  <td className="muted">{index + 1}</td>
                  <td>
                    <CellInput id={`line-${index}-name`} label={`Line ${index + 1} item`} value={line.name} fault={messages(faults.get(`lines.${index}.name`))} onChange={(name) => set(index, { name })} />
                  </td>
                  <td>
                    <CellInput id={`line-${index}-quantity`} label={`Line ${index + 1} quantity`} value={line.quantity} align="end" width="6em" fault={messages(faults.get(`lines.${index}.quantity`))} onChange={(quantity) => set(index, { quantity })} />
                  </td>
                  <td>
                    <CellInput id={`line-${index}-price`} label={`Line ${index + 1} price`} value={line.price} align="end" width="8em" fault={messages(faults.get(`lines.${index}.price`))} onChange={(price) => set(index, { price })} />
                  </td>
                  <td>
                    <CellInput id={`line-${index}-discount`} label={`Line ${index + 1} discount percent`} value={line.discount} align="end" width="5em" fault={messages(faults.get(`lines.${index}.discount`))} onChange={(discount) => set(index, { discount })} />
                  </td>
                  <td>
                    <TaxCell line={line} index={index} regime={regime} faults={faults} onChange={(taxes) => set(index, { taxes })} />
                  </td>
                  <td className="num line-sum" data-testid={`line-${index}-sum`}>
                    {total ? formatMoney(total, currency) : '—'}
                  </td>
                  <td>
                    <button type="button" className="icon-btn" aria-label={`Remove line ${index + 1}`} disabled={lines.length === 1} onClick={() => onChange(lines.filter((_, i) => i !== index))}>
                      <Icon name="trash" />
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <button type="button" className="btn btn-sm" onClick={add}>
        <Icon name="plus" /> Add line
      </button>
    </section>
  );
}
