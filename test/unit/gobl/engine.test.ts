// The engine's front door as the service uses it: real documents check clean, a figure off by one
// unit is caught at its own path, and input GOBL cannot build is refused with paths, never stored.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { BuildError, buildDocument, checkDocument } from '../../../src-main/core/gobl/engine/index.ts';
import { parseJsonText } from '../../../src-main/core/gobl/shape/parse.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const EXAMPLES = fileURLToPath(new URL('../../fixtures/gobl/examples/', import.meta.url));
const example = (dir: 'in' | 'out', name: string): any => parseJsonText(readFileSync(`${EXAMPLES}${dir}/${name}`, 'utf8'));

function buildFaults(data: unknown): Array<{ code: string; paths: string[]; message: string }> {
  try {
    buildDocument(data);
  } catch (error) {
    if (error instanceof BuildError) return error.faults;
    throw error;
  }
  return [];
}

/** Adds one unit in the last digit: "1800.00" → "1800.01", "21.0%" → "21.1%", "-3" → "-2". */
function bump(figure: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(%?)$/.exec(figure)!;
  const decimals = match[3]?.length ?? 0;
  const scaled = BigInt(`${match[1]}${match[2]}${match[3] ?? ''}`) + 1n;
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(decimals + 1, '0');
  const sign = scaled < 0n ? '-' : '';
  const text = decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  return `${sign}${text}${match[4]}`;
}

type Figure = { path: Array<string | number>; text: string };

