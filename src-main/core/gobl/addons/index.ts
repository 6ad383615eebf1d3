// Addon normalisers by addon key: what each GOBL addon's `norm.For` registrations do, as rules
// the engine's walker applies (children before parents, generic and regime rules first).
import type { NormRule } from '../engine/types.ts';
import { arArcaV4Rules } from './ar-arca-v4.ts';
import { coDianV2Rules } from './co-dian-v2.ts';
import { esSiiV1Rules } from './es-sii-v1.ts';
import { esTbaiV1Rules } from './es-tbai-v1.ts';
import { esVerifactuV1Rules } from './es-verifactu-v1.ts';
import { euEn16931V2017Rules } from './eu-en16931-v2017.ts';
import { frChorusproV1Rules } from './fr-choruspro-v1.ts';
import { grMydataV1Rules } from './gr-mydata-v1.ts';
import { itSdiV1Rules } from './it-sdi-v1.ts';
import { itTicketV1Rules } from './it-ticket-v1.ts';
import { plFavatV3Rules } from './pl-favat-v3.ts';

const RULES_BY_ADDON: Readonly<Record<string, readonly NormRule[]>> = {
  'ar-arca-v4': arArcaV4Rules,
  'co-dian-v2': coDianV2Rules,
  'es-sii-v1': esSiiV1Rules,
  'es-tbai-v1': esTbaiV1Rules,
  'es-verifactu-v1': esVerifactuV1Rules,
  'eu-en16931-v2017': euEn16931V2017Rules,
  'fr-choruspro-v1': frChorusproV1Rules,
  'gr-mydata-v1': grMydataV1Rules,
  'it-sdi-v1': itSdiV1Rules,
  'it-ticket-v1': itTicketV1Rules,
  'pl-favat-v3': plFavatV3Rules,
  // These only add data (extensions, scenarios, corrections) or requirements (EN 16931), so
  // GOBL registers no normaliser for them. pl-favat-v2 is still published as data but its
  // code is gone from GOBL v0.502.1 (only FA(3), pl-favat-v3, is registered).
  'de-xrechnung-v3': [],
  'de-zugferd-v2': [],
  'es-facturae-v3': [],
  'fr-facturx-v1': [],
  'pl-favat-v2': [],
};

/** The normalisers of one addon, in GOBL's registration order; none for an unknown key. */
export function addonNormRules(key: string): NormRule[] {
  return Object.prototype.hasOwnProperty.call(RULES_BY_ADDON, key) ? [...RULES_BY_ADDON[key]] : [];
}

/** The addon keys this module knows (all addons GOBL publishes data for). */
export function addonKeysWithRules(): string[] {
  return Object.keys(RULES_BY_ADDON);
}
