import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const GOBL_DIR = new URL('../../src-main/core/gobl/', import.meta.url).pathname;
/** The file that names the revision: the one file of the module its hash leaves out. */
export const REVISION_FILE = join(GOBL_DIR, 'engine', 'revision.ts');

/** SHA-256 over every file of the GOBL module (code and data), by path in order: what a verdict of its check depends on. */
export function goblSourcesHash(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (path !== REVISION_FILE) files.push(path);
    }
  };
  walk(GOBL_DIR);
  const hash = createHash('sha256');
  for (const path of files.map((f) => relative(GOBL_DIR, f).split(sep).join('/')).sort()) {
    hash.update(`${path}\u0000`);
    hash.update(readFileSync(join(GOBL_DIR, path)));
    hash.update('\u0000');
  }
  return hash.digest('hex').slice(0, 16);
}
