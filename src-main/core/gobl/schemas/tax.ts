// tax/identity, tax/set (combos), tax/total and tax/note.
import { code, extensions, key, listOf, object, percentage, amount, taxCountryCode, text, bool } from './primitives.ts';

// A tax id code is upper-case letters and digits only (GOBL normalises away
// spaces, dots and dashes before storing it).
export const taxIdentity = object({
  country: taxCountryCode,
  code: code.regex(/^[A-Z0-9Ñ&]+$/, { error: 'must be upper-case letters and digits only, such as "B98602642"' }).nullish(),
  scheme: code.nullish(),
  type: key.nullish(),
});

// The published schema constrains `key` per category inside an anyOf of
// if/then branches, which any value satisfies (the other branch's `if` fails);
// GOBL checks keys per regime, so only the key shape is checked here.
export const taxCombo = object({
  cat: code,
  country: taxCountryCode.nullish(),
  key: key.nullish(),
  rate: key.nullish(),
  percent: percentage.nullish(),
  surcharge: percentage.nullish(),
  ext: extensions.nullish(),
});

export const taxSet = listOf(taxCombo);

const rateTotalSurcharge = object({
  percent: percentage,
  amount,
});

const rateTotal = object({
  country: taxCountryCode.nullish(),
  key: key.nullish(),
  ext: extensions.nullish(),
  base: amount,
  percent: percentage.nullish(),
  surcharge: rateTotalSurcharge.nullish(),
  amount,
});

const categoryTotal = object({
  code,
  retained: bool.nullish(),
  informative: bool.nullish(),
  rates: listOf(rateTotal),
  amount,
  surcharge: amount.nullish(),
});

export const taxTotal = object({
  categories: listOf(categoryTotal).nullish(),
  sum: amount,
  retained: amount.nullish(),
});

export const taxNote = object({
  cat: code.nullish(),
  key: key.nullish(),
  text,
  ext: extensions.nullish(),
});
