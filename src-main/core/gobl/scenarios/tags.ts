// The `$tags` a document may carry (GOBL's supportedTags): an invoice's default tags,
// then the regime's and each addon's tags for the document's schema, first definition
// of a key wins. GOBL refuses any other tag on invoices and deliveries.
import type { TagSetDef } from '../defs/types.ts';
import type { BuildContext } from '../engine/types.ts';
import { shortSchema } from './schema.ts';

// bill/invoice_tags.go, in its order.
const defaultInvoiceTags = [
  'simplified',
  'reverse-charge',
  'self-billed',
  'customer-rates',
  'partial',
  'bypass',
  'prepayment',
  'factoring',
];

// The schemas whose tags GOBL checks; orders and payments take any tag.
const checkedSchemas = new Set(['bill/invoice', 'bill/delivery']);

function tagsOf(sets: TagSetDef[] | undefined, schema: string): string[] {
  return sets?.find((s) => s.schema === schema)?.list.map((t) => t.key) ?? [];
}

/** Whether GOBL refuses tags its definitions do not list on this document's type. */
export function tagsAreChecked(ctx: BuildContext): boolean {
  return checkedSchemas.has(shortSchema(ctx));
}

/**
 * The tags the document may carry. For a schema GOBL does not check, that is every tag
 * the document already has, so a caller that refuses unknown tags refuses none.
 */
export function supportedTags(ctx: BuildContext): string[] {
  const schema = shortSchema(ctx);
  if (!checkedSchemas.has(schema)) return Array.isArray(ctx.doc?.$tags) ? [...ctx.doc.$tags] : [];
  const keys = schema === 'bill/invoice' ? [...defaultInvoiceTags] : [];
  for (const def of [ctx.regime, ...ctx.addons]) {
    for (const key of tagsOf(def?.tags, schema)) if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}
