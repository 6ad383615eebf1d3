import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// Not named `require`: the bundler's CommonJS shim declares that name in the built service.js.
const requireHere = createRequire(import.meta.url);

let cached: { regular: Buffer; bold: Buffer } | undefined;

/**
 * DejaVu Sans, regular and bold: the PDF standard fonts (Helvetica…) only cover
 * Latin-1, and invoices here are Greek, Polish, Czech… Read once per process.
 */
export function dejaVuSans(): { regular: Buffer; bold: Buffer } {
  cached ??= {
    regular: readFileSync(requireHere.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(requireHere.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return cached;
}
