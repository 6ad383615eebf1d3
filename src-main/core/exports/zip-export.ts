// The ZIP export: for each selected entry a folder with its envelope (the stored JSON, byte for
// byte) and its files, then an index.csv of the documents. Streamed: one entry's data, and one
// 64 KiB chunk of a file, in memory at a time, written to disk with backpressure.
import { createReadStream } from 'node:fs';
import { Zip, ZipDeflate, ZipPassThrough, type ZipInputFile } from 'fflate';
import { ApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { BinaryResult } from '../api/operation.ts';
import { documentFigures } from './document-figures.ts';
import { newDownloadFile, type DownloadFile } from './download-file.ts';
import { writeCsv } from './csv-export.ts';
import { exportFileName } from './export-name.ts';
import { measureSelection, selectedEntries, type ExportSelection } from './selection.ts';
import { entryFolderName, safeSegment, UniqueNames } from './zip-entry-names.ts';
import { documentText } from '../silo/packed-document.ts';
import { letOthersIn } from '../let-others-in.ts';

/**
 * A ZIP without ZIP64 (fflate writes none) holds at most 65,535 files and 4 GiB; an export
 * that would pass either is refused before anything is written, with a margin.
 */
const MAX_FILES = 65_000;
const MAX_BYTES = 3.5 * 1024 ** 3;

// Already compressed: deflating them again costs time and saves nothing.
const STORED_TYPES = /^(application\/(pdf|zip|gzip|x-7z-compressed)|image\/(png|jpeg|gif|webp)|video\/|audio\/)/i;

/** Bytes handed to fflate at once: deflated in one call, about 6 ms for 256 KiB. */
const PUSH_BYTES = 256 * 1024;

/** Feeds fflate's synchronous output to a file, waiting for the disk between pieces. */
class ZipWriter {
  readonly #zip: Zip;
  readonly #file: DownloadFile;
  #pending: Uint8Array[] = [];
  #error: Error | null = null;

  constructor(file: DownloadFile) {
    this.#file = file;
    this.#zip = new Zip((err, chunk) => {
      if (err) this.#error = err;
      else this.#pending.push(chunk);
    });
  }

  async #flush(): Promise<void> {
    if (this.#error) throw this.#error;
    const chunks = this.#pending;
    this.#pending = [];
    for (const chunk of chunks) await this.#file.write(chunk);
  }

  #open(name: string, stored: boolean, mtime: Date): ZipInputFile & { push(chunk: Uint8Array, final?: boolean): void } {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    // DOS times start in 1980; a clock or a document from before would be refused by fflate.
    entry.mtime = mtime.getUTCFullYear() >= 1980 ? mtime : new Date(Date.UTC(1980, 0, 1));
    this.#zip.add(entry);
    return entry;
  }

  async addBytes(name: string, bytes: Uint8Array, mtime: Date, stored = false): Promise<void> {
    const entry = this.#open(name, stored, mtime);
    // A piece at a time, others let in between: fflate deflates a push in one call (a 4.4 MB envelope: 100 ms).
    for (let at = 0; ; at += PUSH_BYTES) {
      const last = at + PUSH_BYTES >= bytes.length;
      entry.push(bytes.subarray(at, at + PUSH_BYTES), last);
      await this.#flush();
      if (last) return;
      await letOthersIn();
    }
  }

  async addFile(name: string, path: string, mtime: Date, stored: boolean): Promise<void> {
    const entry = this.#open(name, stored, mtime);
    for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
      entry.push(chunk as Uint8Array);
      await this.#flush();
    }
    entry.push(new Uint8Array(0), true);
    await this.#flush();
  }

  /** A file whose text arrives in pieces (the index CSV). */
  async addText(name: string, mtime: Date, write: (put: (text: string) => Promise<void>) => Promise<unknown>): Promise<void> {
    const entry = this.#open(name, false, mtime);
    const encoder = new TextEncoder();
    await write(async (text) => {
      entry.push(encoder.encode(text));
      await this.#flush();
    });
    entry.push(new Uint8Array(0), true);
    await this.#flush();
  }

  async end(): Promise<void> {
    this.#zip.end();
    await this.#flush();
  }
}

export async function exportZip(ctx: Ctx, selection: ExportSelection): Promise<BinaryResult> {
  const size = await measureSelection(ctx, selection, MAX_FILES);
  if (size.entries > MAX_FILES) {
    throw new ApiError('too-large', `more than ${MAX_FILES} entries are more than one ZIP holds (${MAX_FILES} files, 3.5 GiB): export a smaller selection`);
  }
  if (size.entries + size.files + 2 > MAX_FILES || size.bytes > MAX_BYTES) {
    throw new ApiError(
      'too-large',
      `${size.entries} entries with ${size.files} files (${Math.round(size.bytes / 1024 ** 2)} MiB) are more than one ZIP holds (${MAX_FILES} files, 3.5 GiB): export a smaller selection`,
    );
  }
  const file = newDownloadFile(ctx.service, 'zip');
  try {
    const zip = new ZipWriter(file);
    const { db, blobs } = ctx.service;
    const folders = new UniqueNames();
    const missing: string[] = [];
    const now = new Date();
    for await (const row of selectedEntries(ctx, selection)) {
      const figures = await documentFigures(row);
      const folder = folders.take(entryFolderName(figures.issue_date, figures.number, row.id));
      const changed = new Date(row.updated_at);
      await zip.addBytes(`${folder}/envelope.json`, new TextEncoder().encode(documentText(row.data, row.id)), changed);
      // By company and entry: an entry id is only unique within its company (issue 12).
      const attachments = await db.all(
        db.q
          .selectFrom('attachments')
          .select(['id', 'name', 'mime', 'hash', 'created_at'])
          .where('company_id', '=', row.company_id)
          .where('entry_id', '=', row.id)
          .orderBy('created_at')
          .orderBy('id'),
      );
      const names = new UniqueNames();
      for (const a of attachments) {
        const name = names.take(safeSegment(a.name, a.id));
        const path = blobs.pathOf(a.hash);
        // Bytes a sync has not brought yet: listed, never a broken archive.
        if (!(await blobs.holds(a.hash))) {
          missing.push(`${folder}/files/${name}`);
          continue;
        }
        await zip.addFile(`${folder}/files/${name}`, path, new Date(a.created_at), STORED_TYPES.test(a.mime));
      }
    }
    await zip.addText('index.csv', now, (put) => writeCsv(ctx, selection, { rows: 'document', delimiter: ',', decimal: '.', bom: true }, put));
    if (missing.length > 0) {
      const note = `These files are known but their bytes are not on this computer yet (a sync will bring them):\r\n${missing.join('\r\n')}\r\n`;
      await zip.addBytes('MISSING-FILES.txt', new TextEncoder().encode(note), now);
    }
    await zip.end();
    const bytes = await file.finish();
    return { mime: 'application/zip', name: exportFileName(selection, 'zip', now), size: bytes, file: file.path, inline: false };
  } catch (err) {
    await file.discard();
    throw err;
  }
}
