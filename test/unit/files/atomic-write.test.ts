import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomicAsync } from '../../../src-main/core/files/atomic-write.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomicAsync', () => {
  it('replaces the target with the whole bytes, owner-only unless told otherwise, and leaves no temp file', async () => {
    const target = join(dir, 'key.bin');
    writeFileSync(target, 'old');
    await writeFileAtomicAsync(target, Buffer.from('new'));
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(statSync(target).mode & 0o777).toBe(0o600);

    await writeFileAtomicAsync(join(dir, 'open.json'), Buffer.from('{}'), { mode: 0o644 });
    expect(statSync(join(dir, 'open.json')).mode & 0o777).toBe(0o644);
    expect(readdirSync(dir).sort()).toEqual(['key.bin', 'open.json']);
  });

  it('makes its temp file in the folder it is given', async () => {
    const temps = join(dir, 'tmp');
    mkdirSync(temps);
    const bytes = randomBytes(100_000);
    await writeFileAtomicAsync(join(dir, 'blob'), bytes, { tempDir: temps, syncFolder: false });
    expect(readFileSync(join(dir, 'blob')).equals(bytes)).toBe(true);
    expect(readdirSync(temps)).toEqual([]);
  });

  it('lets other work in while it writes a large file', async () => {
    const bytes = randomBytes(48 * 1024 * 1024);
    // Written in one go (a synchronous write and fsync), the loop would get one turn, maybe two.
    const { turns } = await turnsDuring(() => writeFileAtomicAsync(join(dir, 'large.bin'), bytes));
    expect(turns).toBeGreaterThan(2);
    expect(readFileSync(join(dir, 'large.bin')).equals(bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['large.bin']);
  });

  it.each([
    ['next to the target', undefined],
    ['in its own folder', 'tmp'],
  ])('throws when the rename fails and leaves no temp file %s', async (_where, tempFolder) => {
    // A folder at the target's name: rename(2) will not put a file over it.
    const target = join(dir, 'taken');
    mkdirSync(join(target, 'inside'), { recursive: true });
    const tempDir = tempFolder === undefined ? undefined : join(dir, tempFolder);
    if (tempDir) mkdirSync(tempDir);

    await expect(writeFileAtomicAsync(target, randomBytes(10_000), { tempDir })).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(tempDir ? ['taken', 'tmp'] : ['taken']);
    if (tempDir) expect(readdirSync(tempDir)).toEqual([]);
    expect(readdirSync(target)).toEqual(['inside']);
  });

  it('throws when the temp file cannot be made, creating nothing', async () => {
    await expect(writeFileAtomicAsync(join(dir, 'a'), Buffer.from('x'), { tempDir: join(dir, 'missing') })).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
