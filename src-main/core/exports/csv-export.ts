// The CSV export: a header, then the rows of each selected document, streamed to a file.
import type { Ctx } from '../api/handler.ts';
import type { BinaryResult } from '../api/operation.ts';
import { csvRecord } from './csv-cells.ts';
import { csvHeader, csvRows, type CsvRowsMode } from './csv-rows.ts';
import { documentFigures } from './document-figures.ts';
import { newDownloadFile } from './download-file.ts';
import { exportFileName } from './export-name.ts';
import { selectedEntries, type ExportSelection } from './selection.ts';

export interface CsvOptions {
  rows: CsvRowsMode;
  delimiter: ',' | ';' | '\t';
  decimal: '.' | ',';
  bom: boolean;
}

/** Writes the CSV of `selection` through `write` (a file, or the ZIP's index). */
export async function writeCsv(
  ctx: Ctx,
  selection: ExportSelection,
  options: CsvOptions,
  write: (chunk: string) => Promise<void>,
): Promise<number> {
  await write((options.bom ? '\uFEFF' : '') + csvRecord(csvHeader(options.rows), options.delimiter));
  let count = 0;
  let buffered = '';
  for await (const row of selectedEntries(ctx, selection)) {
    for (const cells of csvRows(await documentFigures(row), options.rows, options.decimal)) buffered += csvRecord(cells, options.delimiter);
    count += 1;
    // Written in chunks of about 64 KiB: few writes, little memory.
    if (buffered.length > 65_536) {
      await write(buffered);
      buffered = '';
    }
  }
  if (buffered) await write(buffered);
  return count;
}

export async function exportCsv(ctx: Ctx, selection: ExportSelection, options: CsvOptions): Promise<BinaryResult> {
  const file = newDownloadFile(ctx.service, 'csv');
  try {
    await writeCsv(ctx, selection, options, (chunk) => file.write(chunk));
    const size = await file.finish();
    return { mime: 'text/csv; charset=utf-8', name: exportFileName(selection, options.rows === 'tax-rate' ? 'tax-rates.csv' : 'csv'), size, file: file.path, inline: false };
  } catch (err) {
    await file.discard();
    throw err;
  }
}
