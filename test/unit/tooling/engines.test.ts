import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `engines.node` in package.json and README must name the Node that really runs
 * `npm install` without EBADENGINE warnings: every version it admits must satisfy every
 * locked package's own engines.node (npm warns for each one that does not).
 */
type V = [number, number, number];
const cmp = (a: V, b: V) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** A small subset of semver ranges (>=, >, <, <=, =, ^, ~, x, ||): enough for engines fields; throws on anything else. */
export function satisfies(version: V, range: string): boolean {
  const sets = range.split('||').map((set) => set.trim().replace(/([<>=^~]+)\s+/g, '$1').split(/\s+/).filter(Boolean).map(parse));
  return sets.some((set) => set.every((c) => check(version, c)));
}

function parse(comparator: string): RegExpExecArray {
  const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (!m) throw new Error(`unsupported range comparator: ${comparator}`);
  return m;
}

function check(v: V, m: RegExpExecArray): boolean {
  const op = m[1] ?? '';
  const parts = [m[2], m[3], m[4]].map((p) => (p === undefined || p === 'x' || p === '*' ? undefined : Number(p)));
  const given = parts.findIndex((p) => p === undefined);
  const known = given === -1 ? 3 : given;
  const low: V = [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
  const bump = (i: number): V => (i === 0 ? [low[0] + 1, 0, 0] : i === 1 ? [low[0], low[1] + 1, 0] : [low[0], low[1], low[2] + 1]);
  if (known === 0) return op === '<' || op === '>' ? false : true;
  switch (op) {
    case '>=': return cmp(v, low) >= 0;
    case '>': return cmp(v, bump(known - 1)) >= 0;
    case '<': return cmp(v, low) < 0;
    case '<=': return known === 3 ? cmp(v, low) <= 0 : cmp(v, bump(known - 1)) < 0;
    case '^': {
      const first = low[0] > 0 || known === 1 ? 0 : low[1] > 0 || known === 2 ? 1 : 2;
      return cmp(v, low) >= 0 && cmp(v, bump(first)) < 0;
    }
    case '~': return cmp(v, low) >= 0 && cmp(v, bump(known >= 2 ? 1 : 0)) < 0;
    default: return cmp(v, low) >= 0 && cmp(v, bump(known - 1)) < 0;
  }
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const ours: string = pkg.engines.node;
type Locked = { engines?: { node?: string } | string[]; cpu?: string[]; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
const packages = lock.packages as Record<string, Locked>;

/**
 * The locked packages npm installs on some real machine: everything reachable from the
 * project, except the WebAssembly fallbacks (cpu wasm32), installed only on request.
 */
function installable(): string[] {
  const seen = new Set<string>();
  const queue = [''];
  while (queue.length > 0) {
    const at = queue.pop()!;
    const p = packages[at];
    if (seen.has(at) || !p || (p.cpu && p.cpu.every((cpu) => cpu === 'wasm32'))) continue;
    seen.add(at);
    const deps = { ...p.dependencies, ...p.optionalDependencies, ...(at === '' ? p.devDependencies : {}) };
    for (const name of Object.keys(deps)) {
      // Node's resolution: the nearest node_modules/name from `at` upwards.
      for (let dir = at; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
        const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
        if (packages[candidate]) {
          queue.push(candidate);
          break;
        }
        if (dir === '') break;
      }
    }
  }
  return [...seen].filter((path) => path !== '');
}

const theirs = installable()
  .map((path) => ({ name: path.replace(/^.*node_modules\//, ''), engines: packages[path].engines }))
  .filter((p): p is { name: string; engines: { node: string } } => !!p.engines && !Array.isArray(p.engines) && !!p.engines.node)
  .map((p) => ({ name: p.name, range: p.engines.node }));

/** Node releases from 18 to 30, a few minors each. */
const versions: V[] = [];
for (let major = 18; major <= 30; major++) for (const minor of [0, 6, 9, 11, 12, 13, 17, 18, 19, 20, 40]) versions.push([major, minor, 0]);

describe('the Node version package.json and README ask for', () => {
  it('reads semver ranges like npm', () => {
    expect(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies([21, 0, 0], '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies([22, 11, 0], '>= 22.12.0')).toBe(false);
    expect(satisfies([25, 0, 0], '^22.12.0 || ^24.0.0 || >=26.0.0')).toBe(false);
    expect(satisfies([16, 0, 0], '^14.21.3 || >=16')).toBe(true);
    expect(satisfies([13, 7, 0], '^6 || ^7 || ^8 || ^9 || ^10 || ^11 || ^12 || >=13.7')).toBe(true);
    expect(() => satisfies([20, 0, 0], '1.0.0 - 2.0.0')).toThrow();
  });

  it('admits only Node versions every installed package supports (no EBADENGINE warning)', () => {
    expect(theirs.length).toBeGreaterThan(10);
    const admitted = versions.filter((v) => satisfies(v, ours));
    expect(admitted.length).toBeGreaterThan(0);
    const conflicts = admitted.flatMap((v) => theirs.filter((t) => !satisfies(v, t.range)).map((t) => `Node ${v.join('.')}: ${t.name} wants ${t.range}`));
    expect(conflicts).toEqual([]);
  });

  it('admits the Node 24 the scripts run on, and README states the same range', () => {
    expect(satisfies([24, 0, 0], ours)).toBe(true);
    const lowest = versions.find((v) => satisfies(v, ours))!;
    const runIt = readFileSync('README.md', 'utf8').split('## Run it')[1].split('\n## ')[0];
    expect(runIt).toContain(`Node ${lowest[0]}.${lowest[1]}+`);
    expect(runIt).not.toMatch(/Node ≥ 20|Node >= ?20/);
  });
});
