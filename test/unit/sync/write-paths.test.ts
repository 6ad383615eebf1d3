import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYNCED_TABLES } from '../../../src-main/core/db/change-triggers.ts';

const SYNC_DIR = join(import.meta.dirname, '../../../src-main/core/sync');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe("sync's record kinds", () => {
  it("write a record only through its area's own write paths, never a synced table straight", () => {
    const tables = SYNCED_TABLES.map((t) => t.table).join('|');
    const direct = new RegExp(
      `(?:insertInto|updateTable|deleteFrom|replaceInto)\\(\\s*'(?:${tables})'|(?:INSERT(?: OR \\w+)? INTO|UPDATE|DELETE FROM|REPLACE INTO)\\s+(?:${tables})\\b`,
      'i',
    );
    const files = sources(SYNC_DIR);
    expect(files.length).toBeGreaterThan(20);
    const writers = files.filter((f) => direct.test(readFileSync(f, 'utf8'))).map((f) => f.slice(SYNC_DIR.length + 1));
    expect(writers).toEqual([]);
  });
});
