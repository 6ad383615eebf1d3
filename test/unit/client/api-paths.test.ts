import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src-main/core/api/contract/index.ts';
import { stringLiterals } from './string-literals.ts';

/**
 * "The typed client is the only place that spells an API path outside the
 * contract": no string literal in src-main, src-preload or src-renderer starts an
 * API path (`/silo/v1…`, `` `/sync/v1/${id}` ``, `${base}/access/v1…`) except in the
 * contract itself. The client spells none either: it fills in the contract's.
 * Comments and prose that name a path in a sentence ("see /sync/v1/forks") are fine.
 */
const ROOTS = ['src-main', 'src-preload', 'src-renderer'];
const CONTRACT = join('src-main', 'core', 'api', 'contract') + sep;
const GOBL_DATA = join('src-main', 'core', 'gobl', 'data') + sep;

/** Spelled elsewhere for a reason another change has to remove (file → why). */
const KNOWN: Record<string, string> = {
  // The attachment's `url` in the hosted shape; owned by the silo area, to become
  // requestPath(contractOf('getAttachment'), { params }) from core/api/client/request-path.ts.
  [join('src-main', 'core', 'silo', 'entry-view.ts')]: 'attachment url',
};

/** Every API base path of the registry, e.g. /silo/v1 (from the contract, so a new area is covered). */
const prefixes = [...new Set(Object.values(operations).map((op) => op.path.split('/').slice(0, 3).join('/')))];
const startsAnApiPath = (text: string) => prefixes.some((p) => text === p || text.startsWith(`${p}/`) || text.startsWith(`${p}?`));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|tsx|mts|cts)$/.test(d.name) ? [path] : [];
  });
}

function spelledPaths(source: string): Array<{ line: number; text: string }> {
  return stringLiterals(source).filter((l) => startsAnApiPath(l.text));
}

describe('API paths', () => {
  it('are spelled in the contract only', () => {
    const offenders: string[] = [];
    for (const file of ROOTS.flatMap((root) => sources(root))) {
      const rel = relative('.', file);
      if (rel.startsWith(CONTRACT) || rel.startsWith(GOBL_DATA)) continue;
      for (const hit of spelledPaths(readFileSync(file, 'utf8'))) {
        if (KNOWN[rel]) continue;
        offenders.push(`${rel}:${hit.line}: ${hit.text.slice(0, 80)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the allowance list names only files that still need it', () => {
    for (const file of Object.keys(KNOWN)) expect(spelledPaths(readFileSync(file, 'utf8')), file).not.toEqual([]);
  });

  it('covers every area of the registry', () => {
    expect(prefixes).toEqual(expect.arrayContaining(['/silo/v1', '/sync/v1', '/sequence/v1', '/transform/v1', '/access/v1', '/utils/v1']));
  });

  it('finds a path however it is quoted, and not in comments or prose', () => {
    const source = [
      "const a = '/silo/v1/entries';",
      'const b = "/access/v1/session";',
      'const c = `/sync/v1/records/${kind}/${id}`;',
      'const d = `${base}/utils/v1/ping?x=1`;',
      'const e = `${base}${`/sequence/v1/series/${id}`}`;',
      '// GET /transform/v1/jobs in a comment',
      '/* "/silo/v1/entries" in a block comment */',
      "const f = 'see /sync/v1/forks for the forks';",
      "const g = x.replace(/\\/silo\\/v1/, '');",
      "const h = a / 2 / '/transform/v1/jobs'.length;",
    ].join('\n');
    expect(spelledPaths(source).map((h) => [h.line, h.text])).toEqual([
      [1, '/silo/v1/entries'],
      [2, '/access/v1/session'],
      [3, '/sync/v1/records/'],
      [4, '/utils/v1/ping?x=1'],
      [5, '/sequence/v1/series/'],
      [10, '/transform/v1/jobs'],
    ]);
  });
});
