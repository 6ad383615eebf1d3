import { describe, expect, it } from 'vitest';
import { addonKeys } from '../../../src-main/core/gobl/defs/index.ts';
import { addonKeysWithRules, addonNormRules } from '../../../src-main/core/gobl/addons/index.ts';
import { extDefaults, extDelete, extMerge, extSet, extSetIfEmpty, extSetOneOf, mergeInvoiceTaxExt } from '../../../src-main/core/gobl/addons/ext.ts';
import { isEuMember } from '../../../src-main/core/gobl/addons/eu-members.ts';
import { keyForCode, lookupKeyCode, own } from '../../../src-main/core/gobl/addons/lookup.ts';
import { rescaleDownText, rescaleDownValue } from '../../../src-main/core/gobl/addons/rescale-down.ts';

describe('ext edits (GOBL tax.Extensions semantics)', () => {
  it('Set adds or replaces, and an empty code deletes; an emptied map disappears', () => {
    const node: any = { ext: { a: '1' } };
    extSet(node, 'b', '2');
    expect(node.ext).toEqual({ a: '1', b: '2' });
    extSet(node, 'a', '');
    expect(node.ext).toEqual({ b: '2' });
    extDelete(node, 'b');
    expect(node).toEqual({});
  });

  it('SetOneOf keeps only the listed alternatives, otherwise sets the default', () => {
    const kept: any = { ext: { k: 'E6' } };
    extSetOneOf(kept, 'k', 'E1', 'E6');
    expect(kept.ext.k).toBe('E6');
    const replaced: any = { ext: { k: 'E9' } };
    extSetOneOf(replaced, 'k', 'E1', 'E6');
    expect(replaced.ext.k).toBe('E1');
    const missing: any = {};
    extSetOneOf(missing, 'k', 'E1', 'E6');
    expect(missing.ext).toEqual({ k: 'E1' });
  });

  it('SetIfEmpty leaves a present key alone; Merge lets the argument win; defaults do not', () => {
    const node: any = { ext: { r: '02' } };
    extSetIfEmpty(node, 'r', '01');
    expect(node.ext.r).toBe('02');
    extMerge(node, { r: '03', x: 'y' });
    expect(node.ext).toEqual({ r: '03', x: 'y' });
    extDefaults(node, { r: '09', z: '1' });
    expect(node.ext).toEqual({ r: '03', x: 'y', z: '1' });
  });

  it('merging into an invoice creates tax only when there is something to merge', () => {
    const inv: any = {};
    mergeInvoiceTaxExt(inv, {});
    expect(inv.tax).toBeUndefined();
    mergeInvoiceTaxExt(inv, { k: 'v' });
    expect(inv.tax).toEqual({ ext: { k: 'v' } });
  });
});

describe('lookups', () => {
  const map = { card: '48', 'card+debit': '55', online: '68' };
  it('falls back through sub-keys like GOBL CodeMap.Lookup', () => {
    expect(lookupKeyCode(map, 'card+debit')).toBe('55');
    expect(lookupKeyCode(map, 'card+credit')).toBe('48');
    expect(lookupKeyCode(map, 'online+foo+bar')).toBe('68');
    expect(lookupKeyCode(map, 'cash')).toBe('');
    expect(lookupKeyCode(map, undefined)).toBe('');
  });
  it('reverse-looks up a key by code and ignores inherited properties', () => {
    expect(keyForCode(map, '55')).toBe('card+debit');
    expect(keyForCode(map, '')).toBe('');
    expect(own(map, 'constructor')).toBe('');
  });
});

describe('EU membership', () => {
  it('knows Greece by EL and GR, and that GB left in 2020', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(isEuMember('EL', now)).toBe(true);
    expect(isEuMember('GR', now)).toBe(true);
    expect(isEuMember('GB', now)).toBe(false);
    expect(isEuMember('GB', new Date('2019-06-01T00:00:00Z'))).toBe(true);
    expect(isEuMember('US', now)).toBe(false);
  });
});

describe('rescaleDown', () => {
  it('only removes decimals, rounding half away from zero', () => {
    expect(rescaleDownText('1.23456', 4)).toBe('1.2346');
    expect(rescaleDownText('-1.23455', 4)).toBe('-1.2346');
    expect(rescaleDownText('9.99995', 4)).toBe('10.0000');
    expect(rescaleDownText('-0.00001', 4)).toBe('0.0000');
    expect(rescaleDownText('2.5', 4)).toBe('2.5');
    expect(rescaleDownText('12', 4)).toBe('12');
    expect(rescaleDownValue(1.234567, 4)).toBe('1.2346');
  });
});

describe('addonNormRules', () => {
  it('has an entry for every addon GOBL publishes', () => {
    expect(addonKeysWithRules().sort()).toEqual(addonKeys());
  });
  it('gives no rules for data-only addons and unknown keys', () => {
    expect(addonNormRules('de-xrechnung-v3')).toEqual([]);
    expect(addonNormRules('nope-v1')).toEqual([]);
    expect(addonNormRules('es-sii-v1').map((r) => r.type)).toEqual(['bill.Invoice', 'bill.Line', 'tax.Combo']);
  });
});
