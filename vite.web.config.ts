import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/**
 * The same renderer as the desktop app, built for the browser: served by
 * `npm run serve` at `/` and driven by the e2e tests. It talks HTTP, not IPC.
 */
export default defineConfig({
  root: resolve(root, 'src-renderer'),
  base: '/',
  plugins: [react()],
  build: {
    outDir: resolve(root, 'out/web'),
    emptyOutDir: true,
    rolldownOptions: { input: resolve(root, 'src-renderer/index.html') },
  },
});
