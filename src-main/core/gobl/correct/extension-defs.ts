// Every extension key GOBL registers (regimes, addons and the code catalogues), for describing
// the `ext` options of a correction. GOBL keeps one global registry; so do we.
import { readdirSync } from 'node:fs';
import { goblDataDir, readGoblData } from '../defs/index.ts';
import type { ExtensionDef, I18n } from '../defs/index.ts';

let byKey: Map<string, ExtensionDef> | undefined;

function index(): Map<string, ExtensionDef> {
  if (byKey) return byKey;
  byKey = new Map();
  for (const folder of ['catalogues', 'regimes', 'addons']) {
    for (const file of readdirSync(`${goblDataDir()}${folder}`).sort()) {
      if (!file.endsWith('.json')) continue;
      const def = readGoblData<{ extensions?: ExtensionDef[] }>(`${folder}/${file}`);
      for (const ext of def.extensions ?? []) byKey.set(ext.key, ext);
    }
  }
  return byKey;
}

export function extensionDef(key: string): ExtensionDef | undefined {
  return index().get(key);
}

/** GOBL's i18n.String.String(): the English text, else the first language given. */
export function defaultText(text: I18n | undefined): string {
  if (!text) return '';
  return text.en ?? Object.values(text)[0] ?? '';
}
