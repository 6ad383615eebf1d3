// CO: tax IDs get GOBL's standard cleaning and nothing more.
import type { NormRule } from '../engine/types.ts';
import { taxIdRule } from './tax-id.ts';

export const coNormRules: NormRule[] = [taxIdRule(['CO'])];
