// Every normaliser GOBL's own packages register (no regime, no addon), in GOBL's package
// order: tax (with the global cbc.Code and tax.Extensions cleaners), org, bill, pay.
import type { NormRule } from '../engine/types.ts';
import { billNormRules } from './bill.ts';
import { cbcNormRules } from './cbc.ts';
import { orgNormRules } from './org.ts';
import { payNormRules } from './pay.ts';
import { taxNormRules } from './tax.ts';

export const genericNormRules: NormRule[] = [
  ...cbcNormRules,
  ...taxNormRules,
  ...orgNormRules,
  ...billNormRules,
  ...payNormRules,
];
