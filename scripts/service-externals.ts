/**
 * Libraries the built service loads from node_modules at run time rather than bundling, in the
 * headless build (service-build.ts) and the desktop's (electron.vite.config.ts) alike: each finds
 * files of its own package by path, which a bundled copy in out/ could not. Every other library
 * is bundled: loading one as a tree of ES modules (zod, Kysely, Hono) cost more of a start than
 * all of Silodesk's own code.
 */
export const SERVICE_EXTERNALS = [
  // a native addon
  'better-sqlite3',
  // reads its standard fonts (`#standard-fonts/…` imports) and colour profile from its package folder
  'pdfkit',
  // the PostgreSQL driver, loaded only for `--db`, with its optional native binding
  'pg',
];

/** Whether `id` (an import as written) names one of SERVICE_EXTERNALS or a file of one. */
export const isServiceExternal = (id: string): boolean => SERVICE_EXTERNALS.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * The GOBL engine's thread (core/gobl/engine-thread/worker.ts) is an entry of every build of
 * the service, written beside its other chunks under this name, where thread.ts looks for it.
 */
export const ENGINE_THREAD_ENTRY = 'gobl-engine-thread';
export const ENGINE_THREAD_SOURCE = 'src-main/core/gobl/engine-thread/worker.ts';
