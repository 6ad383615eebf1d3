import { describe, expect, it } from 'vitest';
import { COLUMN_BY_ID, DEFAULT_SORT, gridLayout, nextSort, visibleColumns } from '../../../src-renderer/src/screens/entries/columns.ts';
import { NO_FILTERS } from '../../../src-renderer/src/screens/entries/filters.ts';
import { showsView, stateOfView, viewBodyOf } from '../../../src-renderer/src/screens/entries/views.ts';

describe('columns and sorting', () => {
  it('shows chosen columns in list order, never none', () => {
    expect(visibleColumns(['total', 'number', 'due_date']).map((c) => c.id)).toEqual(['due_date', 'number', 'total']);
    expect(visibleColumns([]).map((c) => c.id)).toContain('number');
    const layout = gridLayout(visibleColumns(['number', 'total']));
    expect(layout.template).toBe('36px minmax(90px, 0.9fr) 124px');
  });

  it('sorts by a header, dates and amounts largest first, text A to Z, and reverses on a second click', () => {
    const total = COLUMN_BY_ID.get('total')!;
    const supplier = COLUMN_BY_ID.get('supplier')!;
    expect(nextSort(DEFAULT_SORT, total)).toEqual({ by: 'total', ascending: false });
    expect(nextSort({ by: 'total', ascending: false }, total)).toEqual({ by: 'total', ascending: true });
    expect(nextSort(DEFAULT_SORT, supplier)).toEqual({ by: 'supplier', ascending: true });
    // Columns the service cannot sort by do nothing.
    expect(nextSort(DEFAULT_SORT, COLUMN_BY_ID.get('tags')!)).toBe(DEFAULT_SORT);
  });
});

describe('saved views', () => {
  const filters = { ...NO_FILTERS, state: 'sent', dateFrom: '2025-01-01', q: 'acme', sort: 'due_date' as const, ascending: true };
  const sort = { by: 'due_date' as const, ascending: true };

  it('saves the list as it is and gives it back as the same state', () => {
    const body = viewBodyOf('Unpaid', filters, ['number', 'due_date'], sort);
    expect(body).toEqual({ name: 'Unpaid', filters: { state: 'sent', date_from: '2025-01-01', q: 'acme' }, columns: ['number', 'due_date'], sort });
    const view = { id: 'v', created_at: '', updated_at: '', ...body, filters: body.filters! , sort: body.sort! };
    const back = stateOfView(view);
    expect(back.filters).toEqual({ ...filters, folder: undefined, tag: undefined, dateTo: undefined });
    expect(showsView(view, back.filters, back.columns, back.sort)).toBe(true);
    expect(showsView(view, { ...back.filters, tag: 'x' }, back.columns, back.sort)).toBe(false);
    expect(showsView(view, back.filters, ['number'], back.sort)).toBe(false);
  });
});
