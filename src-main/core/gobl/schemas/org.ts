// org/*: parties and the pieces they and documents are made of.
import { z } from 'zod';
import {
  amount, code, countryCode, currencyCode, date, extensions, integer, key, listOf, meta, object, period, regimeCode,
  text, unit, uri, uuid,
} from './primitives.ts';
import { currencyAmount } from './currency.ts';
import { digest, stamp } from './head.ts';
import { taxIdentity, taxTotal } from './tax.ts';

const coordinates = object({
  lat: z.number({ error: 'must be a number' }).nullish(),
  lon: z.number({ error: 'must be a number' }).nullish(),
  w3w: text.nullish(),
  geohash: text.nullish(),
});

export const address = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  po_box: text.nullish(),
  num: text.nullish(),
  floor: text.nullish(),
  block: text.nullish(),
  door: text.nullish(),
  street: text.nullish(),
  street_extra: text.nullish(),
  locality: text.nullish(),
  region: text.nullish(),
  state: code.nullish(),
  code: code.nullish(),
  country: countryCode.nullish(),
  coords: coordinates.nullish(),
  meta: meta.nullish(),
});

export const identity = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  scope: z.enum(['tax', 'legal'], { error: 'must be "tax" or "legal"' }).nullish(),
  country: countryCode.nullish(),
  key: key.nullish(),
  type: code.nullish(),
  code,
  description: text.nullish(),
  ext: extensions.nullish(),
});

const email = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  addr: text,
  meta: meta.nullish(),
});

const endpoint = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  uri,
});

const image = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  url: text.nullish(),
  data: text.nullish(),
  mime: text.nullish(),
  description: text.nullish(),
  alt: text.nullish(),
  height: integer.nullish(),
  width: integer.nullish(),
  digest: digest.nullish(),
  meta: meta.nullish(),
});

const inbox = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  key: key.nullish(),
  scheme: code.nullish(),
  code: code.nullish(),
  url: text.nullish(),
  email: text.nullish(),
});

const personName = object({
  uuid: uuid.nullish(),
  alias: text.nullish(),
  prefix: text.nullish(),
  given: text.nullish(),
  middle: text.nullish(),
  surname: text.nullish(),
  surname2: text.nullish(),
  suffix: text.nullish(),
  meta: meta.nullish(),
});

const telephone = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  num: text,
});

const website = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  title: text.nullish(),
  url: uri,
});

const person = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  key: key.nullish(),
  name: personName,
  role: text.nullish(),
  identities: listOf(identity).nullish(),
  addresses: listOf(address).nullish(),
  emails: listOf(email).nullish(),
  telephones: listOf(telephone).nullish(),
  avatars: listOf(image).nullish(),
  meta: meta.nullish(),
});

const registration = object({
  uuid: uuid.nullish(),
  label: text.nullish(),
  capital: amount.nullish(),
  currency: currencyCode.nullish(),
  office: text.nullish(),
  book: text.nullish(),
  volume: text.nullish(),
  sheet: text.nullish(),
  section: text.nullish(),
  page: text.nullish(),
  entry: text.nullish(),
  other: text.nullish(),
  ext: extensions.nullish(),
});

// org/party has no required fields: a simplified invoice's customer may be a
// bare tax id, and a party document may be a draft contact.
export const party = object({
  $regime: regimeCode.nullish(),
  uuid: uuid.nullish(),
  label: text.nullish(),
  name: text.nullish(),
  alias: text.nullish(),
  tax_id: taxIdentity.nullish(),
  identities: listOf(identity).nullish(),
  people: listOf(person).nullish(),
  endpoints: listOf(endpoint).nullish(),
  inboxes: listOf(inbox).nullish(),
  addresses: listOf(address).nullish(),
  emails: listOf(email).nullish(),
  websites: listOf(website).nullish(),
  telephones: listOf(telephone).nullish(),
  registration: registration.nullish(),
  logos: listOf(image).nullish(),
  ext: extensions.nullish(),
  meta: meta.nullish(),
});

const NOTE_KEYS = [
  'goods', 'payment', 'payment-method', 'payment-term', 'legal', 'dangerous-goods', 'ack', 'rate', 'reason', 'dispute',
  'customer', 'glossary', 'customs', 'general', 'handling', 'packaging', 'loading', 'price', 'priority', 'regulatory',
  'safety', 'ship-line', 'supplier', 'transport', 'delivery', 'quarantine', 'tax', 'other',
] as const;

export const note = object({
  uuid: uuid.nullish(),
  key: z.enum(NOTE_KEYS, { error: `must be one of ${NOTE_KEYS.join(', ')}` }).nullish(),
  code: code.nullish(),
  src: key.nullish(),
  text,
  meta: meta.nullish(),
  ext: extensions.nullish(),
});

export const item = object({
  uuid: uuid.nullish(),
  ref: code.nullish(),
  key: key.nullish(),
  name: text,
  identities: listOf(identity).nullish(),
  description: text.nullish(),
  images: listOf(image).nullish(),
  currency: currencyCode.nullish(),
  price: amount.nullish(),
  alt_prices: listOf(currencyAmount).nullish(),
  unit: unit.nullish(),
  origin: countryCode.nullish(),
  ext: extensions.nullish(),
  meta: meta.nullish(),
});

// org/document-ref: how one document points at another (preceding invoices,
// paid invoices, orders, contracts...).
export const documentRef = object({
  uuid: uuid.nullish(),
  schema: text.nullish(),
  type: key.nullish(),
  issue_date: date.nullish(),
  series: code.nullish(),
  code,
  currency: currencyCode.nullish(),
  lines: listOf(integer).nullish(),
  identities: listOf(identity).nullish(),
  period: period.nullish(),
  reason: text.nullish(),
  description: text.nullish(),
  stamps: listOf(stamp).nullish(),
  url: uri.nullish(),
  tax: taxTotal.nullish(),
  payable: amount.nullish(),
  ext: extensions.nullish(),
  meta: meta.nullish(),
});

export const attachment = object({
  uuid: uuid.nullish(),
  key: key.nullish(),
  code: code.nullish(),
  name: text.nullish(),
  description: text.nullish(),
  url: uri,
  digest: digest.nullish(),
  mime: text.nullish(),
});
