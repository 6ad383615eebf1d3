// The categories GOBL applies where no regime is known (a document without a regime): VAT and
// GST with their keys. They have no rates, so only keys and "no percent" flags matter.
import type { CategoryDef } from '../defs/types.ts';

function keys(withPercent: string[], noPercent: string[]) {
  return [
    ...withPercent.map((key) => ({ key })),
    ...noPercent.map((key) => ({ key, no_percent: true })),
  ];
}

const GLOBAL: CategoryDef[] = [
  { code: 'VAT', keys: keys(['standard', 'zero'], ['reverse-charge', 'exempt', 'export', 'intra-community', 'outside-scope']) },
  { code: 'GST', keys: keys(['standard', 'zero'], ['exempt', 'outside-scope']) },
];

export function globalCategoryDef(code: string): CategoryDef | undefined {
  return GLOBAL.find((c) => c.code === code);
}
