import { utimesSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;

/**
 * Writes `<outDir>.inputs.json` (beside the build, so it is not served): the project files
 * the bundle was made from. `npm run serve` and `npm run test:e2e` rebuild only when one of
 * them (or src-renderer/, this config, package-lock.json) is newer than the build's start
 * (scripts/web-build.ts).
 */
function recordInputs(): Plugin {
  let outDir = '';
  let inputs: string[] = [];
  let startedAt = new Date();
  return {
    name: 'silodesk:record-inputs',
    apply: 'build',
    configResolved: (config) => {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart() {
      startedAt = new Date();
    },
    buildEnd() {
      inputs = [...this.getModuleIds()]
        .filter((id) => !id.startsWith('\0') && !id.includes('/node_modules/') && !id.includes('\\node_modules\\'))
        .map((id) => relative(root, id.replace(/[?#].*$/, '')).split('\\').join('/'))
        .filter((path) => path !== '' && !path.startsWith('..'));
    },
    writeBundle() {
      const record = `${outDir}.inputs.json`;
      writeFileSync(record, JSON.stringify({ inputs: [...new Set(inputs)].sort() }, null, 1) + '\n');
      // Dated when the build started: a file saved while it ran counts as newer.
      utimesSync(record, startedAt, startedAt);
    },
  };
}

/**
 * The same renderer as the desktop app, built for the browser: served by
 * `npm run serve` at `/` and driven by the e2e tests. It talks HTTP, not IPC.
 */
export default defineConfig({
  root: resolve(root, 'src-renderer'),
  base: '/',
  plugins: [react(), recordInputs()],
  build: {
    outDir: resolve(root, 'out/web'),
    emptyOutDir: true,
    rolldownOptions: {
      input: resolve(root, 'src-renderer/index.html'),
      // The app alone stays under Vite's 500 kB warning; react-dom (≈190 kB minified), zod
      // (≈60 kB) and TanStack go into chunks of their own, cached across app updates. pdf.js
      // is already a chunk loaded only when a PDF is shown, and its worker is an asset.
      // The warning limit stays at its default, so a chunk growing past it is still reported.
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 1 },
            // TanStack Query and Virtual: the data layer and the list, stable across app updates too.
            { name: 'tanstack', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
