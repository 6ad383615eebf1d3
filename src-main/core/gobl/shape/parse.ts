// Client input → the tree the engine works on, as GOBL's Go unmarshalling would leave it:
// field names matched like encoding/json does (exact first, then case-insensitively), unknown
// fields dropped, amounts and percentages read from their JSON token text into GOBL's
// canonical strings, type mismatches refused, and the deprecated fields that GOBL's
// UnmarshalJSON methods migrate moved to their current place.
import { regimeDef } from '../defs/index.ts';
import { BuildError, type EngineFault, type Node } from '../engine/types.ts';
import { jsonPath } from '../json-path.ts';
import { compareGoStrings, conform } from './conform.ts';
import { canonicalAmount, canonicalPercentage, NumberInputError } from './input-numbers.ts';
import { parseJsonPreservingNumbers } from './json-text.ts';
import { RawNumber } from './raw-number.ts';
import { concreteType, DYNAMIC_OBJECT, fieldTypeOf, isObject, schemaDef, typeInfo, type FieldType, type TypeInfo } from './schemas.ts';

export { RawNumber } from './raw-number.ts';

type Path = (string | number)[];

// Where a value sits, as a chain from its parent: most values never fail, so the JSON path
// array is only made for the ones that do (a new array per node was a tenth of a build).
type Place = { readonly up: Place | null; readonly key: string | number } | null;

function pathOf(place: Place): Path {
  const parts: Path = [];
  for (let p = place; p !== null; p = p.up) parts.push(p.key);
  return parts.reverse();
}

function placeOf(path: Path): Place {
  let place: Place = null;
  for (const key of path) place = { up: place, key };
  return place;
}

/**
 * JSON.parse that keeps every number whose source text says more than its float (`10.50`,
 * `1e5`, integers beyond 2^53) as a RawNumber, so amounts keep their decimals.
 */
export function parseJsonText(text: string): unknown {
  return parseJsonPreservingNumbers(text);
}

/**
 * Input as GOBL's example runner reads it: every source (YAML or JSON) goes through a YAML to
 * JSON conversion, so numbers arrive as floats (`20.0` → 20) and every object's keys are
 * sorted (visible only in documents GOBL keeps raw, such as unknown complements).
 */
export function parseAsGoblYaml(text: string): unknown {
  return sortKeysDeep(JSON.parse(text));
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (!isObject(value)) return value;
  const out: Node = {};
  for (const key of Object.keys(value).sort(compareGoStrings)) out[key] = sortKeysDeep(value[key]);
  return out;
}

/** A RawNumber, or one that lost its class on the way (structuredClone keeps only `{ text }`). */
export function isRawNumber(value: unknown): value is { text: string } {
  if (value instanceof RawNumber) return true;
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'text' && typeof value.text === 'string' && /^-?[0-9]/.test(value.text);
}

export interface PrepareOptions {
  /** Where `node` sits, for fault paths: `['doc']` by default (paths read `$.doc.lines[0]…`), `[]` for an envelope. */
  basePath?: Path;
}

/**
 * Returns the document `node` of GOBL type `typeName` as GOBL's unmarshalling leaves it.
 * `node` itself is not modified. Throws BuildError with every refused value.
 */
export function prepareInput(node: Node, typeName: string, options: PrepareOptions = {}): Node {
  const basePath = options.basePath ?? (typeName === 'gobl.Envelope' ? [] : ['doc']);
  const faults: EngineFault[] = [];
  const prepared = prepareValue(node, fieldTypeOf(typeName), placeOf(basePath), faults, true);
  if (faults.length > 0) throw new BuildError(faults);
  return conform(prepared as Node, typeName, { fillRequired: false });
}

