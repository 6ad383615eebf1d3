// cbc: every cbc.Code in a document is cleaned wherever it appears (registered by GOBL's tax
// package as a global normaliser).
import type { NormRule } from '../engine/types.ts';
import type { ScalarBox } from './engine.ts';
import { normalizeCode } from './strings.ts';

export const cbcNormRules: NormRule[] = [
  {
    type: 'cbc.Code',
    apply: (box) => {
      const { value } = box as ScalarBox;
      if (typeof value === 'string') box.value = normalizeCode(value);
    },
  },
];
