import { randomBytes } from 'node:crypto';
import {
  existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportFolderProvider } from '../../../src-main/core/transform/providers/export-folder.ts';
import { ExportPathError, makeExportFolder } from '../../../src-main/core/transform/providers/export-folder-path.ts';
import { sweepStaleTemps, writeExportFile } from '../../../src-main/core/transform/providers/export-folder-write.ts';
import { hashBytes } from '../../../src-main/core/files/hashed-bytes.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';
import { openProviderTestBed, type ProviderTestBed } from './provider-test-context.ts';

let bed: ProviderTestBed;
let scratch: string;
let rootA: string;
let rootB: string;
let outside: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'silodesk-export-'));
  rootA = join(scratch, 'root-a'); // made by the provider on first use
  rootB = join(scratch, 'root-b');
  outside = join(scratch, 'outside');
  mkdirSync(rootB);
  mkdirSync(outside);
  bed = await openProviderTestBed({ exportRoots: [rootA, rootB] });
});

afterAll(async () => {
  await bed.close();
  rmSync(scratch, { recursive: true, force: true });
});

const NOTES = Buffer.from('reconciled with bank statement 2022-02\n');
const SCAN = Buffer.from('%PDF-1.4 pretend scan');
const SCAN_2 = Buffer.from('%PDF-1.4 another scan');

/** An invoice entry with attachments, two of them under the same name and one named like the envelope file. */
async function entryWithAttachments(): Promise<string> {
  const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
  const ctx = bed.stepContext(entryId);
  await ctx.attach({ id: 'notes', name: 'notes.txt', mime: 'text/plain', content: hashBytes(NOTES) });
  await ctx.attach({ id: 'scan-a', name: 'scan.pdf', mime: 'application/pdf', content: hashBytes(SCAN) });
  await ctx.attach({ id: 'scan-b', name: 'Scan.PDF', mime: 'application/pdf', content: hashBytes(SCAN_2) });
  await ctx.attach({ id: 'clash', name: 'SAMPLE-001.json', mime: 'application/json', content: hashBytes(Buffer.from('{"other":true}')) });
  return entryId;
}

function run(entryId: string, path: string) {
  return exportFolderProvider.run(bed.stepContext(entryId), exportFolderProvider.config.parse({ path }));
}