// Deprecated field names that a type's UnmarshalJSON still reads, with the type they are read as.
const LEGACY_FIELDS: Record<string, Record<string, FieldType>> = {
  'bill.Tax': { tags: { kind: 'array', of: { kind: 'scalar', scalar: 'string', type: 'cbc.Key' } } },
  'tax.Combo': { tags: { kind: 'array', of: { kind: 'scalar', scalar: 'string', type: 'cbc.Key' } } },
  'bill.Payment': { method: { kind: 'object', type: 'pay.Instructions' } },
  'pay.Online': { name: { kind: 'scalar', scalar: 'string' }, addr: { kind: 'scalar', scalar: 'string' } },
  'pay.Record': { desc: { kind: 'scalar', scalar: 'string' } },
  'pay.Terms': { detail: { kind: 'scalar', scalar: 'string' } },
};

function fail(faults: EngineFault[], path: Place, message: string): undefined {
  faults.push({ code: 'invalid', message, paths: [jsonPath(pathOf(path))] });
  return undefined;
}

function jsonKind(value: unknown): string {
  if (isRawNumber(value) || typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

function goTypeName(type: FieldType): string {
  switch (type.kind) {
    case 'object':
      return `*${type.type}`;
    case 'array':
      return type.type ?? `[]${goTypeName(type.of)}`;
    case 'map':
      return type.type ?? 'map';
    default:
      return type.type ?? type.scalar;
  }
}

function mismatch(faults: EngineFault[], path: Place, value: unknown, type: FieldType): undefined {
  return fail(faults, path, `cannot unmarshal ${jsonKind(value)} into a field of type ${goTypeName(type)}`);
}

/** The value in GOBL's shape, or undefined to leave the field out (a null or refused scalar). */
function prepareValue(value: unknown, type: FieldType, path: Place, faults: EngineFault[], isRoot = false): unknown {
  if (value === undefined) return undefined;
  switch (type.kind) {
    case 'object':
      if (value === null) return null;
      if (!isObject(value) || isRawNumber(value)) return mismatch(faults, path, value, type);
      return prepareObject(value, type.type, path, faults, isRoot);
    case 'array':
      if (value === null) return null;
      if (!Array.isArray(value)) return mismatch(faults, path, value, type);
      return value.map((item, i) => {
        const prepared = prepareValue(item, type.of, { up: path, key: i }, faults);
        // A null in a list of values (not pointers) becomes the zero value.
        return prepared === undefined && type.of.kind === 'scalar' ? zeroScalar(type.of) : prepared;
      });
    case 'map':
      if (value === null) return null;
      if (!isObject(value) || isRawNumber(value)) return mismatch(faults, path, value, type);
      return prepareMap(value, type.of, path, faults);
    default:
      return prepareScalar(value, type, path, faults);
  }
}

function zeroScalar(type: FieldType & { kind: 'scalar' }): unknown {
  return type.scalar === 'string' ? '' : type.scalar === 'boolean' ? false : type.scalar === 'any' ? null : 0;
}

function prepareMap(value: Node, of: FieldType, path: Place, faults: EngineFault[]): Node {
  const out: Node = {};
  for (const [key, item] of Object.entries(value)) {
    const prepared = prepareValue(item, of, { up: path, key }, faults);
    out[key] = prepared === undefined && of.kind === 'scalar' ? zeroScalar(of) : prepared;
  }
  return out;
}

interface InputFields {
  /** Exact field names (current and legacy) with their types. */
  exact: Map<string, FieldType>;
  /** Lower-cased names, for encoding/json's case-insensitive match. */
  folded: Map<string, string>;
}

const inputFieldsCache = new Map<string, InputFields>();

// A struct type's field names and types as Go's decoder matches them, worked out once per type.
function inputFields(info: TypeInfo, legacy: Record<string, FieldType> | undefined): InputFields {
  let found = inputFieldsCache.get(info.name);
  if (!found) {
    const exact = new Map<string, FieldType>();
    for (const name of info.fields) exact.set(name, info.field(name)!);
    for (const [name, type] of Object.entries(legacy ?? {})) if (!exact.has(name)) exact.set(name, type);
    const folded = new Map<string, string>();
    for (const name of exact.keys()) if (!folded.has(name.toLowerCase())) folded.set(name.toLowerCase(), name);
    found = { exact, folded };
    inputFieldsCache.set(info.name, found);
  }
  return found;
}

function prepareObject(value: Node, declared: string, path: Place, faults: EngineFault[], isRoot: boolean): Node {
  const typeName = concreteType(value, declared);
  // A document under a `$schema` GOBL does not know is passed through untouched.
  if (typeName === DYNAMIC_OBJECT) return value;
  const info = typeInfo(typeName);
  if (!info) return value;
  if (info.shape === 'map') return prepareMap(value, info.mapOf!, path, faults);
  const { exact, folded } = inputFields(info, LEGACY_FIELDS[typeName]);
  const out: Node = {};
  if ((isRoot || declared === DYNAMIC_OBJECT) && typeof value.$schema === 'string' && !exact.has('$schema')) {
    out.$schema = value.$schema;
  }
  for (const key of Object.keys(value)) {
    // encoding/json prefers an exact field name and otherwise accepts a case-insensitive match;
    // a later key for the same field wins, as it overwrites the earlier one when Go decodes.
    const field = exact.has(key) ? key : folded.get(key.toLowerCase());
    if (field === undefined) continue;
    const prepared = prepareValue(value[key], exact.get(field)!, { up: path, key: field }, faults);
    if (prepared !== undefined) out[field] = prepared;
    else delete out[field];
  }
  fixEmptyDates(out, info);
  MIGRATIONS[typeName]?.(out);
  return out;
}

// `""` and `"0000-00-00"` are GOBL's zero date: a required (value) date is left unset for the
// calculation's default; an optional (pointer) one is kept and prints as the zero date.
const dateFieldsCache = new Map<string, Array<{ field: string; kind: 'date' | 'time'; required: boolean }>>();

/** A type's date and time fields, worked out once per type. */
function dateFields(info: TypeInfo): Array<{ field: string; kind: 'date' | 'time'; required: boolean }> {
  let found = dateFieldsCache.get(info.name);
  if (!found) {
    const required = new Set<string>((schemaDef(info.name)?.required as string[] | undefined) ?? []);
    found = [];
    for (const field of info.fields) {
      const type = info.field(field)!;
      if (type.kind !== 'scalar') continue;
      if (type.type === 'cal.Date') found.push({ field, kind: 'date', required: required.has(field) });
      else if (type.type === 'cal.Time') found.push({ field, kind: 'time', required: required.has(field) });
    }
    dateFieldsCache.set(info.name, found);
  }
  return found;
}

function fixEmptyDates(out: Node, info: TypeInfo): void {
  for (const { field, kind, required } of dateFields(info)) {
    const value = out[field];
    if (value === undefined) continue;
    if (kind === 'date' && (value === '' || value === '0000-00-00')) {
      if (required) delete out[field];
      else out[field] = '0000-00-00';
    } else if (kind === 'time' && value === '') {
      out[field] = '00:00:00';
    }
  }
}

function numberText(value: unknown): string | undefined {
  if (isRawNumber(value)) return value.text;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(y, mo, 0);
  return d <= lastDay.getUTCDate();
}

function prepareScalar(value: unknown, type: FieldType & { kind: 'scalar' }, path: Place, faults: EngineFault[]): unknown {
  if (value === null) return undefined;
  switch (type.scalar) {
    case 'amount':
    case 'percentage': {
      const text = typeof value === 'string' ? value : numberText(value);
      if (text === undefined) return fail(faults, path, `invalid ${type.scalar}: a ${jsonKind(value)} is not a number`);
      try {
        // GOBL strips a string's quotes only when something is inside them.
        if (typeof value === 'string' && text === '') throw new NumberInputError(`invalid major number '""'`);
        return type.scalar === 'amount' ? canonicalAmount(text) : canonicalPercentage(text);
      } catch (err) {
        if (err instanceof NumberInputError) {
          const hint = /[eE]/.test(text) && typeof value !== 'string' ? ' (numbers with an exponent are not accepted)' : '';
          return fail(faults, path, `invalid ${type.scalar} '${text}': ${err.message}${hint}`);
        }
        throw err;
      }
    }
    case 'integer': {
      const text = numberText(value);
      if (text === undefined) return mismatch(faults, path, value, type);
      if (!/^-?\d+$/.test(text)) return fail(faults, path, `cannot unmarshal number ${text} into a field of type int`);
      const big = BigInt(text);
      if (big > 9223372036854775807n || big < -9223372036854775808n) return fail(faults, path, `number ${text} overflows an int`);
      return Number.isSafeInteger(Number(text)) ? Number(text) : new RawNumber(text);
    }
    case 'number': {
      const text = numberText(value);
      if (text === undefined) return mismatch(faults, path, value, type);
      return Number(text);
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : mismatch(faults, path, value, type);
    case 'string':
      if (typeof value !== 'string') return mismatch(faults, path, value, type);
      if (type.type === 'cal.Date' && value !== '' && value !== '0000-00-00' && !validDate(value)) {
        return fail(faults, path, `invalid date '${value}': expected YYYY-MM-DD`);
      }
      if (type.type === 'cal.Time' && value !== '' && !TIME.test(value)) {
        return fail(faults, path, `invalid time '${value}': expected HH:MM:SS`);
      }
      return value;
    default:
      return value;
  }
}

// ---- The migrations GOBL's UnmarshalJSON methods apply, each on its own already-prepared node.

const MIGRATIONS: Record<string, (node: Node) => void> = {
  'bill.Invoice': migrateInvoice,
  'bill.Payment': migratePayment,
  'pay.Online': migrateOnline,
  'pay.Record': migrateRecord,
  'pay.Terms': migrateTerms,
  'tax.Combo': migrateCombo,
};

function nonEmptyList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0;
}

function migrateInvoice(inv: Node): void {
  // A document read from JSON without `$regime` takes its supplier's tax country, when GOBL has
  // that regime; an unknown country leaves the regime empty.
  if (typeof inv.$regime !== 'string' || inv.$regime === '') {
    const country = inv.supplier?.tax_id?.country;
    const def = typeof country === 'string' ? regimeDef(country) : undefined;
    const known = def && (def.country === country || (def.alt_country_codes ?? []).includes(country));
    if (known) inv.$regime = def.country;
    else delete inv.$regime;
  }
  // The old `tax.tags` list replaces the document's tags.
  if (isObject(inv.tax) && nonEmptyList(inv.tax.tags)) inv.$tags = inv.tax.tags;
}

function migratePayment(pmt: Node): void {
  const method = pmt.method;
  if (!isObject(method) || nonEmptyList(pmt.methods)) return;
  const record: Node = {
    key: method.key,
    ref: method.ref,
    description: method.detail,
    card: method.card,
    credit_transfer: Array.isArray(method.credit_transfer) ? method.credit_transfer[0] : undefined,
    direct_debit: method.direct_debit,
    online: method.online,
    ext: method.ext,
    meta: method.meta,
  };
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  pmt.methods = [record];
}

function migrateOnline(online: Node): void {
  if (typeof online.name === 'string' && online.name !== '') online.label = online.name;
  if (typeof online.addr === 'string' && online.addr !== '') online.url = online.addr;
}

function migrateRecord(record: Node): void {
  if (typeof record.desc === 'string' && record.desc !== '') record.description = record.desc;
}

function migrateTerms(terms: Node): void {
  const detail = terms.detail;
  if (typeof detail !== 'string' || detail === '') return;
  const notes = typeof terms.notes === 'string' ? terms.notes : '';
  if (notes === '') {
    terms.notes = detail;
    return;
  }
  const trimmed = notes.trim();
  terms.notes = `${trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed}. ${detail}`;
}

function migrateCombo(combo: Node): void {
  if ((typeof combo.rate !== 'string' || combo.rate === '') && nonEmptyList(combo.tags)) combo.rate = combo.tags[0];
}
