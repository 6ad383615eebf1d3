import { Icon } from '../../ui/Icon.tsx';
import type { EditorFault } from './fault-fields.ts';
import { EditorField } from './EditorField.tsx';
import { emptyDiscount, type DiscountForm } from './invoice-form.ts';

/** Discounts on the whole document: a percent of the lines' sum, or an amount, with a reason. */
export function DiscountsFields({ discounts, faults, onChange }: { discounts: DiscountForm[]; faults: Map<string, EditorFault[]>; onChange(discounts: DiscountForm[]): void }) {
  const set = (index: number, change: Partial<DiscountForm>) => onChange(discounts.map((d, i) => (i === index ? { ...d, ...change } : d)));
  return (
    <fieldset className="editor-card discounts-fields">
      <legend>Document discounts</legend>
      {discounts.map((d, index) => (
        <div className="discount-row" key={d.id}>
          <EditorField label="Reason" faults={faults.get(`discounts.${index}`)}>
            {(c) => <input {...c} className="input" value={d.reason} onChange={(e) => set(index, { reason: e.target.value })} />}
          </EditorField>
          <EditorField label="Percent">
            {(c) => <input {...c} className="input num" inputMode="decimal" value={d.percent} onChange={(e) => set(index, { percent: e.target.value, amount: '' })} />}
          </EditorField>
          <EditorField label="or amount">
            {(c) => <input {...c} className="input num" inputMode="decimal" value={d.amount} onChange={(e) => set(index, { amount: e.target.value, percent: '' })} />}
          </EditorField>
          <button type="button" className="icon-btn" aria-label={`Remove discount ${index + 1}`} onClick={() => onChange(discounts.filter((_, i) => i !== index))}>
            <Icon name="x" />
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-sm" onClick={() => onChange([...discounts, emptyDiscount()])}>
        <Icon name="plus" /> Add discount
      </button>
    </fieldset>
  );
}
