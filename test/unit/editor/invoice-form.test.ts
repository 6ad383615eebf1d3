import { describe, expect, it } from 'vitest';
import { faultsByField, fieldOfPath } from '../../../src-renderer/src/screens/editor/fault-fields.ts';
import { invoiceDocument, invoiceForm, newInvoiceForm } from '../../../src-renderer/src/screens/editor/invoice-form.ts';
import { seriesAndCode } from '../../../src-renderer/src/screens/editor/save.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

describe('the editor form and the GOBL invoice', () => {
  it('keeps every member the form does not show, and drops only what GOBL calculates', () => {
    const doc = loadEnvelope('es-invoice-es-es.json').doc;
    const back = invoiceDocument(invoiceForm(doc));
    expect(back.totals).toBeUndefined();
    for (const line of back.lines as Array<Record<string, unknown>>) {
      expect(line.sum).toBeUndefined();
      expect(line.total).toBeUndefined();
    }
    const { totals: _t, lines: _l, ...rest } = doc;
    const { lines: _bl, ...backRest } = back;
    expect(backRest).toEqual(rest);
    expect((back.lines as any[]).map((l) => [l.quantity, l.item.name, l.item.price, l.taxes])).toEqual(
      doc.lines.map((l: any) => [l.quantity, l.item.name, l.item.price, l.taxes.map((c: any) => (c.rate ? { cat: c.cat, rate: c.rate } : { cat: c.cat, key: c.key }))]),
    );
  });

  it('writes a new invoice from what was typed: taxes by rate, key or percent, discounts, notes', () => {
    const form = newInvoiceForm('2026-03-02');
    form.customer.name = ' Sample S.A. ';
    form.lines = [
      { ...form.lines[0], name: 'Work', quantity: '2', price: '10', discount: '5', taxes: [{ cat: 'VAT', choice: 'rate:general', rest: {} }, { cat: 'IRPF', choice: 'percent:15', rest: {} }] },
      { ...form.lines[0], id: 99, name: 'Exported', price: '3', taxes: [{ cat: 'VAT', choice: 'key:export', rest: {} }] },
    ];
    form.discounts = [{ id: 1, reason: 'Early payment', percent: '2', amount: '' }];
    form.notes = 'Thanks';
    expect(invoiceDocument(form)).toEqual({
      $schema: 'https://gobl.org/draft-0/bill/invoice', type: 'standard', issue_date: '2026-03-02', currency: 'EUR',
      customer: { name: 'Sample S.A.' },
      lines: [
        { quantity: '2', item: { name: 'Work', price: '10' }, discounts: [{ percent: '5%' }], taxes: [{ cat: 'VAT', rate: 'general' }, { cat: 'IRPF', percent: '15%' }] },
        { quantity: '1', item: { name: 'Exported', price: '3' }, taxes: [{ cat: 'VAT', key: 'export' }] },
      ],
      discounts: [{ reason: 'Early payment', percent: '2%' }],
      notes: [{ text: 'Thanks' }],
    });
  });

  it('places each GOBL fault beside its field by its JSON path', () => {
    expect(fieldOfPath('$.doc.lines[2].item.price')).toBe('lines.2.price');
    expect(fieldOfPath('$.lines[0].taxes[1].percent')).toBe('lines.0.taxes.1');
    expect(fieldOfPath('$.doc.customer.tax_id.code')).toBe('customer.tax_code');
    expect(fieldOfPath('$.doc.supplier')).toBe('supplier.name');
    expect(fieldOfPath('$.doc.issue_date')).toBe('issue_date');
    const { byField, elsewhere } = faultsByField([{ path: '$.doc.payment.terms', message: 'x' }, { path: '$.doc.currency', message: 'y' }]);
    expect(elsewhere.map((f) => f.message)).toEqual(['x']);
    expect(byField.get('currency')?.[0].message).toBe('y');
  });

  it('numbers as sequence.enumerate does: no series code twice in the number', () => {
    expect(seriesAndCode('FV', 'FV-2026-00004')).toEqual({ series: 'FV', code: '2026-00004' });
    expect(seriesAndCode('FV', '2026-00004')).toEqual({ series: 'FV', code: '2026-00004' });
    expect(seriesAndCode('', 'A-1')).toEqual({ code: 'A-1' });
  });
});
