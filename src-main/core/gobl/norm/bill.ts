// bill: document type defaults, legacy rounding names, negative prices turned into negative
// quantities, and empty or nil entries dropped from a line's lists.
import type { Node, NormRule } from '../engine/types.ts';
import { isNegativeNumber, isZeroNumber, negateNumber } from './amounts.ts';

function defaultType(type: string, fallback: string): NormRule {
  return {
    type,
    apply: (doc) => {
      if (typeof doc.type !== 'string' || doc.type === '') doc.type = fallback;
    },
  };
}

// A negative price reads as a positive price for a negative quantity.
function normalizeNegativePrice(line: Node): void {
  const price = line.item?.price;
  if (!isNegativeNumber(price)) return;
  line.item.price = negateNumber(price);
  if (typeof line.quantity === 'string') line.quantity = negateNumber(line.quantity);
}

function isEmptyMap(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** A line discount or charge with nothing in it (a base alone does not count). */
export function isEmptyLineAdjustment(adj: Node | null): boolean {
  if (adj === null) return true;
  return isBlank(adj.key) && isBlank(adj.code) && isBlank(adj.reason) &&
    (isBlank(adj.percent) || isZeroNumber(adj.percent)) &&
    (isBlank(adj.amount) || isZeroNumber(adj.amount)) &&
    isEmptyMap(adj.ext);
}

/** A sub-line with nothing in it. */
export function isEmptySubLine(sub: Node | null): boolean {
  if (sub === null) return true;
  const emptyList = (v: unknown) => !Array.isArray(v) || v.length === 0;
  return isBlank(sub.uuid) && (isBlank(sub.quantity) || isZeroNumber(sub.quantity)) &&
    isBlank(sub.identifier) && isBlank(sub.period) && isBlank(sub.order) && isBlank(sub.cost) &&
    isBlank(sub.item) && isBlank(sub.sum) && emptyList(sub.discounts) && emptyList(sub.charges) &&
    isBlank(sub.total) && emptyList(sub.notes);
}

// Go leaves a list that ends up empty as nil, which is then not written.
function keepList(node: Node, field: string, keep: (item: any) => boolean): void {
  const list = node[field];
  if (!Array.isArray(list)) return;
  const kept = list.filter(keep);
  if (kept.length === 0) delete node[field];
  else if (kept.length !== list.length) node[field] = kept;
}

const notNull = (item: unknown) => item !== null && item !== undefined;

export function normalizeLine(line: Node): void {
  normalizeNegativePrice(line);
  keepList(line, 'taxes', notNull);
  keepList(line, 'discounts', (d) => !isEmptyLineAdjustment(d));
  keepList(line, 'charges', (c) => !isEmptyLineAdjustment(c));
  keepList(line, 'breakdown', (s) => !isEmptySubLine(s));
}

export function normalizeSubLine(sub: Node): void {
  normalizeNegativePrice(sub);
  keepList(sub, 'discounts', (d) => !isEmptyLineAdjustment(d));
  keepList(sub, 'charges', (c) => !isEmptyLineAdjustment(c));
}

/** Legacy rounding names written by GOBL v0.211. */
const LEGACY_ROUNDING: Record<string, string> = { 'sum-then-round': 'precise', 'round-then-sum': 'currency' };

export function normalizeBillTax(tax: Node): void {
  if (typeof tax.rounding === 'string' && Object.hasOwn(LEGACY_ROUNDING, tax.rounding)) tax.rounding = LEGACY_ROUNDING[tax.rounding];
}

const cleanTaxes: NormRule['apply'] = (node) => keepList(node, 'taxes', notNull);

export const billNormRules: NormRule[] = [
  defaultType('bill.Invoice', 'standard'),
  defaultType('bill.Delivery', 'advice'),
  defaultType('bill.Payment', 'receipt'),
  defaultType('bill.Order', 'purchase'),
  { type: 'bill.Line', apply: normalizeLine },
  { type: 'bill.SubLine', apply: normalizeSubLine },
  { type: 'bill.Tax', apply: normalizeBillTax },
  { type: 'bill.Charge', apply: cleanTaxes },
  { type: 'bill.Discount', apply: cleanTaxes },
];
