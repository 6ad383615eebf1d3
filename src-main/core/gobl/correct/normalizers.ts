// The addons' correction hooks (GOBL's CorrectionDefinition.Normalizer), run after `preceding`
// is set, in `$addons` order. Each moves a document-type extension from the options, where the
// user gives it, to the new invoice's `tax.ext`, where the addon reads it.
import type { Node } from '../engine/types.ts';
import type { CorrectionOptions } from './options.ts';

interface DocTypeRoute {
  /** The extension that belongs on the invoice, not on the preceding reference. */
  key: string;
  /** ARCA also keeps the original's tax extensions (its doc type, concept…) on the reference. */
  keepOriginalTaxExt: boolean;
}

const ROUTES: Record<string, DocTypeRoute> = {
  'ar-arca-v4': { key: 'ar-arca-doc-type', keepOriginalTaxExt: true },
  'es-sii-v1': { key: 'es-sii-doc-type', keepOriginalTaxExt: false },
  'es-verifactu-v1': { key: 'es-verifactu-doc-type', keepOriginalTaxExt: false },
};

function withoutKey(ext: Node | undefined, key: string): Node {
  const out: Node = { ...(ext ?? {}) };
  delete out[key];
  return out;
}

function route(doc: Node, options: CorrectionOptions, r: DocTypeRoute): void {
  const ref: Node | undefined = doc.preceding?.[0];
  if (!ref) return;
  let ext = withoutKey(ref.ext, r.key);
  if (r.keepOriginalTaxExt && doc.tax?.ext && Object.keys(doc.tax.ext).length > 0) {
    ext = { ...doc.tax.ext, ...ext };
  }
  if (Object.keys(ext).length > 0) ref.ext = ext;
  else delete ref.ext;
  const value = options.ext[r.key];
  if (value) {
    doc.tax ??= {};
    doc.tax.ext = { ...(doc.tax.ext ?? {}), [r.key]: value };
  }
}

export function applyCorrectionHooks(doc: Node, options: CorrectionOptions, addonKeys: readonly string[]): void {
  for (const key of addonKeys) {
    const r = ROUTES[key];
    if (r) route(doc, options, r);
  }
}
