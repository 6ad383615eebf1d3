// Every extension key GOBL defines: in regimes, addons and catalogues (tax.ExtensionForKey).
import { readdirSync } from 'node:fs';
import { goblDataDir, readGoblData } from '../../../defs/index.ts';

let keys: Set<string> | undefined;

function collect(): Set<string> {
  const out = new Set<string>();
  for (const dir of ['regimes', 'addons', 'catalogues']) {
    for (const file of readdirSync(`${goblDataDir()}${dir}`)) {
      if (!file.endsWith('.json')) continue;
      const def = readGoblData<{ extensions?: Array<{ key: string }> }>(`${dir}/${file}`);
      for (const ext of def.extensions ?? []) out.add(ext.key);
    }
  }
  return out;
}

export function isKnownExtension(key: string): boolean {
  keys ??= collect();
  return keys.has(key);
}
