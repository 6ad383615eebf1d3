import { cpSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { ENGINE_THREAD_ENTRY, ENGINE_THREAD_SOURCE, SERVICE_EXTERNALS } from './scripts/service-externals.ts';

const root = import.meta.dirname;
const at = (path: string) => resolve(root, path);

/**
 * The dev server needs what the built app must never allow: React Refresh's
 * inline preamble and the HMR websocket. Only `electron-vite dev` gets this
 * looser CSP; the built index.html keeps the strict one.
 */
function devServerCsp(): Plugin {
  return {
    name: 'silodesk:dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*"),
  };
}

/**
 * GOBL's published data (regimes, addons, rules, schemas) is read from JSON files at run time;
 * the bundled main process finds them in out/main/gobl-data (see core/gobl/defs/data-dir.ts).
 */
function copyGoblData(): Plugin {
  return {
    name: 'silodesk:gobl-data',
    apply: 'build',
    writeBundle: () => cpSync(at('src-main/core/gobl/data'), at('out/main/gobl-data'), { recursive: true }),
  };
}

/**
 * The libraries the main build bundles: every dependency but those the service must load from
 * node_modules, and fflate: electron-vite puts `const require = createRequire(…)` at the top of
 * every chunk that mentions `require`, and fflate's ES build declares a `require` of its own, so
 * the chunk holding both would not load.
 */
const bundled = Object.keys((JSON.parse(readFileSync(at('package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)
  .filter((name) => !SERVICE_EXTERNALS.includes(name) && name !== 'fflate');

export default defineConfig({
  main: {
    plugins: [copyGoblData()],
    build: {
      outDir: at('out/main'),
      // As `npm run serve`'s build (scripts/service-build.ts): a library loaded as a tree of ES
      // modules cost the service process more of its start than Silodesk's own code.
      externalizeDeps: { exclude: bundled },
      rolldownOptions: {
        // The shell (Electron's main process), the service it starts in a utility process
        // (src-main/service-process/entry.ts, as out/main/service.js), and the thread the service
        // runs the GOBL engine on for large documents (core/gobl/engine-thread/thread.ts finds it).
        input: {
          index: at('src-main/index.ts'),
          service: at('src-main/service-process/entry.ts'),
          [ENGINE_THREAD_ENTRY]: at(ENGINE_THREAD_SOURCE),
        },
        // Shared chunks beside the entries, so paths relative to a module (out/main/gobl-data) hold in any of them.
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: at('out/preload'),
      // A sandboxed preload cannot be an ES module, so it is built as CommonJS.
      lib: { entry: at('src-preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    root: at('src-renderer'),
    plugins: [react(), devServerCsp()],
    build: {
      outDir: at('out/renderer'),
      emptyOutDir: true,
      rolldownOptions: { input: at('src-renderer/index.html') },
    },
  },
});
