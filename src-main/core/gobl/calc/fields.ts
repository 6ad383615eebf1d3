// Reading GOBL numbers out of the JSON tree. A value that is not a GOBL number is input GOBL
// refuses to unmarshal, so it becomes a BuildError at the field's path.
import { BuildError } from '../engine/types.ts';
import type { Node } from '../engine/types.ts';
import { Amount, Percentage } from '../num/index.ts';

const ZERO = new Amount(0, 0);
const EMPTY: Node[] = [];

function refuse(path: string, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  throw new BuildError([{ code: 'invalid-number', message, paths: [path] }]);
}

/** The amount at node[key], undefined when absent or null. `path` is the node's own path. */
export function readAmount(node: Node, key: string, path: string): Amount | undefined {
  const v = node[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') refuse(`${path}.${key}`, new Error(`${key} must be a number`));
  try {
    return Amount.parse(v);
  } catch (error) {
    refuse(`${path}.${key}`, error);
  }
}

/** The percentage at node[key], undefined when absent or null. */
export function readPercent(node: Node, key: string, path: string): Percentage | undefined {
  const v = node[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') refuse(`${path}.${key}`, new Error(`${key} must be a percentage`));
  try {
    return Percentage.parse(v);
  } catch (error) {
    refuse(`${path}.${key}`, error);
  }
}

/** readAmount, writing the value back as GOBL prints it (a JSON number 5 becomes "5"). */
export function takeAmount(node: Node, key: string, path: string): Amount | undefined {
  const a = readAmount(node, key, path);
  if (a) node[key] = a.toString();
  return a;
}

/** readPercent, writing the value back as GOBL prints it ("0.1" becomes "10%"). */
export function takePercent(node: Node, key: string, path: string): Percentage | undefined {
  const p = readPercent(node, key, path);
  if (p) node[key] = p.toString();
  return p;
}

/** A value-typed GOBL amount: absent reads as zero ("0"), as Go's zero value does. */
export function readAmountOrZero(node: Node, key: string, path: string): Amount {
  return readAmount(node, key, path) ?? ZERO;
}

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A list field as it stands (entries keep their positions; callers skip non-objects, as GOBL skips nils). */
export function listOf(node: Node | undefined, key: string): Node[] {
  const v = node?.[key];
  return Array.isArray(v) ? v : EMPTY;
}

export function nonEmptyString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
