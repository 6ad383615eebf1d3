import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// GOBL's published data ships as JSON files beside this module (src-main/core/gobl/data).
// In the bundled desktop app the module is inlined into out/main/index.js and the build
// copies the folder to out/main/gobl-data; SILODESK_GOBL_DATA overrides both.
function locate(): string {
  const fromEnv = process.env.SILODESK_GOBL_DATA;
  if (fromEnv) return fromEnv.endsWith('/') ? fromEnv : `${fromEnv}/`;
  for (const candidate of ['../data/', './gobl-data/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}regimes`)) return dir;
  }
  throw new Error('GOBL data folder not found (expected src-main/core/gobl/data)');
}

let dir: string | undefined;

/** Absolute path of the GOBL data folder, ending in a slash. */
export function goblDataDir(): string {
  dir ??= locate();
  return dir;
}
