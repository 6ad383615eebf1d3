// The two kinds of guard GOBL puts on regime normalisers.
import type { BuildContext, Node } from '../engine/types.ts';

/**
 * A tax identity is normalised by the regime of its own country, whatever the
 * document's regime (GOBL's `tax.IdentityIn`): an FR customer's SIREN becomes a VAT
 * code on a Spanish invoice too.
 */
export function taxIdIn(...countries: string[]): (id: Node) => boolean {
  return (id) => typeof id.country === 'string' && countries.includes(id.country);
}

/** Every other regime normaliser only runs in documents of that regime (`tax.RegimeIn`). */
export function inRegime(code: string): (node: Node, ctx: BuildContext) => boolean {
  return (_node, ctx) => documentRegime(ctx) === code;
}

// `$regime` as the document states it; GOBL compares the raw code, not the definition's.
function documentRegime(ctx: BuildContext): string | undefined {
  const stated = ctx.doc?.$regime;
  if (typeof stated === 'string' && stated !== '') return stated;
  return ctx.regime?.country;
}
