// Compares stated figures with recomputed ones and decides which of the two
// later figures build on.
//
// When a figure disagrees, either the figure itself is wrong (later figures
// were computed from the right value) or something it was computed from is
// (later figures follow the stated one: a changed quantity leaves the line
// sum, and everything after it, as GOBL wrote them). The caller runs the check
// once per choice and keeps the one that explains more of the document, so
// each error is reported once, where it is, instead of at every figure after it.
import type { Fault } from '../fault.ts';
import { jsonPath } from '../json-path.ts';
import { agrees, formatAmount, parseAmount, unit } from './amount.ts';
import type { Amount } from './amount.ts';

export const PROVIDER = 'gobl.validate';

export type Choice = 'stated' | 'expected';
export type Segment = string | number;

export type FigureCheck = {
  /** where the stated figure sits in the document, e.g. ['lines', 0, 'sum'] */
  path: readonly Segment[];
  code: string;
  /** the figure as the document states it (any JSON value) */
  stated: unknown;
  /** the recomputed figure; undefined when something it needs is missing */
  expected: Amount | undefined;
  /** how the expected figure comes about, given it written like the stated one */
  explain: (expected: string) => string;
};

export type Audit = {
  readonly faults: Fault[];
  /** paths of the disagreeing figures, in the order they were met */
  readonly disagreements: string[];
  /** compares one figure and returns the value the figures after it build on */
  figure(check: FigureCheck): Amount | undefined;
  /** a fault about the document's structure, with no figure to carry on from */
  report(path: readonly Segment[], code: string, message: string): void;
};

export function createAudit(choices: ReadonlyMap<string, Choice>): Audit {
  const faults: Fault[] = [];
  const disagreements: string[] = [];

  const report = (path: readonly Segment[], code: string, message: string): void => {
    faults.push({ code, message, provider: PROVIDER, path: jsonPath(['doc', ...path]) });
  };

  const figure = (check: FigureCheck): Amount | undefined => {
    const stated = parseAmount(check.stated);
    const { expected } = check;
    if (!stated) return expected;
    if (!expected) return approximately(stated, stated.exp + 2);
    if (agrees(stated, expected)) return expected;

    const where = jsonPath(['doc', ...check.path]);
    disagreements.push(where);
    const shown = formatAmount(expected, stated.exp);
    report(check.path, check.code, `${relative(check.path)} is ${check.stated as string} but ${check.explain(shown)}`);
    return choices.get(where) === 'stated' ? approximately(stated, Math.max(expected.exp, stated.exp)) : expected;
  };

  return { faults, disagreements, figure, report };
}

/** The path as people read it inside the document: "lines[0].sum". */
export function relative(path: readonly Segment[]): string {
  return jsonPath(path).slice(2);
}

// A stated figure stands in for the one GOBL held, which may have had more
// decimals than were written out: it is known to half a unit of the last one.
function approximately(stated: Amount, exp: number): Amount {
  const err = exp > stated.exp ? unit(stated.exp).div(2) : stated.err;
  return { value: stated.value, exp, err };
}
