// GB: the regime also covers Northern Ireland (XI) and XU, so those prefixes are dropped too.
import type { NormRule } from '../engine/types.ts';
import { taxIdRule } from './tax-id.ts';

export const gbNormRules: NormRule[] = [taxIdRule(['GB', 'XI', 'XU'], undefined, ['XI', 'XU'])];
