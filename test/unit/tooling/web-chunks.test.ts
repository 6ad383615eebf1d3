import { build, createLogger, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * `npm run serve` / `npm run build:web` used to warn about a >500 kB chunk on every build.
 * The web build splits react-dom and zod into chunks of their own and keeps pdf.js lazy;
 * the warning limit is Vite's default, so this fails when a chunk grows past it again.
 */
describe('the web UI bundle', () => {
  it('has no chunk over the size warning limit, and loads pdf.js only when needed', async () => {
    const warnings: string[] = [];
    const logger = createLogger('warn', { allowClearScreen: false });
    logger.warn = (msg) => void warnings.push(msg);
    logger.warnOnce = (msg) => void warnings.push(msg);
    const result = (await build({ configFile: 'vite.web.config.ts', logLevel: 'warn', customLogger: logger, build: { write: false } })) as Rollup.RolldownOutput;
    const chunks = result.output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
    const limit = 500 * 1000; // Vite's default chunkSizeWarningLimit (500 kB)
    expect(chunks.filter((c) => Buffer.byteLength(c.code) > limit).map((c) => c.fileName)).toEqual([]);
    expect(warnings.filter((w) => /larger than/.test(w))).toEqual([]);
    // pdf.js itself (not the `?url` of its worker, which is only a string)
    const isPdfJs = (id: string) => /[\\/]pdfjs-dist[\\/]/.test(id) && !id.includes('?url');
    const entry = chunks.find((c) => c.isEntry)!;
    expect(Object.keys(entry.modules).filter(isPdfJs)).toEqual([]);
    const eager = new Set([entry.fileName, ...entry.imports]);
    const pdf = chunks.filter((c) => Object.keys(c.modules).some(isPdfJs));
    expect(pdf.length).toBeGreaterThan(0);
    for (const c of pdf) expect(eager.has(c.fileName)).toBe(false);
  }, 120_000);
});
