// Client input → the tree the engine works on, as GOBL's Go unmarshalling would leave it:
// field names matched like encoding/json does (exact first, then case-insensitively), unknown
// fields dropped, amounts and percentages read from their JSON token text into GOBL's
// canonical strings, type mismatches refused, and the deprecated fields that GOBL's
// UnmarshalJSON methods migrate moved to their current place.
import { regimeDef } from '../defs/index.ts';
import { BuildError, type EngineFault, type Node } from '../engine/types.ts';
import { jsonPath } from '../json-path.ts';
import { compareGoStrings, conform, conformMapKeys, conformSlots, conformStructFields, copyRawJson, structPlan, type StructPlan } from './conform.ts';
import { dateFields, daysInMonth } from './days.ts';
import { canonicalAmount, canonicalPercentage, NumberInputError } from './input-numbers.ts';
import { parseJsonPreservingNumbers } from './json-text.ts';
import { RawNumber } from './raw-number.ts';
import { concreteType, DYNAMIC_OBJECT, fieldTypeOf, isObject, typeInfo, type FieldType, type TypeInfo } from './schemas.ts';

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

/** The place of the value at `key` under `up` (`up` itself for the root, whose key is null). */
function placeAt(up: Place, key: string | number | null): Place {
  return key === null ? up : { up, key };
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
  // Asked of every object of the input: the key list only for one that has a `text`.
  if (!isObject(value) || typeof value.text !== 'string') return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'text' && typeof value.text === 'string' && /^-?[0-9]/.test(value.text);
}

export interface PrepareOptions {
  /** Where `node` sits, for fault paths: `['doc']` by default (paths read `$.doc.lines[0]…`), `[]` for an envelope. */
  basePath?: Path;
}

/**
 * Returns the document `node` of GOBL type `typeName` as GOBL's unmarshalling leaves it, and
 * already conformed (struct field order, omitempty, sorted map keys; see conform.ts) without
 * the zero values of absent required fields, which the calculation still has to tell apart.
 * `node` itself is not modified. Throws BuildError with every refused value.
 */
export function prepareInput(node: Node, typeName: string, options: PrepareOptions = {}): Node {
  const basePath = options.basePath ?? (typeName === 'gobl.Envelope' ? [] : ['doc']);
  const faults: EngineFault[] = [];
  const prepared = prepareValue(node, fieldTypeOf(typeName), placeOf(basePath), null, faults, true);
  if (faults.length > 0) throw new BuildError(faults);
  if (isObject(prepared)) for (const field of CARRIED_LEGACY[typeName] ?? []) delete prepared[field];
  return prepared as Node;
}

// Deprecated field names that a type's UnmarshalJSON still reads, with the type they are read as.
// A node is conformed as soon as it is prepared, which drops them: its own migration (see
// MIGRATIONS) has read them by then, except for those in CARRIED_LEGACY.
const LEGACY_FIELDS: Record<string, Record<string, FieldType>> = {
  'bill.Tax': { tags: { kind: 'array', of: { kind: 'scalar', scalar: 'string', type: 'cbc.Key' } } },
  'tax.Combo': { tags: { kind: 'array', of: { kind: 'scalar', scalar: 'string', type: 'cbc.Key' } } },
  'bill.Payment': { method: { kind: 'object', type: 'pay.Instructions' } },
  'pay.Online': { name: { kind: 'scalar', scalar: 'string' }, addr: { kind: 'scalar', scalar: 'string' } },
  'pay.Record': { desc: { kind: 'scalar', scalar: 'string' } },
  'pay.Terms': { detail: { kind: 'scalar', scalar: 'string' } },
};

// Legacy fields that the migration of the node's parent reads (the invoice takes its tags from
// the old `tax.tags`): they stay on the conformed node until the parent has been migrated.
const CARRIED_LEGACY: Record<string, readonly string[]> = { 'bill.Tax': ['tags'] };

// A struct type's fields whose nodes carry legacy fields for it, worked out once per type.
const carrierFieldsCache = new Map<string, Array<{ field: string; legacy: readonly string[] }>>();