describe('export.folder provider', () => {
  it('writes the envelope and every attachment under the first root, in a folder per entry', async () => {
    const entryId = await entryWithAttachments();
    const result = await run(entryId, 'sales/2022');
    expect(result).toMatchObject({ status: 'OK' });
    expect(result.apply).toBeUndefined();

    const dir = join(rootA, 'sales', '2022', entryId);
    // "Scan.PDF" would be the same file as "scan.pdf" on Windows and macOS: it gets its id in front.
    expect(readdirSync(dir).sort()).toEqual(['SAMPLE-001.json', 'clash_SAMPLE-001.json', 'notes.txt', 'scan-b_Scan.PDF', 'scan.pdf'].sort());
    const { envelope } = await bed.stepContext(entryId).entry();
    expect(readFileSync(join(dir, 'SAMPLE-001.json'), 'utf8')).toBe(`${JSON.stringify(envelope, null, 2)}\n`);
    expect(readFileSync(join(dir, 'notes.txt')).equals(NOTES)).toBe(true);
    expect(readFileSync(join(dir, 'scan.pdf')).equals(SCAN)).toBe(true);
    expect(readFileSync(join(dir, 'scan-b_Scan.PDF')).equals(SCAN_2)).toBe(true);
    expect(readFileSync(join(dir, 'clash_SAMPLE-001.json'), 'utf8')).toBe('{"other":true}');
  });

  it('is idempotent: a second run leaves the same files untouched, and repairs a changed one', async () => {
    const entryId = await entryWithAttachments();
    await run(entryId, 'again');
    const dir = join(rootA, 'again', entryId);
    const before = new Map(readdirSync(dir).map((name) => [name, statSync(join(dir, name))]));
    // Back-date the files so a rewrite would show in mtime.
    for (const name of before.keys()) utimesSync(join(dir, name), new Date(2020, 0, 1), new Date(2020, 0, 1));

    const second = await run(entryId, 'again');
    expect(second.status).toBe('OK');
    expect(second.message).toContain('0 written');
    for (const name of readdirSync(dir)) {
      expect(statSync(join(dir, name)).mtime.getFullYear(), name).toBe(2020);
      expect(statSync(join(dir, name)).ino, name).toBe(before.get(name)!.ino);
    }
    expect(readdirSync(dir).sort()).toEqual([...before.keys()].sort());

    writeFileSync(join(dir, 'notes.txt'), 'tampered');
    const third = await run(entryId, 'again');
    expect(third.message).toContain('1 written');
    expect(readFileSync(join(dir, 'notes.txt')).equals(NOTES)).toBe(true);
  });

  it('accepts an absolute path inside any root', async () => {
    const entryId = await entryWithAttachments();
    const result = await run(entryId, join(rootB, 'ledger'));
    expect(result.status).toBe('OK');
    expect(existsSync(join(rootB, 'ledger', entryId, 'SAMPLE-001.json'))).toBe(true);
  });

  it.each([
    '../outside',
    'sales/../../outside',
    '..',
    'a\\..\\..\\outside',
  ])('refuses %s', async (path) => {
    const result = await run(await entryWithAttachments(), path);
    expect(result).toMatchObject({ status: 'KO', code: 'path-not-allowed' });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses absolute paths outside every root', async () => {
    for (const path of [outside, join(scratch, 'root-a-sibling'), '/etc', join(rootB, '..', 'outside')]) {
      const result = await run(await entryWithAttachments(), path);
      expect(result, path).toMatchObject({ status: 'KO', code: 'path-not-allowed' });
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(scratch, 'root-a-sibling'))).toBe(false);
  });

  it('refuses a symlink inside the root that leads outside, creating nothing through it', async () => {
    mkdirSync(rootA, { recursive: true });
    symlinkSync(outside, join(rootA, 'escape'));
    const entryId = await entryWithAttachments();
    for (const path of ['escape', 'escape/deeper', join(rootA, 'escape')]) {
      expect(await run(entryId, path), path).toMatchObject({ status: 'KO', code: 'path-not-allowed' });
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses an entry folder that is a symlink leading outside', async () => {
    const entryId = await entryWithAttachments();
    mkdirSync(join(rootB, 'trap'), { recursive: true });
    symlinkSync(outside, join(rootB, 'trap', entryId));
    expect(await run(entryId, join(rootB, 'trap'))).toMatchObject({ status: 'KO', code: 'path-not-allowed' });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('follows a symlink that stays inside the root', async () => {
    mkdirSync(join(rootA, 'real-folder'), { recursive: true });
    symlinkSync(join(rootA, 'real-folder'), join(rootA, 'alias'));
    const entryId = await entryWithAttachments();
    expect((await run(entryId, 'alias')).status).toBe('OK');
    expect(existsSync(join(rootA, 'real-folder', entryId, 'notes.txt'))).toBe(true);
  });

  it('replaces a symlink planted at a file name instead of writing through it', async () => {
    const entryId = await entryWithAttachments();
    const dir = join(rootB, 'planted', entryId);
    mkdirSync(dir, { recursive: true });
    const victim = join(outside, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, join(dir, 'notes.txt'));

    expect((await run(entryId, join(rootB, 'planted'))).status).toBe('OK');
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(join(dir, 'notes.txt')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'notes.txt')).equals(NOTES)).toBe(true);
    rmSync(victim);
  });

  it('is KO when the stored bytes of an attachment are gone', async () => {
    const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const { hash } = await bed.stepContext(entryId).attach({ id: 'lost', name: 'lost.bin', mime: 'application/octet-stream', content: hashBytes(Buffer.from(`only here ${entryId}`)) });
    rmSync(bed.service.blobs.pathOf(hash));
    expect(await run(entryId, 'lost')).toMatchObject({ status: 'KO', code: 'attachment-missing' });
  });

  it('is KO without export roots', async () => {
    const noRoots = await openProviderTestBed({ exportRoots: [] });
    try {
      const entryId = await noRoots.entry(loadEnvelope('es-invoice-es-es.json'));
      const result = await exportFolderProvider.run(noRoots.stepContext(entryId), { path: 'x' });
      expect(result).toMatchObject({ status: 'KO', code: 'path-not-allowed' });
    } finally {
      await noRoots.close();
    }
  });

  it('validates its config', () => {
    const parse = (config: unknown) => exportFolderProvider.config.safeParse(config).success;
    expect(parse({ path: 'sales' })).toBe(true);
    expect(parse({})).toBe(false);
    expect(parse({ path: '' })).toBe(false);
    expect(parse({ path: 'x', other: 1 })).toBe(false);
  });
});

