// The shapes of GOBL's published definitions (data/regimes, data/addons), as far as the
// engine reads them. Field names are GOBL's own.

export type I18n = Record<string, string>;

export interface RateValueDef {
  since?: string;
  percent?: string;
  surcharge?: string;
  ext?: Record<string, string>;
  disabled?: boolean;
}

export interface RateDef {
  rate: string;
  keys?: string[];
  name?: I18n;
  values: RateValueDef[];
  ext?: Record<string, string>;
}

export interface KeyDef {
  key: string;
  name?: I18n;
  no_percent?: boolean;
}

export interface CategoryDef {
  code: string;
  name?: I18n;
  title?: I18n;
  retained?: boolean;
  informative?: boolean;
  keys?: KeyDef[];
  rates?: RateDef[];
  extensions?: string[];
}

export interface ScenarioDef {
  type?: string[];
  tags?: string[];
  cat?: string[];
  ext_key?: string;
  ext_code?: string;
  filter?: unknown;
  note?: { key?: string; code?: string; src?: string; text?: string; cat?: string; [k: string]: unknown };
  codes?: Record<string, string>;
  ext?: Record<string, string>;
  [k: string]: unknown;
}

export interface ScenarioSetDef { schema: string; list: ScenarioDef[] }

export interface CorrectionDef {
  schema: string;
  types?: string[];
  extensions?: string[];
  reason_required?: boolean;
  stamps?: string[];
  copy_tax?: boolean;
}

export interface ExtValueDef { code: string; name?: I18n; desc?: I18n; values?: ExtValueDef[] }
export interface ExtensionDef { key: string; name?: I18n; desc?: I18n; values?: ExtValueDef[]; pattern?: string }

export interface TagSetDef { schema: string; list: Array<{ key: string; name?: I18n }> }

export interface RegimeDef {
  $schema?: string;
  country: string;
  alt_country_codes?: string[];
  currency: string;
  time_zone: string;
  tax_scheme?: string;
  calculator_rounding_rule?: string;
  tags?: TagSetDef[];
  identities?: Array<{ key: string; name?: I18n }>;
  extensions?: ExtensionDef[];
  scenarios?: ScenarioSetDef[];
  corrections?: CorrectionDef[];
  categories: CategoryDef[];
  payment_means_keys?: unknown[];
}

export interface AddonDef {
  key: string;
  requires?: string[];
  name?: I18n;
  extensions?: ExtensionDef[];
  tags?: TagSetDef[];
  scenarios?: ScenarioSetDef[];
  corrections?: CorrectionDef[];
  identities?: unknown[];
  inboxes?: unknown[];
}
