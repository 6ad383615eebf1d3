import { describe, expect, it } from 'vitest';
import { fieldTypeOf, rootTypeOf, typeInfo, walkTyped } from '../../../src-main/core/gobl/shape/schemas.ts';

describe('rootTypeOf', () => {
  it('names the root type of a schema id', () => {
    expect(rootTypeOf('https://gobl.org/draft-0/bill/invoice')).toBe('bill.Invoice');
    expect(rootTypeOf('https://gobl.org/draft-0/envelope')).toBe('gobl.Envelope');
    expect(rootTypeOf('https://gobl.org/draft-0/org/party')).toBe('org.Party');
    expect(rootTypeOf('https://gobl.org/draft-0/bill/nothing')).toBeUndefined();
  });
});

describe('typeInfo', () => {
  it('lists fields in Go struct order', () => {
    const inv = typeInfo('bill.Invoice')!;
    expect(inv.fields.slice(0, 8)).toEqual(['$regime', '$addons', '$tags', 'uuid', 'type', 'series', 'code', 'issue_date']);
    expect(typeInfo('tax.Combo')!.fields).toEqual(['cat', 'country', 'key', 'rate', 'percent', 'surcharge', 'ext']);
  });

  it('types fields: objects, lists, maps and named scalars', () => {
    const line = typeInfo('bill.Line')!;
    expect(line.field('item')).toEqual({ kind: 'object', type: 'org.Item' });
    expect(line.field('taxes')).toEqual({ kind: 'array', of: { kind: 'object', type: 'tax.Combo' }, type: 'tax.Set' });
    expect(line.field('quantity')).toEqual({ kind: 'scalar', scalar: 'amount', type: 'num.Amount' });
    expect(line.field('ext')).toMatchObject({ kind: 'map', type: 'tax.Extensions', of: { kind: 'scalar', type: 'cbc.Code' } });
    expect(line.field('i')).toEqual({ kind: 'scalar', scalar: 'integer' });
    expect(typeInfo('tax.Combo')!.field('percent')).toMatchObject({ scalar: 'percentage' });
    expect(typeInfo('bill.Invoice')!.field('$tags')).toEqual({ kind: 'array', of: { kind: 'scalar', scalar: 'string', type: 'cbc.Key' } });
    expect(line.field('nope')).toBeUndefined();
  });

  it('knows map types and has nothing for scalars', () => {
    expect(typeInfo('cbc.Meta')).toMatchObject({ shape: 'map', fields: [] });
    expect(typeInfo('cbc.Code')).toBeUndefined();
    expect(fieldTypeOf('cal.Date')).toEqual({ kind: 'scalar', scalar: 'string', type: 'cal.Date' });
  });
});

describe('walkTyped', () => {
  const envelope = {
    $schema: 'https://gobl.org/draft-0/envelope',
    head: { uuid: 'x', dig: { alg: 'sha256', val: 'y' } },
    doc: {
      $schema: 'https://gobl.org/draft-0/bill/invoice',
      supplier: { name: 'S', tax_id: { country: 'ES' } },
      lines: [{ item: { name: 'a' }, taxes: [{ cat: 'VAT', ext: { a: 'b' } }] }],
    },
  };

  it('visits children before parents in post order, with types and paths', () => {
    const seen: string[] = [];
    walkTyped(envelope, 'gobl.Envelope', (_n, type, path) => seen.push(`${type}@${path.join('.')}`), 'post');
    expect(seen).toEqual([
      'dsig.Digest@head.dig', 'head.Header@head',
      'tax.Identity@doc.supplier.tax_id', 'org.Party@doc.supplier',
      'org.Item@doc.lines.0.item', 'tax.Extensions@doc.lines.0.taxes.0.ext', 'tax.Combo@doc.lines.0.taxes.0',
      'bill.Line@doc.lines.0', 'bill.Invoice@doc', 'gobl.Envelope@',
    ]);
  });

  it('visits parents first in pre order', () => {
    const seen: string[] = [];
    walkTyped(envelope.doc, 'bill.Invoice', (_n, type) => seen.push(type), 'pre');
    expect(seen.slice(0, 3)).toEqual(['bill.Invoice', 'org.Party', 'tax.Identity']);
  });
});
