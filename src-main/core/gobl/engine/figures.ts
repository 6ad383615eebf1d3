// Which differences between a stated document and its rebuild are figures: a complete document whose
// figures a build would change is inconsistent. Other differences (a key GOBL fills in, a code it
// trims) are normalisation, which a build applies silently.
import type { EngineFault, Node } from './types.ts';

const FIGURE_KEYS = new Set([
  'i', 'sum', 'total', 'amount', 'base', 'percent', 'surcharge', 'tax', 'total_with_tax', 'payable',
  'retained_tax', 'tax_included', 'discount', 'charge', 'advance', 'due', 'rounding', 'retained', 'price',
]);

// Sections whose every member is calculated, so a member present on one side only is a figure too.
const CALCULATED_SECTIONS = new Set(['totals', 'taxes']);

type Path = Array<string | number>;

function pathText(path: Path): string {
  let out = '$';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  return out;
}

function isFigurePath(path: Path): boolean {
  const last = path[path.length - 1];
  if (typeof last === 'string' && FIGURE_KEYS.has(last)) return true;
  return path.some((p) => typeof p === 'string' && CALCULATED_SECTIONS.has(p));
}

function show(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Figures of `stated` that differ from `built` (the same document after a build), as faults at the
 * envelope path `$.doc…`, each with what the document says and what GOBL calculates.
 */
export function figureFaults(stated: Node, built: Node, prefix: Path = ['doc']): EngineFault[] {
  const faults: EngineFault[] = [];
  const visit = (a: unknown, b: unknown, path: Path): void => {
    if (a === b) return;
    const aObj = typeof a === 'object' && a !== null;
    const bObj = typeof b === 'object' && b !== null;
    if (aObj && bObj && Array.isArray(a) === Array.isArray(b)) {
      if (Array.isArray(a)) {
        const bArr = b as unknown[];
        const n = Math.max(a.length, bArr.length);
        for (let i = 0; i < n; i++) visit(a[i], bArr[i], [...path, i]);
      } else {
        const keys = new Set([...Object.keys(a as Node), ...Object.keys(b as Node)]);
        for (const key of keys) visit((a as Node)[key], (b as Node)[key], [...path, key]);
      }
      return;
    }
    if (!isFigurePath(path)) return;
    if (aObj || bObj) {
      // A whole calculated section present on one side only: one fault for it, not one per figure.
      faults.push({ code: 'calculation', message: `${pathText(path)}: stated ${a === undefined ? 'nothing' : 'a value'}, calculated ${b === undefined ? 'nothing' : 'a value'}`, paths: [pathText(path)] });
      return;
    }
    faults.push({
      code: 'calculation',
      message: `stated ${show(a)}, calculated ${show(b)}`,
      paths: [pathText(path)],
      stated: show(a),
      calculated: show(b),
    });
  };
  visit(stated, built, prefix);
  return faults;
}
