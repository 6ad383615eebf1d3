import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let cached: { regular: Buffer; bold: Buffer } | undefined;

/**
 * DejaVu Sans, regular and bold: the PDF standard fonts (Helvetica…) only cover
 * Latin-1, and invoices here are Greek, Polish, Czech… Read once per process.
 */
export function dejaVuSans(): { regular: Buffer; bold: Buffer } {
  cached ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return cached;
}
