// Recalculation of GOBL's own examples: every figure the calculator produces is stripped from a
// built document, the calculator runs again, and the result must be the document GOBL built.
// GOBL_EXAMPLES_DIR points at another examples folder (with an `out/` inside) to run a larger set.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src-main/core/gobl/canonical.ts';
import { calculateDocument } from '../../../src-main/core/gobl/calc/index.ts';
import { regimeDef } from '../../../src-main/core/gobl/defs/index.ts';
import type { BuildContext, Node } from '../../../src-main/core/gobl/engine/types.ts';

const DIR = process.env.GOBL_EXAMPLES_DIR ?? join(__dirname, '../../fixtures/gobl/examples');

const ROOT_TYPES: Record<string, string> = {
  'bill/invoice': 'bill.Invoice',
  'bill/order': 'bill.Order',
  'bill/delivery': 'bill.Delivery',
  'bill/payment': 'bill.Payment',
};

function rootTypeOf(schema: string): string {
  return ROOT_TYPES[schema.split('/').slice(-2).join('/')] ?? schema;
}

function contextOf(doc: Node): BuildContext {
  const code = doc.$regime ?? doc.supplier?.tax_id?.country;
  return {
    schema: doc.$schema,
    rootType: rootTypeOf(doc.$schema),
    regime: regimeDef(code),
    addons: [],
    doc,
    now: new Date('2026-07-02T10:00:00Z'),
  };
}

function each(list: unknown, fn: (node: Node) => void): void {
  if (Array.isArray(list)) for (const n of list) if (n && typeof n === 'object') fn(n as Node);
}

/** A preceding document's tax total keeps only what is stated: bases and percents. */
function stripTaxTotal(t: Node | undefined): void {
  if (!t) return;
  delete t.sum;
  delete t.retained;
  each(t.categories, (c) => {
    delete c.amount;
    delete c.surcharge;
    each(c.rates, (r) => {
      delete r.amount;
      if (r.surcharge) delete r.surcharge.amount;
    });
  });
}

function stripAdjustments(list: unknown, withIndex: boolean): void {
  each(list, (a) => {
    if (withIndex) delete a.i;
    if (a.percent !== undefined || a.rate !== undefined) delete a.amount;
  });
}

function stripCombos(list: unknown): void {
  each(list, (c) => {
    if (c.rate !== undefined) {
      delete c.percent;
      delete c.surcharge;
    }
  });
}

function stripSubLines(list: unknown): void {
  each(list, (sl) => {
    delete sl.i;
    delete sl.sum;
    delete sl.total;
    stripAdjustments(sl.discounts, false);
    stripAdjustments(sl.charges, false);
  });
}

/** Removes what the calculator derives, leaving what a client would have sent. */
function strip(doc: Node): void {
  // GOBL calculates nothing for a `bypass` document: what it states must survive unchanged.
  if (Array.isArray(doc.$tags) && doc.$tags.includes('bypass')) return;
  if (doc.$schema.endsWith('/bill/payment')) {
    delete doc.total;
    each(doc.lines, (l) => {
      delete l.i;
      delete l.due;
      if (l.document) {
        stripTaxTotal(l.document.tax);
        if (l.document.tax) delete l.tax;
        if (l.document.payable) delete l.payable;
      } else {
        stripTaxTotal(l.tax);
      }
    });
    each(doc.methods, (m) => {
      if (m.percent !== undefined) delete m.amount;
    });
    return;
  }
  each(doc.preceding, (p) => stripTaxTotal(p.tax));
  each(doc.lines, (l) => {
    delete l.i;
    delete l.sum;
    delete l.total;
    stripAdjustments(l.discounts, false);
    stripAdjustments(l.charges, false);
    stripCombos(l.taxes);
    stripSubLines(l.breakdown);
    stripSubLines(l.substituted);
  });
  stripAdjustments(doc.discounts, true);
  stripAdjustments(doc.charges, true);
  each(doc.discounts, (d) => stripCombos(d.taxes));
  each(doc.charges, (c) => stripCombos(c.taxes));
  if (doc.totals) {
    const rounding = doc.totals.rounding;
    doc.totals = rounding === undefined ? undefined : { rounding };
    if (doc.totals === undefined) delete doc.totals;
  }
  each(doc.payment?.advances, (a) => {
    if (a.percent !== undefined) delete a.amount;
  });
  each(doc.payment?.terms?.due_dates, (d) => {
    if (d.percent !== undefined) delete d.amount;
  });
}

const files = readdirSync(join(DIR, 'out')).filter((f) => f.endsWith('.json')).sort();

describe(`GOBL examples recalculate to GOBL's own figures (${DIR})`, () => {
  it('has examples to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s', (file) => {
    const expected = JSON.parse(readFileSync(join(DIR, 'out', file), 'utf8')).doc as Node;
    const doc = structuredClone(expected);
    strip(doc);
    calculateDocument(doc, contextOf(doc));
    expect(JSON.parse(canonicalJson(doc))).toEqual(JSON.parse(canonicalJson(expected)));
  });
});