function carrierFields(info: TypeInfo): Array<{ field: string; legacy: readonly string[] }> {
  let found = carrierFieldsCache.get(info.name);
  if (!found) {
    found = [];
    for (const field of info.fields) {
      const type = info.field(field)!;
      const legacy = type.kind === 'object' ? CARRIED_LEGACY[type.type] : undefined;
      if (legacy) found.push({ field, legacy });
    }
    carrierFieldsCache.set(info.name, found);
  }
  return found;
}

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

/**
 * The value in GOBL's shape, or undefined to leave the field out (a null or refused scalar).
 * It sits at `key` under `up`; a scalar's place is only made if it is refused.
 */
function prepareValue(value: unknown, type: FieldType, up: Place, key: string | number | null, faults: EngineFault[], isRoot = false): unknown {
  if (value === undefined) return undefined;
  switch (type.kind) {
    case 'object': {
      if (value === null) return null;
      const here = placeAt(up, key);
      if (!isObject(value) || isRawNumber(value)) return mismatch(faults, here, value, type);
      return prepareObject(value, type.type, here, faults, isRoot);
    }
    case 'array': {
      if (value === null) return null;
      const here = placeAt(up, key);
      if (!Array.isArray(value)) return mismatch(faults, here, value, type);
      return value.map((item, i) => {
        const prepared = prepareValue(item, type.of, here, i, faults);
        // A null in a list of values (not pointers) becomes the zero value.
        return prepared === undefined && type.of.kind === 'scalar' ? zeroScalar(type.of) : prepared;
      });
    }
    case 'map': {
      if (value === null) return null;
      const here = placeAt(up, key);
      if (!isObject(value) || isRawNumber(value)) return mismatch(faults, here, value, type);
      return prepareMap(value, type.of, here, faults);
    }
    default:
      return prepareScalar(value, type, up, key, faults);
  }
}

function zeroScalar(type: FieldType & { kind: 'scalar' }): unknown {
  return type.scalar === 'string' ? '' : type.scalar === 'boolean' ? false : type.scalar === 'any' ? null : 0;
}

function prepareMap(value: Node, of: FieldType, path: Place, faults: EngineFault[]): Node {
  const out: Node = {};
  // Prepared in the input's order (faults are reported in it), written in Go's sorted order
  // (conformMapKeys hands `out` back when it is in that order already).
  for (const key of Object.keys(value)) {
    const prepared = prepareValue(value[key], of, path, key, faults);
    out[key] = prepared === undefined && of.kind === 'scalar' ? zeroScalar(of) : prepared;
  }
  return conformMapKeys(out);
}

/** A field as Go's decoder finds it, and the slot its value is collected in (its plan index). */
interface InputField {
  name: string;
  type: FieldType;
  slot: number;
}

/** How one struct type is read, worked out once per type. */
interface InputPlan {
  plan: StructPlan;
  /** Exact field names (current and legacy) with their types and slots. */
  exact: Map<string, InputField>;
  /** The same fields, in the map's order, as a list. */
  fieldList: InputField[];
  /** Lower-cased names, for encoding/json's case-insensitive match. */
  folded: Map<string, InputField>;
  /** Slots for the struct's fields, then for its legacy fields. */
  slotCount: number;
  dates: DateField[];
  /**
   * Set for types whose node must always exist before it is conformed: a migration that runs
   * whatever the input (the invoice's), or one that takes legacy fields off its children.
   * Other types need one only when a legacy field is filled (see hasLegacy).
   */
  alwaysAsNode: boolean;
  migrate: ((node: Node) => void) | undefined;
  carriers: Array<{ field: string; legacy: readonly string[] }>;
}

// `""` and `"0000-00-00"` are GOBL's zero date: a required (value) date is left unset for the
// calculation's default; an optional (pointer) one is kept and prints as the zero date.
interface DateField {
  slot: number;
  kind: 'date' | 'time';
  required: boolean;
}

const inputPlans = new Map<string, InputPlan>();

function inputPlan(info: TypeInfo): InputPlan {
  let found = inputPlans.get(info.name);
  if (!found) {
    found = makeInputPlan(info);
    inputPlans.set(info.name, found);
  }
  return found;
}

