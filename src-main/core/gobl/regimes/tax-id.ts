// Building blocks for the tax-identity normalisers of each regime.
import type { Node, NormRule } from '../engine/types.ts';
import { cleanTaxCode } from './codes.ts';
import { taxIdIn } from './guards.ts';

/** The identity's code, '' when absent. */
export function codeOf(node: Node): string {
  return typeof node.code === 'string' ? node.code : '';
}

/** Writes a code back; an empty code disappears, as GOBL omits it. */
export function setCode(node: Node, code: string): void {
  if (code === '') delete node.code;
  else node.code = code;
}

/**
 * The tax-identity rule of a regime whose only per-country step is GOBL's standard
 * cleaning (upper case, no separators, no country prefix), optionally followed by
 * the regime's own finishing touch.
 */
export function taxIdRule(
  countries: string[],
  finish?: (code: string, id: Node) => string,
  altPrefixes: string[] = [],
): NormRule {
  return {
    type: 'tax.Identity',
    when: taxIdIn(...countries),
    apply(id) {
      let code = cleanTaxCode(codeOf(id), String(id.country), altPrefixes);
      if (finish) code = finish(code, id);
      setCode(id, code);
    },
  };
}
