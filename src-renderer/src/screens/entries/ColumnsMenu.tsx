import { useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { COLUMNS, DEFAULT_COLUMNS, type ColumnId } from './columns.ts';
import { Popover } from './Popover.tsx';

/** Which columns the list shows: one checkbox each; at least one stays. */
export function ColumnsMenu({ columns, onChange }: { columns: readonly ColumnId[]; onChange(columns: ColumnId[]): void }) {
  const [open, setOpen] = useState(false);
  const shown = new Set(columns);
  return (
    <Popover label="Columns" icon={<Icon name="settings" />} open={open} onOpenChange={setOpen}>
      <ul className="plain-list column-choices">
        {COLUMNS.map((column) => (
          <li key={column.id}>
            <label className="check">
              <input
                type="checkbox"
                checked={shown.has(column.id)}
                disabled={shown.has(column.id) && shown.size === 1}
                onChange={(event) => {
                  const next = new Set(shown);
                  if (event.target.checked) next.add(column.id);
                  else next.delete(column.id);
                  onChange(COLUMNS.map((c) => c.id).filter((id) => next.has(id)));
                }}
              />
              {column.label}
            </label>
          </li>
        ))}
      </ul>
      <button type="button" className="link-btn" onClick={() => onChange([...DEFAULT_COLUMNS])}>
        Back to the usual columns
      </button>
    </Popover>
  );
}