function makeInputPlan(info: TypeInfo): InputPlan {
  const plan = structPlan(info.name);
  const exact = new Map<string, InputField>();
  const dates: DateField[] = [];
  for (const { name, type, required, index } of plan.fields) {
    exact.set(name, { name, type, slot: index });
    if (type.kind !== 'scalar') continue;
    if (type.type === 'cal.Date') dates.push({ slot: index, kind: 'date', required });
    else if (type.type === 'cal.Time') dates.push({ slot: index, kind: 'time', required });
  }
  let slotCount = plan.fields.length;
  for (const [name, type] of Object.entries(LEGACY_FIELDS[info.name] ?? {})) {
    if (!exact.has(name)) exact.set(name, { name, type, slot: slotCount++ });
  }
  const folded = new Map<string, InputField>();
  for (const field of exact.values()) if (!folded.has(field.name.toLowerCase())) folded.set(field.name.toLowerCase(), field);
  const migrate = MIGRATIONS[info.name];
  const carriers = carrierFields(info);
  const alwaysAsNode = ALWAYS_MIGRATED.has(info.name) || carriers.length > 0;
  return { plan, exact, fieldList: [...exact.values()], folded, slotCount, dates, alwaysAsNode, migrate, carriers };
}

function prepareObject(value: Node, declared: string, path: Place, faults: EngineFault[], isRoot: boolean): Node {
  const typeName = concreteType(value, declared);
  // A document under a `$schema` GOBL does not know is passed through untouched.
  if (typeName === DYNAMIC_OBJECT) return copyRawJson(value) as Node;
  const info = typeInfo(typeName);
  if (!info) return copyRawJson(value) as Node;
  if (info.shape === 'map') return prepareMap(value, info.mapOf!, path, faults);
  const input = inputPlan(info);
  // Values are collected by field, then written once in Go's field order.
  const slots = new Array<unknown>(input.slotCount);
  // A plain object (all JSON objects are) has no enumerable key but its own: for…in lists them
  // without making a key list. Any other object is read by its own keys.
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    for (const key in value) takeField(input, slots, value, key, path, faults);
  } else {
    for (const key of Object.keys(value)) takeField(input, slots, value, key, path, faults);
  }
  fixEmptyDates(slots, input.dates);
  // A document's `$schema` is kept (first) although its struct has no such field.
  const keepsSchema = (isRoot || declared === DYNAMIC_OBJECT) && typeof value.$schema === 'string' && !input.plan.byName.has('$schema');
  const schema = keepsSchema ? (value.$schema as string) : undefined;
  if (!input.alwaysAsNode && !hasLegacy(slots, input)) return conformSlots(slots, input.plan, schema);
  return migratedNode(slots, input, typeName, schema);
}

/**
 * The value of `key` prepared into its field's slot. encoding/json prefers an exact field name
 * and otherwise accepts a case-insensitive match; a later key for the same field wins, as it
 * overwrites the earlier one when Go decodes.
 */
function takeField(input: InputPlan, slots: unknown[], value: Node, key: string, path: Place, faults: EngineFault[]): void {
  const field = input.exact.get(key) ?? input.folded.get(key.toLowerCase());
  if (field !== undefined) slots[field.slot] = prepareValue(value[key], field.type, path, field.name, faults);
}

// Legacy fields have the slots after the struct's own fields.
function hasLegacy(slots: readonly unknown[], input: InputPlan): boolean {
  for (let i = input.plan.fields.length; i < input.slotCount; i++) if (slots[i] !== undefined) return true;
  return false;
}

/** The few types whose migrations work on a node: built, migrated, then conformed. */
function migratedNode(slots: unknown[], input: InputPlan, typeName: string, schema: string | undefined): Node {
  const node: Node = {};
  for (const field of input.fieldList) if (slots[field.slot] !== undefined) node[field.name] = slots[field.slot];
  input.migrate?.(node);
  for (const { field, legacy } of input.carriers) {
    const child = node[field];
    if (isObject(child)) for (const name of legacy) delete child[name];
  }
  if (schema !== undefined) node.$schema = schema;
  const conformed = conformStructFields(node, typeName, schema !== undefined);
  for (const name of CARRIED_LEGACY[typeName] ?? []) if (node[name] !== undefined) conformed[name] = node[name];
  return conformed;
}

