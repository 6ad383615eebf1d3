// MX: an RFC may itself start with "MX", so the prefix is only dropped when what is
// left still looks like an RFC. Invoices also migrate the old `mx-cfdi-post-code`
// party extension (2024): the supplier's post code becomes the issue place, the
// customer's moves into its first address.
import type { Node, NormRule } from '../engine/types.ts';
import { goUpper } from './codes.ts';
import { inRegime, taxIdIn } from './guards.ts';
import { codeOf, setCode } from './tax-id.ts';

const personRfc = /^[A-ZÑ&]{4}[0-9]{6}[A-Z0-9]{3}$/u;
const companyRfc = /^[A-ZÑ&]{3}[0-9]{6}[A-Z0-9]{3}$/u;

function looksLikeRfc(code: string): boolean {
  return personRfc.test(code) || companyRfc.test(code);
}

export function normaliseRfc(code: string): string {
  const clean = goUpper(code).replace(/[^A-ZÑ&0-9]+/gu, '');
  const trimmed = clean.startsWith('MX') ? clean.slice(2) : clean;
  return looksLikeRfc(trimmed) ? trimmed : clean;
}

const postCodeExt = 'mx-cfdi-post-code';
const issuePlaceExt = 'mx-cfdi-issue-place';

function extOf(node: Node | undefined): Record<string, string> | undefined {
  const ext = node?.ext;
  return ext && typeof ext === 'object' && Object.keys(ext).length > 0 ? ext : undefined;
}

function migrateSupplierPostCode(inv: Node): void {
  const ext: Record<string, string> = { ...(extOf(inv.tax) ?? {}) };
  const supplier = inv.supplier as Node | undefined;
  if (ext[issuePlaceExt] !== undefined || !supplier) return;
  const supplierExt = extOf(supplier);
  if (supplierExt?.[postCodeExt] !== undefined) {
    if (supplierExt[postCodeExt] !== '') ext[issuePlaceExt] = supplierExt[postCodeExt];
  } else if (Array.isArray(supplier.addresses) && supplier.addresses.length > 0) {
    const code = supplier.addresses[0]?.code;
    if (typeof code === 'string' && code !== '') ext[issuePlaceExt] = code;
  }
  if (Object.keys(ext).length > 0) {
    inv.tax ??= {};
    inv.tax.ext = sortedExt(ext);
  }
}

function migrateCustomerPostCode(inv: Node): void {
  const customer = inv.customer as Node | undefined;
  const code = extOf(customer)?.[postCodeExt];
  if (!customer || code === undefined) return;
  if (!Array.isArray(customer.addresses) || customer.addresses.length === 0) customer.addresses = [{}];
  setCode(customer.addresses[0], code);
}

function dropPostCodeExt(party: Node | undefined): void {
  const ext = extOf(party);
  if (!party || !ext || !(postCodeExt in ext)) return;
  delete ext[postCodeExt];
  if (Object.keys(ext).length === 0) delete party.ext;
}

// GOBL writes extensions with their keys in order.
function sortedExt(ext: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(ext).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const mxNormRules: NormRule[] = [
  {
    type: 'tax.Identity',
    when: taxIdIn('MX'),
    apply(id) {
      setCode(id, normaliseRfc(codeOf(id)));
    },
  },
  {
    type: 'bill.Invoice',
    when: inRegime('MX'),
    apply(inv) {
      migrateSupplierPostCode(inv);
      migrateCustomerPostCode(inv);
      dropPostCodeExt(inv.supplier);
      dropPostCodeExt(inv.customer);
    },
  },
];
