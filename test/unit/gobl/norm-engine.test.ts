import { describe, expect, it } from 'vitest';
import type { BuildContext, Node, NormRule } from '../../../src-main/core/gobl/engine/types.ts';
import { addonPackage, normalizeTree, orderNormRules, orderNormRulesByPackage } from '../../../src-main/core/gobl/norm/engine.ts';

function ctxFor(doc: Node, rootType = 'bill.Invoice'): BuildContext {
  return { schema: '', rootType, regime: undefined, addons: [], doc, now: new Date(0) };
}

function record(log: string[], type: string, label = type): NormRule {
  return { type, apply: (node) => log.push(`${label}:${node.name ?? node.cat ?? node.value ?? ''}`) };
}

describe('normalizeTree', () => {
  it('walks depth first, children before parents, fields in Go struct order', () => {
    const log: string[] = [];
    // Keys deliberately out of struct order: supplier comes before lines in bill.Invoice.
    const doc = { lines: [{ item: { name: 'i1' }, taxes: [{ cat: 'VAT' }] }], supplier: { name: 'S' } };
    normalizeTree(doc, ctxFor(doc), [record(log, 'bill.Invoice'), record(log, 'bill.Line'), record(log, 'org.Item'), record(log, 'tax.Combo'), record(log, 'org.Party')]);
    expect(log).toEqual(['org.Party:S', 'org.Item:i1', 'tax.Combo:VAT', 'bill.Line:', 'bill.Invoice:']);
  });

  it('runs rules of one type in list order and honours guards', () => {
    const log: string[] = [];
    const doc = { supplier: { name: 'S' } };
    normalizeTree(doc, ctxFor(doc), [
      record(log, 'org.Party', 'first'),
      { ...record(log, 'org.Party', 'skipped'), when: () => false },
      record(log, 'org.Party', 'second'),
    ]);
    expect(log).toEqual(['first:S', 'second:S']);
  });

  it('prunes null entries from lists of objects, not from lists of values', () => {
    const doc: Node = { lines: [null, { quantity: '1' }, null], $tags: ['a', null] };
    normalizeTree(doc, ctxFor(doc), []);
    expect(doc.lines).toEqual([{ quantity: '1' }]);
    expect(doc.$tags).toEqual(['a', null]);
  });

  it('gives scalar-type rules a box whose value replaces the field', () => {
    const doc: Node = { code: ' A1 ', series: 'S', lines: [{ order: 'o' }] };
    normalizeTree(doc, ctxFor(doc), [{ type: 'cbc.Code', apply: (box) => { box.value = `<${box.value}>`; } }]);
    expect(doc).toEqual({ code: '< A1 >', series: '<S>', lines: [{ order: '<o>' }] });
  });

  it('normalises absent map fields as empty maps, keeping what a rule adds', () => {
    const doc: Node = { lines: [{ quantity: '1' }] };
    normalizeTree(doc, ctxFor(doc), [{ type: 'tax.Extensions', when: (_n, ctx) => ctx.rootType === 'bill.Invoice', apply: (ext) => { ext['x-y'] = 'Z'; } }]);
    expect(doc.lines[0].ext).toEqual({ 'x-y': 'Z' });
    expect(doc.tax).toBeUndefined(); // a pointer struct that is absent stays absent
  });
});

describe('ordering', () => {
  const g: NormRule = { type: 'g', apply: () => {} };
  const r: NormRule = { type: 'r', apply: () => {} };
  const a1: NormRule = { type: 'a1', apply: () => {} };
  const a2: NormRule = { type: 'a2', apply: () => {} };

  it('maps addon keys to their Go package', () => {
    expect(addonPackage('de-xrechnung-v3')).toBe('addon:de/xrechnung');
    expect(addonPackage('eu-en16931-v2017')).toBe('addon:eu/en16931');
  });

  it('puts GOBL packages first, then regime and addon packages in Go init order', () => {
    expect(orderNormRules([g], [r], [a1])).toEqual([g, r, a1]);
    // es-tbai imports the ES regime package, so ES registers first.
    expect(orderNormRules([g], [r], [[a1]], { regimeCode: 'ES', addonKeys: ['es-tbai-v1'] })).toEqual([g, r, a1]);
    // pl-favat does not import the PL regime and sorts first.
    expect(orderNormRules([g], [r], [[a1]], { regimeCode: 'PL', addonKeys: ['pl-favat-v3'] })).toEqual([g, a1, r]);
    // eu-en16931 waits for ES, DK and FR, but comes before IT and it-sdi after IT.
    expect(orderNormRulesByPackage([g], [
      { pkg: 'regime:IT', rules: [r] },
      { pkg: addonPackage('it-sdi-v1'), rules: [a2] },
      { pkg: addonPackage('eu-en16931-v2017'), rules: [a1] },
    ])).toEqual([g, a1, r, a2]);
  });
});
