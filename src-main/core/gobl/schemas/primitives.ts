// Scalar building blocks shared by every GOBL schema (cbc, cal, num, currency,
// l10n, org/unit, tax/extensions). Messages are written for the person who has
// to fix the document, not for the developer.
import { z } from 'zod';
import { CURRENCY_CODES, ISO_COUNTRY_CODES, TAX_COUNTRY_CODES, UNIT_KEYS } from './code-lists.ts';

// JSON Schema's "uuid" format is syntax only: GOBL fixtures carry ids whose
// version nibble is 0, 8 or 9, so an RFC-version-aware check would reject them.
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const KEY_PATTERN = /^(?:[a-z]|[a-z0-9][a-z0-9-+]*[a-z0-9])$/;
const CODE_PATTERN = /^[^\s\x00-\x1f\x7f-\x9f](?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$/;
const AMOUNT_PATTERN = /^-?[0-9]+(?:\.[0-9]+)?$/;
const PERCENTAGE_PATTERN = /^-?[0-9]+(?:\.[0-9]+)?%$/;
const TIME_PATTERN = /^(?:[0-1][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;
const DATE_TIME_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/;
const TIMESTAMP_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z$/;
const URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const UNECE_UNIT_PATTERN = /^[A-Z0-9]{2,3}$/;

export const text = z.string({ error: 'must be text' });
export const integer = z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' });
export const bool = z.boolean({ error: 'must be true or false' });

export const uuid = z.string({ error: 'must be a UUID' }).regex(UUID_PATTERN, { error: 'must be a UUID such as "0190a1b2-..."' });

// cbc/key: lower-case machine keys such as "standard" or "credit-transfer".
export const key = z
  .string({ error: 'must be a key' })
  .max(64, { error: 'must be at most 64 characters' })
  .regex(KEY_PATTERN, { error: 'must be a lower-case key such as "standard" (letters, digits, "-" and "+")' });

// cbc/code: human codes such as invoice numbers; no control characters and no
// leading or trailing spaces.
export const code = z
  .string({ error: 'must be a code' })
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'must be at most 64 characters' })
  .regex(CODE_PATTERN, { error: 'must not start or end with spaces or contain control characters' });

export const date = z.iso.date({ error: 'must be a valid date as YYYY-MM-DD' });
export const time = z.string({ error: 'must be a time as HH:MM:SS' }).regex(TIME_PATTERN, { error: 'must be a time as HH:MM:SS' });
export const dateTime = z
  .string({ error: 'must be a date and time as YYYY-MM-DDTHH:MM:SS' })
  .regex(DATE_TIME_PATTERN, { error: 'must be a date and time as YYYY-MM-DDTHH:MM:SS' });
export const timestamp = z
  .string({ error: 'must be a UTC timestamp as YYYY-MM-DDTHH:MM:SSZ' })
  .regex(TIMESTAMP_PATTERN, { error: 'must be a UTC timestamp as YYYY-MM-DDTHH:MM:SSZ' });

// num/amount: GOBL writes amounts as decimal strings so precision survives
// JSON; a JSON number here means the document was not produced by GOBL.
export const amount = z
  .string({ error: 'must be a decimal amount written as a string, such as "1800.00"' })
  .regex(AMOUNT_PATTERN, { error: 'must be a decimal amount such as "1800.00"' });

export const percentage = z
  .string({ error: 'must be a percentage written as a string, such as "21%"' })
  .regex(PERCENTAGE_PATTERN, { error: 'must be a percentage such as "21%" or "10.5%"' });

export const currencyCode = z
  .string({ error: 'must be a currency code such as "EUR"' })
  .regex(/^[A-Z]{3,4}$/, { error: 'must be an upper-case currency code such as "EUR"' })
  .pipe(z.enum(CURRENCY_CODES, { error: 'is not a known currency code' }));

export const countryCode = z
  .string({ error: 'must be a country code such as "ES"' })
  .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter upper-case country code such as "ES"' })
  .pipe(z.enum(ISO_COUNTRY_CODES, { error: 'is not a known ISO 3166 country code' }));

// Tax countries differ from ISO ones (Greece is "EL" for VAT, "GR" in addresses).
export const taxCountryCode = z
  .string({ error: 'must be a country code such as "ES"' })
  .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter upper-case country code such as "ES"' })
  .pipe(z.enum(TAX_COUNTRY_CODES, { error: 'is not a known tax country code' }));

// tax/regime-code and tax/addon-list are enumerated in the schema, but GOBL adds
// regimes and addons in almost every release; a document from a newer GOBL
// must still be storable, so only their shape is checked.
export const regimeCode = z
  .string({ error: 'must be a country code such as "ES"' })
  .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter upper-case regime code such as "ES"' });
export const addonList = z.array(key, { error: 'must be a list of addon keys' });

const unitKeys: ReadonlySet<string> = new Set(UNIT_KEYS);
export const unit = z
  .string({ error: 'must be a unit such as "h" or "KGM"' })
  .refine((value) => unitKeys.has(value) || UNECE_UNIT_PATTERN.test(value), {
    error: 'must be a GOBL unit key such as "h" or a UN/ECE unit code such as "KGM"',
    params: { code: 'invalid-value' },
  });

export const uri = z
  .string({ error: 'must be a URI' })
  .max(2048, { error: 'must be at most 2048 characters' })
  .regex(URI_PATTERN, { error: 'must be a URI with a scheme, such as "https://..."' });

// cbc/meta: free-form string values under machine keys.
export const meta = z.record(key, text, { error: 'must be an object of text values' });

// tax/extensions: codes under machine keys, e.g. {"es-tbai-product": "services"}.
export const extensions = z.record(key, code, { error: 'must be an object of codes' });

export const stringList = z.array(text, { error: 'must be a list of text' });

// Every GOBL object accepts properties it does not know yet, so a document from
// a newer GOBL release still validates; the known ones are checked.
export function object<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape, { error: 'must be an object' });
}

export function listOf<Item extends z.ZodType>(item: Item) {
  return z.array(item, { error: 'must be a list' });
}

// cal/period
export const period = object({
  label: text.nullish(),
  start: date,
  end: date,
});
