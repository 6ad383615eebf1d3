// CH: a Swiss UID loses the language suffix that often follows it (`CHE-123.456.789 MWST`).
import type { NormRule } from '../engine/types.ts';
import { taxIdRule } from './tax-id.ts';

const languageSuffix = /(MWST|TVA|IVA)$/;

export const chNormRules: NormRule[] = [taxIdRule(['CH'], (code) => code.replace(languageSuffix, ''))];
