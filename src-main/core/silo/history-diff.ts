import { badRequest } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { jsonPath } from '../gobl/index.ts';
import { TurnBudget } from '../turn-budget.ts';
import { previousVersion, versionView, versionWithDocument } from './history.ts';

/** One difference between two versions, at a JSON path of the envelope (or a label: `state`, `folder`, `tags`, `key`, `trash`). */
export interface Change {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
  /** a money figure of the document (a total, a price, a tax amount), in this currency: show it as money */
  currency?: string;
}

/** Keys whose decimal values are money in the document's currency (GOBL's amounts: sums, totals, prices, taxes). */
const MONEY_KEYS = new Set([
  'sum', 'total', 'price', 'amount', 'base', 'tax', 'total_with_tax', 'payable', 'advance', 'due', 'rounding', 'discount', 'charge',
  'retained_tax', 'value',
]);
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** Derived from the document, so it changes with every edit: saying so adds nothing. */
const IGNORED = new Set(['$.head.dig', '$.head.dig.alg', '$.head.dig.val']);
export const MAX_CHANGES = 2000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function child(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : jsonPath([key]).replace(/^\$/, path);
}

/** Nodes compared between two chances for others to run: a 13,000-line invoice has some 400,000. */
const NODES_PER_TURN = 4096;

/** A step of the walk: two values to compare at a path, or a change found while walking their parent, kept in its place. */
type Step = { path: string; before: unknown; after: unknown } | Change;

/**
 * Every difference between two JSON values, by path, depth first, keys in order: an
 * object or array present on one side only is one change (its whole value), so adding a
 * line reads as one line added. Arrays compare element by element. Walked a piece at a time
 * (two versions of a 13,000-line invoice held the event loop 400 ms in one walk).
 */
export async function diffJson(before: unknown, after: unknown): Promise<Change[]> {
  const budget = new TurnBudget(NODES_PER_TURN);
  const out: Change[] = [];
  // Last in, first out: a parent's steps are pushed in reverse, so they are taken in order.
  const steps: Step[] = [{ path: '$', before, after }];
  let walked = 0;
  while (steps.length > 0 && out.length < MAX_CHANGES) {
    if (++walked % 256 === 0) await budget.spend(256);
    const step = steps.pop()!;
    if ('kind' in step) {
      push(out, step);
      continue;
    }
    const { path, before: b, after: a } = step;
    if (IGNORED.has(path)) continue;
    if (isObject(b) && isObject(a)) {
      const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const p = child(path, key);
        if (!(key in a)) steps.push({ path: p, kind: 'removed', before: b[key] });
        else if (!(key in b)) steps.push({ path: p, kind: 'added', after: a[key] });
        else steps.push({ path: p, before: b[key], after: a[key] });
      }
    } else if (Array.isArray(b) && Array.isArray(a)) {
      for (let i = Math.max(b.length, a.length) - 1; i >= 0; i--) {
        const p = child(path, i);
        if (i >= a.length) steps.push({ path: p, kind: 'removed', before: b[i] });
        else if (i >= b.length) steps.push({ path: p, kind: 'added', after: a[i] });
        else steps.push({ path: p, before: b[i], after: a[i] });
      }
    } else if (!sameLeaf(b, a)) push(out, { path, kind: 'changed', before: b, after: a });
  }
  return out;
}

/** Two values of parsed JSON that are not both objects or both arrays: the same when equal as scalars, never when either is a container. */
const sameLeaf = (b: unknown, a: unknown): boolean => b === a && (typeof b !== 'object' || b === null);

function push(out: Change[], change: Change): void {
  if (out.length < MAX_CHANGES && !IGNORED.has(change.path)) out.push(change);
}

/** The last key of a path (`$.doc.totals.payable` → payable, `$.doc.lines[0].sum` → sum). */
const lastKey = (path: string): string => /\.([A-Za-z_$][A-Za-z0-9_$]*)$|\['([^']+)'\]$/.exec(path)?.slice(1).find(Boolean) ?? '';

/** Marks the money figures of a document's changes with its currency, so they are shown as money. */
export function markMoney(changes: Change[], currency: string | undefined): Change[] {
  if (!currency) return changes;
  return changes.map((c) => {
    const values = [c.before, c.after].filter((v) => v !== undefined);
    const money = c.path.startsWith('$.doc') && MONEY_KEYS.has(lastKey(c.path)) && values.length > 0 && values.every((v) => typeof v === 'string' && DECIMAL.test(v));
    return money ? { ...c, currency } : c;
  });
}

function labelChanges(from: ReturnType<typeof versionView>, to: ReturnType<typeof versionView>): Change[] {
  const out: Change[] = [];
  const label = (path: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path, kind: 'changed', before, after });
  };
  label('state', from.state, to.state);
  label('folder', from.folder, to.folder);
  label('tags', from.tags, to.tags);
  label('key', from.key ?? null, to.key ?? null);
  label('trash', from.trashed, to.trashed);
  return out;
}

const currencyOf = (envelope: Record<string, unknown>): string | undefined => {
  const doc = envelope.doc;
  return isObject(doc) && typeof doc.currency === 'string' ? doc.currency : undefined;
};

/**
 * What changed from version `from` (by default the one before) to version `to`: the
 * labels, then the envelope by JSON path with each side's value; money figures carry
 * the document's currency. The first version compares with nothing: all of it is added.
 */
export async function diffVersions(ctx: Ctx, id: string, to: number, from?: number) {
  if (from !== undefined && from === to) throw badRequest('from and to are the same version', { from: 'must differ from the version compared' });
  const base = from ?? (await previousVersion(ctx, id, to));
  const after = await versionWithDocument(ctx, id, to);
  const before = base !== undefined ? await versionWithDocument(ctx, id, base) : undefined;
  const toView = versionView(after.row);
  const labels = before ? labelChanges(versionView(before.row), toView) : [];
  const document = markMoney(await diffJson(before?.data ?? {}, after.data), currencyOf(after.data) ?? (before ? currencyOf(before.data) : undefined));
  const changes = [...labels, ...document];
  return {
    entry_id: id,
    ...(before ? { from: versionView(before.row) } : {}),
    to: toView,
    changes: changes.slice(0, MAX_CHANGES),
    ...(changes.length >= MAX_CHANGES ? { truncated: true as const } : {}),
  };
}