describe('writeExportFile', () => {
  it('leaves no temp file behind and reports whether it wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-atomic-'));
    try {
      expect(await writeExportFile(dir, 'a.json', Buffer.from('{}'))).toBe(true);
      expect(await writeExportFile(dir, 'a.json', Buffer.from('{}'))).toBe(false);
      expect(await writeExportFile(dir, 'a.json', Buffer.from('{"b":1}'))).toBe(true);
      expect(readdirSync(dir)).toEqual(['a.json']);
      expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('{"b":1}');
      expect(statSync(join(dir, 'a.json')).mode & 0o777).toBe(0o644);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets other work in while it writes a large file, and while it compares one already there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-atomic-'));
    try {
      const bytes = randomBytes(48 * 1024 * 1024);
      // Written in one go (a synchronous write and fsync), the loop would get one turn, maybe two.
      const write = await turnsDuring(() => writeExportFile(dir, 'scan.pdf', bytes));
      expect(write.result).toBe(true);
      expect(write.turns).toBeGreaterThan(2);
      expect(readdirSync(dir)).toEqual(['scan.pdf']);
      expect(readFileSync(join(dir, 'scan.pdf')).equals(bytes)).toBe(true);

      const compare = await turnsDuring(() => writeExportFile(dir, 'scan.pdf', bytes));
      expect(compare.result).toBe(false);
      expect(compare.turns).toBeGreaterThan(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sweeps only stale temp files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-atomic-'));
    try {
      writeFileSync(join(dir, '.silodesk-old.tmp'), 'x');
      writeFileSync(join(dir, '.silodesk-new.tmp'), 'x');
      writeFileSync(join(dir, 'keep.tmp'), 'x');
      utimesSync(join(dir, '.silodesk-old.tmp'), new Date(2020, 0, 1), new Date(2020, 0, 1));
      await sweepStaleTemps(dir);
      expect(readdirSync(dir).sort()).toEqual(['.silodesk-new.tmp', 'keep.tmp']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('makeExportFolder', () => {
  let root: string;
  let away: string;
  beforeEach(() => {
    const base = mkdtempSync(join(scratch, 'folder-'));
    root = join(base, 'root');
    away = join(base, 'away');
    mkdirSync(root);
    mkdirSync(away);
  });

  it('creates the folders and resolves to the real path, following a symlink that stays inside', async () => {
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    expect(await makeExportFolder(root, join(root, 'alias', 'a', 'b'))).toBe(join(realpathSync(root), 'real', 'a', 'b'));
    expect(statSync(join(root, 'real', 'a', 'b')).isDirectory()).toBe(true);
  });

  it('refuses a symlink leading outside the root before creating anything through it', async () => {
    symlinkSync(away, join(root, 'escape'));
    await expect(makeExportFolder(root, join(root, 'escape'))).rejects.toBeInstanceOf(ExportPathError);
    await expect(makeExportFolder(root, join(root, 'escape', 'deeper', 'still'))).rejects.toBeInstanceOf(ExportPathError);
    expect(readdirSync(away)).toEqual([]);
  });

  it('refuses a dangling symlink', async () => {
    symlinkSync(join(away, 'gone'), join(root, 'dangling'));
    await expect(makeExportFolder(root, join(root, 'dangling', 'x'))).rejects.toThrow(/broken link/);
    await expect(makeExportFolder(root, join(root, 'dangling'))).rejects.toBeInstanceOf(ExportPathError);
    expect(readdirSync(away)).toEqual([]);
  });

  it('refuses a file where a folder should be', async () => {
    writeFileSync(join(root, 'file'), 'x');
    await expect(makeExportFolder(root, join(root, 'file', 'x'))).rejects.toThrow(/is not a folder/);
    await expect(makeExportFolder(root, join(root, 'file'))).rejects.toBeInstanceOf(ExportPathError);
  });
});
