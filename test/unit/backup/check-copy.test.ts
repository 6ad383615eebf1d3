import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCopy } from '../../../src-main/core/backup/snapshot-copy.ts';

/** The backup's check of its database copy, on a thread of its own (snapshot-copy.ts). */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const HELD = 'a'.repeat(64);
const PURGED = 'b'.repeat(64);

function copyWithFiles(): { file: string; filesDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-check-copy-'));
  dirs.push(dir);
  const file = join(dir, 'silodesk.db');
  const db = new Database(file);
  db.exec('CREATE TABLE entries (id TEXT, pad TEXT); CREATE TABLE attachments (entry_id TEXT, hash TEXT)');
  const entry = db.prepare('INSERT INTO entries VALUES (?, ?)');
  for (let i = 0; i < 300; i++) entry.run(`e${i}`, 'x'.repeat(500));
  db.prepare('INSERT INTO attachments VALUES (?, ?)').run('e1', HELD);
  db.prepare('INSERT INTO attachments VALUES (?, ?)').run('e2', HELD);
  db.prepare('INSERT INTO attachments VALUES (?, ?)').run('e3', PURGED);
  db.close();
  const filesDir = join(dir, 'files');
  mkdirSync(join(filesDir, 'aa'), { recursive: true });
  writeFileSync(join(filesDir, 'aa', HELD), 'bytes');
  return { file, filesDir };
}

describe('checkCopy', () => {
  it('counts the entries and the files the attachments name that the backup lacks', async () => {
    const { file, filesDir } = copyWithFiles();
    expect(await checkCopy(file, filesDir)).toEqual({ entries: 300, missing: 1 });
  });

  it('refuses a copy whose pages are damaged', async () => {
    const { file, filesDir } = copyWithFiles();
    // garbage over the second page onwards: the table's b-tree no longer holds together
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, 4096);
    closeSync(fd);
    await expect(checkCopy(file, filesDir)).rejects.toThrow(/check|malformed|not a database/);
  });
});