/** Every figure a build calculates: line sums and totals, percent-based adjustments, all of totals, a payment's total. */
function calculatedFigures(doc: any): Figure[] {
  const out: Figure[] = [];
  const isNumber = (v: unknown): v is string => typeof v === 'string' && /^-?\d+(\.\d+)?%?$/.test(v);
  const walk = (value: unknown, path: Array<string | number>): void => {
    // Ext codes such as "01" look like numbers but are codes, and a stated rounding is kept as given.
    if (path.includes('ext') || path.at(-1) === 'rounding') return;
    if (isNumber(value)) {
      out.push({ path, text: value });
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(doc.totals, ['totals']);
  (doc.lines ?? []).forEach((line: any, i: number) => {
    for (const key of ['sum', 'total']) if (isNumber(line[key])) out.push({ path: ['lines', i, key], text: line[key] });
    for (const kind of ['discounts', 'charges']) {
      (line[kind] ?? []).forEach((adj: any, j: number) => {
        if (adj.percent !== undefined && isNumber(adj.amount)) out.push({ path: ['lines', i, kind, j, 'amount'], text: adj.amount });
      });
    }
  });
  if (doc.$schema?.endsWith('/bill/payment') && isNumber(doc.total)) out.push({ path: ['total'], text: doc.total });
  return out;
}

function jsonPath(path: Array<string | number>): string {
  return `$.doc${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}`;
}

function setAt(doc: any, path: Array<string | number>, value: string): void {
  let node = doc;
  for (const p of path.slice(0, -1)) node = node[p];
  node[path.at(-1)!] = value;
}

describe('checking complete documents', () => {
  it.each(loadEnvelopes().map((f) => [f.file, f.envelope]))('%s checks with no fault', (_file, envelope) => {
    expect(checkDocument(envelope)).toEqual([]);
  });

  const bumped = readdirSync(`${EXAMPLES}out`).filter((name) => {
    const doc = example('out', name).doc;
    const calculated = doc.$schema.endsWith('/bill/invoice') || doc.$schema.endsWith('/bill/payment');
    return calculated && !(doc.$tags ?? []).includes('bypass');
  });

  it('has invoices, credit notes and payments to change', () => {
    const docs = bumped.map((n) => example('out', n).doc);
    expect(docs.some((d) => d.type === 'credit-note')).toBe(true);
    expect(docs.some((d) => d.$schema.endsWith('/bill/payment'))).toBe(true);
    expect(docs.length).toBeGreaterThan(40);
  });

  it.each(bumped)('%s: every calculated figure off by one unit is a fault at its path', (name) => {
    const envelope = example('out', name);
    const figures = calculatedFigures(envelope.doc);
    expect(figures.length).toBeGreaterThan(0);
    for (const figure of figures) {
      const changed = structuredClone(envelope);
      setAt(changed.doc, figure.path, bump(figure.text));
      const faults = checkDocument(changed);
      const at = faults.find((f) => f.paths.includes(jsonPath(figure.path)));
      expect(at, `${jsonPath(figure.path)} ${figure.text} → ${bump(figure.text)}`).toBeDefined();
      expect(at!.code).toBe('calculation');
      expect(at!.stated).toBe(bump(figure.text));
      expect(at!.calculated).toBe(figure.text);
    }
  });

  it('says what an inconsistent payable should be', () => {
    const envelope = example('out', 'es-invoice-es-es.json');
    envelope.doc.totals.payable = '9999.99';
    const faults = checkDocument(envelope);
    expect(faults).toContainEqual(expect.objectContaining({
      code: 'calculation', paths: ['$.doc.totals.payable'], stated: '9999.99', calculated: '1970.20',
    }));
  });

  it('accepts figures as they stand in a document tagged bypass, and only there', () => {
    const envelope = example('out', 'es-invoice-es-es.json');
    envelope.doc.totals.payable = '9999.99';
    envelope.head.dig = digestOf(envelope.doc);
    expect(checkDocument(envelope).map((f) => f.code)).toContain('calculation');
    envelope.doc.$tags = ['bypass'];
    envelope.head.dig = digestOf(envelope.doc);
    expect(checkDocument(envelope)).toEqual([]);
  });
});

describe('refusing input GOBL cannot build', () => {
  const partial = () => example('in', 'es-invoice-es-es.json');

  it('an unknown $schema', () => {
    expect(buildFaults({ ...partial(), $schema: 'https://gobl.org/draft-0/bill/nonsense' }))
      .toContainEqual(expect.objectContaining({ code: 'unknown-schema', paths: ['$.doc.$schema'] }));
  });

  it('an unknown regime or addon', () => {
    expect(buildFaults({ ...partial(), $regime: 'XX' })).toContainEqual(expect.objectContaining({ paths: ['$.doc.$regime'] }));
    expect(buildFaults({ ...partial(), $addons: ['es-facturae-v3', 'no-such-addon'] }))
      .toContainEqual(expect.objectContaining({ paths: ['$.doc.$addons[1]'] }));
  });

  it('numbers written with exponents, NaN-like strings and 19-digit amounts', () => {
    const withExponent = parseJsonText(JSON.stringify(partial()).replace('"price":"90.00"', '"price":9e1'));
    expect(buildFaults(withExponent)).toContainEqual(expect.objectContaining({ paths: ['$.doc.lines[0].item.price'] }));
    const nan = partial();
    nan.lines[0].item.price = 'NaN';
    expect(buildFaults(nan)).toContainEqual(expect.objectContaining({ paths: ['$.doc.lines[0].item.price'] }));
    const huge = partial();
    huge.lines[0].item.price = '1234567890123456789';
    expect(buildFaults(huge)).toContainEqual(expect.objectContaining({ paths: ['$.doc.lines[0].item.price'] }));
  });

  it('a rate key the regime does not know on that date', () => {
    const unknownKey = partial();
    unknownKey.lines[0].taxes[0].rate = 'super-duper';
    expect(buildFaults(unknownKey)).toContainEqual(expect.objectContaining({ paths: ['$.doc.lines[0].taxes[0].rate'] }));
    // Spain's "super-reduced" rate exists, but not in 1980.
    const tooEarly = partial();
    tooEarly.issue_date = '1980-01-01';
    tooEarly.lines[0].taxes[0].rate = 'super-reduced';
    expect(buildFaults(tooEarly)).toContainEqual(expect.objectContaining({ paths: ['$.doc.lines[0].taxes[0].rate'] }));
  });

  it('builds a partial invoice into a complete, valid one', () => {
    const { envelope, faults } = buildDocument(partial());
    expect(faults).toEqual([]);
    expect(envelope.doc.totals.payable).toBe('1970.20');
    expect(envelope.doc.lines[0].taxes[0].percent).toBe('21.0%');
    expect(checkDocument(envelope)).toEqual([]);
  });
});

describe('checking a bare document', () => {
  it('finds no fault in a complete one, and a figure fault at its envelope path', () => {
    const doc = example('out', 'es-invoice-es-es.json').doc;
    expect(checkDocument(doc)).toEqual([]);
    doc.totals.payable = '1.00';
    expect(checkDocument(doc)).toContainEqual(expect.objectContaining({ code: 'calculation', paths: ['$.doc.totals.payable'] }));
  });
});
