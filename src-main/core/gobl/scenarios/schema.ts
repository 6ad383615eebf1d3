import type { BuildContext } from '../engine/types.ts';

/** The document's schema as GOBL's definitions name it: `bill/invoice` for `https://gobl.org/draft-0/bill/invoice`. */
export function shortSchema(ctx: BuildContext): string {
  return ctx.schema.replace(/^https?:\/\/gobl\.org\/draft-0\//, '');
}
