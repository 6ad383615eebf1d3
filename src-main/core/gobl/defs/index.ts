export { goblDataDir } from './data-dir.ts';
export { readGoblData } from './read-json.ts';
export { categoryDef, regimeCodes, regimeDef } from './regimes.ts';
export { addonDef, addonKeys, expandAddons } from './addons.ts';
export { currencyExponent, isKnownCurrency } from './currencies.ts';
export type * from './types.ts';
