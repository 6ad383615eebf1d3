// Extension-map edits with GOBL's semantics (tax.Extensions), on the plain JSON tree: a node's
// `ext` is an object of key → code; an empty map is left out, as GOBL omits a zero `ext`.
import type { Node } from '../engine/types.ts';

export type Ext = Record<string, string>;

/** The node's ext map (never created). */
export function extOf(node: Node | undefined): Ext {
  const ext = node?.ext;
  return ext && typeof ext === 'object' && !Array.isArray(ext) ? ext : {};
}

export function extGet(node: Node | undefined, key: string): string {
  const value = extOf(node)[key];
  return typeof value === 'string' ? value : '';
}

export function extHas(node: Node | undefined, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(extOf(node), key);
}

function writeExt(node: Node, ext: Ext): void {
  if (Object.keys(ext).length === 0) delete node.ext;
  else node.ext = ext;
}

/** Sets key to code; an empty code removes the key, as GOBL's Set does. */
export function extSet(node: Node, key: string, code: string): void {
  if (code === '') {
    extDelete(node, key);
    return;
  }
  writeExt(node, { ...extOf(node), [key]: code });
}

/** Keeps the current code when it is one of `alternatives`; otherwise sets `code`. */
export function extSetOneOf(node: Node, key: string, code: string, ...alternatives: string[]): void {
  const current = extOf(node)[key];
  if (extHas(node, key) && alternatives.includes(current)) return;
  writeExt(node, { ...extOf(node), [key]: code });
}

/** Sets key only when the map has no entry for it. */
export function extSetIfEmpty(node: Node, key: string, code: string): void {
  if (extHas(node, key)) return;
  writeExt(node, { ...extOf(node), [key]: code });
}

export function extDelete(node: Node, key: string): void {
  if (!extHas(node, key)) return;
  const next = { ...extOf(node) };
  delete next[key];
  writeExt(node, next);
}

/** Adds every entry of `codes` over the node's own (GOBL's Merge: the argument wins). */
export function extMerge(node: Node, codes: Ext): void {
  writeExt(node, { ...extOf(node), ...codes });
}

/** Adds `defaults` only where the node has no entry (GOBL's `defaults.Merge(ext)`). */
export function extDefaults(node: Node, defaults: Ext): void {
  writeExt(node, { ...defaults, ...extOf(node) });
}

/** The invoice's `tax` object, created empty when missing (GOBL's `inv.Tax = new(bill.Tax)`). */
export function invoiceTax(inv: Node): Node {
  if (!inv.tax || typeof inv.tax !== 'object') inv.tax = {};
  return inv.tax;
}

/** GOBL's `inv.Tax.MergeExtensions(ext)`: creates `tax` only when there is something to merge. */
export function mergeInvoiceTaxExt(inv: Node, codes: Ext): void {
  if (Object.keys(codes).length === 0) return;
  extMerge(invoiceTax(inv), codes);
}
