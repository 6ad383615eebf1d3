import { describe, expect, it } from 'vitest';
import { snippetOf } from '../../../src-main/core/gobl/snippet.ts';
import { wrapDocument } from '../../../src-main/core/gobl/wrap.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';

const uuid = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

describe('snippetOf', () => {
  it('summarises a standard invoice', () => {
    expect(snippetOf(loadEnvelope('es-invoice-es-es.json'))).toEqual({
      title: 'Invoice SAMPLE-001 — Provide One S.L. → Sample Consumer',
      type: 'standard',
      code: 'SAMPLE-001',
      issue_date: '2022-02-01',
      supplier: 'Provide One S.L.',
      customer: 'Sample Consumer',
      currency: 'EUR',
      total: '1970.20',
      sum: '1630.00',
      net: '1630.00',
      tax: '340.20',
    });
  });

  it('names the earliest due date of the payment terms', () => {
    expect(snippetOf(loadEnvelope('dk-invoice-peppol.json')).due_date).toBe('2025-05-30');
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.payment = { terms: { due_dates: [{ date: '2025-03-01', amount: '1' }, { date: '2025-02-01', amount: '1' }, { date: 'soon' }] } };
    expect(snippetOf(envelope).due_date).toBe('2025-02-01');
    expect(snippetOf(loadEnvelope('es-invoice-es-es.json'))).not.toHaveProperty('due_date');
  });

  it('names a credit note and joins series and code', () => {
    expect(snippetOf(loadEnvelope('gr-credit-note.json'))).toMatchObject({
      title: 'Credit note NC-001 — Ελληνικά Τρόφιμα Α.Ε. → Αιγαίο Λιανική Α.Ε.',
      type: 'credit-note',
      series: 'NC',
      code: '001',
    });
  });

  it('leaves out the customer of a simplified invoice that has none', () => {
    const snippet = snippetOf(loadEnvelope('pl-invoice-simplified.json'));
    expect(snippet.title).toBe('Invoice UPR-001 — Sklep Testowy');
    expect(snippet).not.toHaveProperty('customer');
  });

  it('falls back to total_with_tax when there is no payable total', () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    delete envelope.doc.totals.payable;
    expect(snippetOf(envelope).total).toBe('1970.20');
    envelope.doc.totals.total_with_tax = '5.00';
    expect(snippetOf(envelope).total).toBe('5.00');
  });

  it('summarises a payment receipt with its total', () => {
    expect(snippetOf(loadEnvelope('es-payment-with-tax.json'))).toEqual({
      title: 'Payment receipt RCT-0001 — Provide One S.L. → Sample Consumer',
      type: 'receipt',
      series: 'RCT',
      code: '0001',
      issue_date: '2025-01-28',
      supplier: 'Provide One S.L.',
      customer: 'Sample Consumer',
      currency: 'EUR',
      total: '1972.30',
    });
  });

  it('titles a party by its name and a message by its title or first line', () => {
    expect(snippetOf(wrapDocument({ $schema: 'https://gobl.org/draft-0/org/party', name: 'Acme S.L.' }, uuid))).toEqual({ title: 'Acme S.L.' });
    const message = { $schema: 'https://gobl.org/draft-0/note/message', content: '\nInvoice overdue\nPlease pay.' };
    expect(snippetOf(wrapDocument(message, uuid))).toEqual({ title: 'Invoice overdue' });
    expect(snippetOf(wrapDocument({ ...message, title: 'Reminder' }, uuid))).toEqual({ title: 'Reminder' });
  });

  it('titles unknown document types by schema name and uuid', () => {
    expect(snippetOf(loadEnvelope('es-order.json'))).toEqual({ title: 'Order 0194ad4c-3462-7695-a40c-66a30ccc1405' });
    expect(snippetOf(loadEnvelope('es-delivery.json')).title).toMatch(/^Delivery [0-9a-f-]{36}$/);
  });

  it('gives every fixture a title and only string values', () => {
    for (const { file, envelope } of loadEnvelopes()) {
      const snippet = snippetOf(envelope);
      expect(snippet.title, file).toBeTruthy();
      for (const value of Object.values(snippet)) expect(typeof value, file).toBe('string');
    }
  });

  it('never throws on junk', () => {
    expect(snippetOf(null)).toEqual({ title: 'Document' });
    expect(snippetOf({ $schema: 'https://gobl.org/draft-0/envelope', doc: { $schema: 'https://gobl.org/draft-0/bill/invoice', supplier: 5 } })).toEqual({ title: 'Invoice' });
  });
});
