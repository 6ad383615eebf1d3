// Scenario notes and extensions, and the tags an invoice may carry.
import { describe, expect, it } from 'vitest';
import { addonDef, regimeDef } from '../../../src-main/core/gobl/defs/index.ts';
import type { BuildContext, Node } from '../../../src-main/core/gobl/engine/types.ts';
import { applyScenarios } from '../../../src-main/core/gobl/scenarios/apply.ts';
import { supportedTags } from '../../../src-main/core/gobl/scenarios/tags.ts';

function ctxFor(doc: Node, regime: string, addons: string[] = [], schema = 'bill/invoice'): BuildContext {
  return {
    schema: `https://gobl.org/draft-0/${schema}`,
    rootType: schema === 'bill/invoice' ? 'bill.Invoice' : 'bill.Delivery',
    regime: regimeDef(regime),
    addons: addons.map((k) => addonDef(k)!),
    doc,
    now: new Date('2026-01-01T12:00:00Z'),
  };
}

const vatLine = (key = 'standard') => ({ quantity: '1', item: { price: '10' }, taxes: [{ cat: 'VAT', key }] });
const reverseChargeNote = { cat: 'VAT', key: 'reverse-charge', text: 'Reverse Charge / Inversión del sujeto pasivo.' };

describe('scenario notes', () => {
  it('adds the ES reverse-charge note to a reverse-charge VAT invoice', () => {
    const inv: Node = { type: 'standard', $tags: ['reverse-charge'], lines: [vatLine('reverse-charge')] };
    applyScenarios(inv, ctxFor(inv, 'ES'));
    expect(inv.tax).toEqual({ notes: [reverseChargeNote] });
  });

  it('needs the tag and a matching category', () => {
    const untagged: Node = { type: 'standard', lines: [vatLine()] };
    applyScenarios(untagged, ctxFor(untagged, 'ES'));
    expect(untagged.tax).toBeUndefined();
    const igic: Node = { type: 'standard', $tags: ['reverse-charge'], lines: [{ taxes: [{ cat: 'IGIC' }] }] };
    applyScenarios(igic, ctxFor(igic, 'ES'));
    expect(igic.tax.notes).toEqual([{ ...reverseChargeNote, cat: 'IGIC' }]);
  });

  it('keeps a note with the same category and key that is already there', () => {
    const own = { cat: 'VAT', key: 'reverse-charge', text: 'Our own wording.' };
    const inv: Node = { type: 'standard', $tags: ['reverse-charge'], tax: { notes: [own] }, lines: [vatLine()] };
    applyScenarios(inv, ctxFor(inv, 'ES'));
    expect(inv.tax.notes).toEqual([own]);
  });

  it('adds a note without category for the self-billed tag', () => {
    const inv: Node = { type: 'standard', $tags: ['self-billed'], lines: [vatLine()] };
    applyScenarios(inv, ctxFor(inv, 'ES'));
    expect(inv.tax.notes).toEqual([{ key: 'self-billed', text: 'Facturación por el destinatario.' }]);
  });

  it('normalises a new note with the addons, as GOBL does (EN 16931 tax category)', () => {
    const inv: Node = { type: 'standard', $tags: ['reverse-charge'], lines: [vatLine('reverse-charge')] };
    applyScenarios(inv, ctxFor(inv, 'DE', ['eu-en16931-v2017']));
    expect(inv.tax.notes).toHaveLength(1);
    expect(inv.tax.notes[0]).toMatchObject({ cat: 'VAT', key: 'reverse-charge', ext: { 'untdid-tax-category': 'AE' } });
  });

  it('lets the pipeline normalise each new note, on a copy of the definition', () => {
    const inv: Node = { type: 'standard', $tags: ['reverse-charge'], lines: [vatLine()] };
    applyScenarios(inv, ctxFor(inv, 'ES'), (note) => {
      note.ext = { 'untdid-tax-category': 'AE' };
    });
    expect(inv.tax.notes[0].ext).toEqual({ 'untdid-tax-category': 'AE' });
    const again: Node = { type: 'standard', $tags: ['reverse-charge'], lines: [vatLine()] };
    applyScenarios(again, ctxFor(again, 'ES'));
    expect(again.tax.notes[0].ext).toBeUndefined();
  });
});

describe('scenario extensions', () => {
  it('sets the UNTDID document type from the invoice type', () => {
    const credit: Node = { type: 'credit-note', lines: [vatLine()] };
    applyScenarios(credit, ctxFor(credit, 'DE', ['eu-en16931-v2017']));
    expect(credit.tax).toEqual({ ext: { 'untdid-document-type': '381' } });
  });

  it('lets a later, more specific scenario override and keeps other ext codes', () => {
    const inv: Node = {
      type: 'standard',
      $tags: ['self-billed'],
      tax: { ext: { 'untdid-document-type': '380', 'x-other': '1' } },
      lines: [vatLine()],
    };
    applyScenarios(inv, ctxFor(inv, 'DE', ['eu-en16931-v2017']));
    expect(inv.tax.ext).toEqual({ 'untdid-document-type': '389', 'x-other': '1' });
  });

  it('does nothing for documents other than invoices', () => {
    const delivery: Node = { type: 'standard', $tags: ['reverse-charge'], lines: [vatLine()] };
    applyScenarios(delivery, ctxFor(delivery, 'ES', [], 'bill/delivery'));
    expect(delivery.tax).toBeUndefined();
  });
});

describe('supported tags', () => {
  it('an invoice has GOBL defaults, then regime and addon tags, once each', () => {
    const tags = supportedTags(ctxFor({}, 'ES', ['es-verifactu-v1']));
    expect(tags.slice(0, 8)).toEqual([
      'simplified', 'reverse-charge', 'self-billed', 'customer-rates', 'partial', 'bypass', 'prepayment', 'factoring',
    ]);
    expect(tags).toContain('travel-agency');
    expect(tags.at(-1)).toBe('replacement');
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('does not offer another regime\'s tags', () => {
    expect(supportedTags(ctxFor({}, 'DE'))).not.toContain('travel-agency');
    expect(supportedTags(ctxFor({}, 'IT', ['it-sdi-v1']))).toContain('b2g');
  });

  it('a delivery has no default tags', () => {
    expect(supportedTags(ctxFor({}, 'ES', [], 'bill/delivery'))).toEqual([]);
  });
});
