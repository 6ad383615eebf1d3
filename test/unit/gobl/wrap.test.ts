import { describe, expect, it } from 'vitest';
import { digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { validateDocument } from '../../../src-main/core/gobl/validate/index.ts';
import { defaultFolderOf, isEnvelope, wrapDocument } from '../../../src-main/core/gobl/wrap.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

describe('wrapDocument', () => {
  it('builds a valid envelope whose digest is the fixture\'s', () => {
    const fixture = loadEnvelope('es-invoice-es-es.json');
    const envelope = wrapDocument(fixture.doc, fixture.head.uuid);
    expect(envelope).toEqual({
      $schema: 'https://gobl.org/draft-0/envelope',
      head: { uuid: fixture.head.uuid, dig: { alg: 'sha256', val: fixture.head.dig.val } },
      doc: fixture.doc,
    });
    expect(envelope.head.dig).toEqual(digestOf(envelope.doc));
    expect(isEnvelope(envelope)).toBe(true);
    expect(validateDocument(envelope)).toEqual([]);
  });
});

describe('isEnvelope', () => {
  it('recognises envelopes by their $schema only', () => {
    expect(isEnvelope(loadEnvelope('es-order.json'))).toBe(true);
    expect(isEnvelope(loadEnvelope('es-order.json').doc)).toBe(false);
    expect(isEnvelope({ $schema: 'https://gobl.org/draft-0/envelope/' })).toBe(false);
    expect(isEnvelope([])).toBe(false);
    expect(isEnvelope(null)).toBe(false);
  });
});

describe('defaultFolderOf', () => {
  it('files each known document type in its folder', () => {
    const base = 'https://gobl.org/draft-0/';
    expect(defaultFolderOf(`${base}bill/invoice`)).toBe('invoices');
    expect(defaultFolderOf(`${base}bill/payment`)).toBe('payments');
    expect(defaultFolderOf(`${base}bill/order`)).toBe('orders');
    expect(defaultFolderOf(`${base}bill/delivery`)).toBe('deliveries');
    expect(defaultFolderOf(`${base}bill/status`)).toBe('statuses');
    expect(defaultFolderOf(`${base}org/party`)).toBe('parties');
    expect(defaultFolderOf(`${base}note/message`)).toBe('messages');
  });

  it('files anything else in documents', () => {
    expect(defaultFolderOf('https://gobl.org/draft-0/regimes/es')).toBe('documents');
    expect(defaultFolderOf('https://example.com/bill/invoice')).toBe('documents');
    expect(defaultFolderOf(undefined)).toBe('documents');
  });
});