function fixEmptyDates(slots: unknown[], dates: readonly DateField[]): void {
  for (const { slot, kind, required } of dates) {
    const value = slots[slot];
    if (value === undefined) continue;
    if (kind === 'date' && (value === '' || value === '0000-00-00')) {
      slots[slot] = required ? undefined : '0000-00-00';
    } else if (kind === 'time' && value === '') {
      slots[slot] = '00:00:00';
    }
  }
}

function numberText(value: unknown): string | undefined {
  if (isRawNumber(value)) return value.text;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?$/;

function validDate(text: string): boolean {
  const fields = dateFields(text);
  if (fields < 0) return false;
  const y = Math.floor(fields / 10000);
  const mo = Math.floor(fields / 100) % 100;
  const d = fields % 100;
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

function prepareScalar(value: unknown, type: FieldType & { kind: 'scalar' }, up: Place, key: string | number | null, faults: EngineFault[]): unknown {
  if (value === null) return undefined;
  switch (type.scalar) {
    case 'amount':
    case 'percentage': {
      const text = typeof value === 'string' ? value : numberText(value);
      if (text === undefined) return fail(faults, placeAt(up, key), `invalid ${type.scalar}: a ${jsonKind(value)} is not a number`);
      try {
        // GOBL strips a string's quotes only when something is inside them.
        if (typeof value === 'string' && text === '') throw new NumberInputError(`invalid major number '""'`);
        return type.scalar === 'amount' ? canonicalAmount(text) : canonicalPercentage(text);
      } catch (err) {
        if (err instanceof NumberInputError) {
          const hint = /[eE]/.test(text) && typeof value !== 'string' ? ' (numbers with an exponent are not accepted)' : '';
          return fail(faults, placeAt(up, key), `invalid ${type.scalar} '${text}': ${err.message}${hint}`);
        }
        throw err;
      }
    }
    case 'integer': {
      const text = numberText(value);
      if (text === undefined) return mismatch(faults, placeAt(up, key), value, type);
      if (!/^-?\d+$/.test(text)) return fail(faults, placeAt(up, key), `cannot unmarshal number ${text} into a field of type int`);
      const big = BigInt(text);
      if (big > 9223372036854775807n || big < -9223372036854775808n) return fail(faults, placeAt(up, key), `number ${text} overflows an int`);
      return Number.isSafeInteger(Number(text)) ? Number(text) : new RawNumber(text);
    }
    case 'number': {
      const text = numberText(value);
      if (text === undefined) return mismatch(faults, placeAt(up, key), value, type);
      return Number(text);
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : mismatch(faults, placeAt(up, key), value, type);
    case 'any':
      // Kept as raw JSON, copied so that the input stays untouched.
      return copyRawJson(value);
    case 'string':
      if (typeof value !== 'string') return mismatch(faults, placeAt(up, key), value, type);
      if (type.type === 'cal.Date' && value !== '' && value !== '0000-00-00' && !validDate(value)) {
        return fail(faults, placeAt(up, key), `invalid date '${value}': expected YYYY-MM-DD`);
      }
      if (type.type === 'cal.Time' && value !== '' && !TIME.test(value)) {
        return fail(faults, placeAt(up, key), `invalid time '${value}': expected HH:MM:SS`);
      }
      return value;
    default:
      return value;
  }
}

// ---- The migrations GOBL's UnmarshalJSON methods apply, each on its own already-prepared node.

// The invoice's migration also sets `$regime`; every other one only moves legacy fields, so a
// node without them has nothing to migrate.
const ALWAYS_MIGRATED = new Set(['bill.Invoice']);

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
  // A node made here, from conformed parts: conformed itself like every prepared node.
  pmt.methods = [conform(record, 'pay.Record', { fillRequired: false })];
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
