import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { frChorusproV1Rules as rules } from '../../../src-main/core/gobl/addons/fr-choruspro-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('fr-choruspro-v1', () => {
  it('defaults the framework to A1 and keeps a given one', () => {
    expect(run('bill.Invoice', {}).tax).toEqual({ ext: { 'fr-choruspro-framework': 'A1' } });
    expect(run('bill.Invoice', { tax: { ext: { 'fr-choruspro-framework': 'A2' } } }).tax.ext).toEqual({ 'fr-choruspro-framework': 'A2' });
  });

  it('keeps at most four decimals in line quantities', () => {
    expect(run('bill.Line', { quantity: '1.234567' }).quantity).toBe('1.2346');
    expect(run('bill.Line', { quantity: '3.50' }).quantity).toBe('3.50');
  });

  it('sets the party scheme: 2 for EU tax IDs, 3 for others, 1 for a French SIRET', () => {
    expect(run('org.Party', { tax_id: { country: 'DE', code: '1' } }).ext).toEqual({ 'fr-choruspro-scheme': '2' });
    expect(run('org.Party', { tax_id: { country: 'CH' } }).ext).toEqual({ 'fr-choruspro-scheme': '3' });
    expect(run('org.Party', { tax_id: { country: 'FR' }, identities: [{ type: 'SIRET', code: '1' }] }).ext).toEqual({ 'fr-choruspro-scheme': '1' });
    expect(run('org.Party', { tax_id: { country: 'FR' } }).ext).toBeUndefined();
    expect(run('org.Party', { tax_id: { country: 'DE' }, ext: { 'fr-choruspro-scheme': '5' } }).ext).toEqual({ 'fr-choruspro-scheme': '5' });
  });
});
