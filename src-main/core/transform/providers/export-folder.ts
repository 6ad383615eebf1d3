import { readFile } from 'node:fs/promises';
import { hashBytesInTurns } from '../../files/hashed-bytes.ts';
import { join } from 'node:path';
import { z } from 'zod';
import { unsafeFileNameReason } from '../../silo/file-name.ts';
import { defineProvider, type StepContext, type StepResult } from '../provider.ts';
import { documentFileName } from './document-file-name.ts';
import { ExportPathError, makeExportFolder, resolveExportPath } from './export-folder-path.ts';
import { sweepStaleTemps, writeExportFile } from './export-folder-write.ts';

const exportConfig = z
  .object({
    /** relative to the first export root, or absolute inside one of them */
    path: z.string().min(1).max(1024),
  })
  .strict();

type ExportConfig = z.infer<typeof exportConfig>;

interface ExportFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Writes the envelope (pretty JSON) and every attachment into `<path>/<entry id>/`
 * under an export root, for accounting software that polls a folder.
 *
 * The files are written here in `run`, not in `apply`: they live outside the
 * database, so no transaction can cover them. That is safe because the step is
 * idempotent: each file is replaced atomically and one already holding the same
 * bytes is left untouched, so a re-run after a crash writes the same bytes again.
 * Files of attachments removed since an earlier export are left in place.
 */
export const exportFolderProvider = defineProvider<ExportConfig>({
  id: 'export.folder',
  description: 'Writes the envelope JSON and the attachments into a folder under an export root',
  config: exportConfig,
  timeoutMs: 60_000,
  run: async (ctx, config) => {
    let dir: string;
    try {
      const target = resolveExportPath(config.path, ctx.service.config.exportRoots);
      dir = await makeExportFolder(target.root, join(target.dir, ctx.job.silo_entry_id));
    } catch (err) {
      if (err instanceof ExportPathError) return { status: 'KO', code: 'path-not-allowed', message: err.message };
      return ioError(err);
    }

    const files = await filesOf(ctx);
    if (!Array.isArray(files)) return files;
    try {
      await sweepStaleTemps(dir);
      const written = await writeAll(dir, files);
      return {
        status: 'OK',
        message: `${files.length} files in ${dir} (${written} written, ${files.length - written} already there)`,
      };
    } catch (err) {
      return ioError(err);
    }
  },
});

// The envelope first, so it keeps its name; attachments whose names collide with a
// taken one (compared as case-insensitive file systems do) get their id in front.
async function filesOf(ctx: StepContext): Promise<ExportFile[] | StepResult> {
  const { envelope } = await ctx.entry();
  const envelopeName = documentFileName(envelope, 'json');
  const files: ExportFile[] = [{ name: envelopeName, bytes: Buffer.from(`${JSON.stringify(envelope, null, 2)}\n`) }];
  const taken = new Set([foldName(envelopeName)]);

  const { db, blobs } = ctx.service;
  const rows = (
    await db.all(
      db.q.selectFrom('attachments').selectAll().where('company_id', '=', ctx.owner.companyKey).where('entry_id', '=', ctx.job.silo_entry_id),
    )
  ).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const [at, row] of rows.entries()) {
    const name = [row.name, `${row.id}_${row.name}`, `attachment-${at + 1}`]
      .find((candidate) => unsafeFileNameReason(candidate) === undefined && !taken.has(foldName(candidate)));
    if (name === undefined) {
      return { status: 'KO', code: 'unsafe-name', message: `attachment ${row.id} has no usable file name` };
    }
    taken.add(foldName(name));

    let bytes: Buffer;
    try {
      // Read and hashed off the event loop, or a part at a time: an attachment may be 100 MB.
      bytes = await readFile(blobs.pathOf(row.hash));
    } catch {
      return { status: 'KO', code: 'attachment-missing', message: `the stored bytes of attachment ${row.id} are missing` };
    }
    if ((await hashBytesInTurns(bytes)).hash !== row.hash) {
      return { status: 'KO', code: 'attachment-corrupt', message: `the stored bytes of attachment ${row.id} do not match its hash` };
    }
    files.push({ name, bytes });
  }
  return files;
}

// One at a time and in order: the envelope still lands first, and a slow share is
// not handed several 100 MB writes at once.
async function writeAll(dir: string, files: ExportFile[]): Promise<number> {
  let written = 0;
  for (const file of files) if (await writeExportFile(dir, file.name, file.bytes)) written++;
  return written;
}

function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

// Disk full, permissions, a share gone away: worth retrying once someone has looked.
function ioError(err: unknown): StepResult {
  return { status: 'ERR', code: 'io', message: err instanceof Error ? err.message : String(err) };
}
