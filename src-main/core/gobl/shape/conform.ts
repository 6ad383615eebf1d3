// What GOBL's Go structs make of a JSON tree when it is unmarshalled and marshalled again:
// fields in struct order, unknown fields gone, map keys sorted, and Go's `omitempty`.
//
// Go facts this relies on (checked against GOBL's struct tags and its example outputs):
// * a field without `omitempty` is exactly a schema `required` field; it is always written,
//   as its zero value when absent (`""`, `0`, `"0"`, `null`…);
// * `omitempty` leaves out "" strings, 0 integers, false booleans, empty lists and empty maps,
//   but never a struct: a present object is written even when empty (`"tax": {}`), and so
//   are dates and times (`cal.*` are structs) and amounts (`num.Amount` is a struct, and every
//   optional amount is a pointer);
// * the only float fields (`lat`, `lon`) are pointers, so a present 0 is written;
// * maps (`tax.Extensions`, `cbc.Meta`, `i18n.String`…) are written with sorted keys, and
//   an empty map is left out (Extensions and Meta marshal empty as null).
import { RawNumber } from './raw-number.ts';
import { concreteType, DYNAMIC_OBJECT, fieldTypeOf, isObject, schemaDef, typeInfo, type FieldType } from './schemas.ts';

type Json = Record<string, unknown>;

export interface ConformOptions {
  /**
   * Write absent required fields as Go's zero values (`""`, `"0"`, `null`…), as a marshalled
   * struct would. On by default; input preparation turns it off so that "absent" stays
   * visible to the defaults of the calculation (issue date, type…).
   */
  fillRequired?: boolean;
  /**
   * The tree is the caller's own and is not used again: a node already in GOBL's form (fields
   * in order, nothing to leave out or fill in, children in form too) is returned as it is
   * instead of copied, so the result shares those nodes with `node`. Nothing is mutated either
   * way. A build's final conform finds most nodes in form already, since input preparation
   * wrote them so.
   */
  keepFormed?: boolean;
}

// How a conform runs (see ConformOptions).
interface Mode {
  fill: boolean;
  keep: boolean;
}

/** `node` as GOBL would marshal it when it is of GOBL type `typeName` (a `$defs` name). Never mutates `node`. */
export function conform<T = Json>(node: T, typeName: string, options: ConformOptions = {}): T {
  const mode: Mode = { fill: options.fillRequired ?? true, keep: options.keepFormed ?? false };
  return conformValue(node, fieldTypeOf(typeName), true, mode) as T;
}

/** Sorts strings as Go sorts map keys: by UTF-8 bytes (= code points, not UTF-16 units). */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}

function conformValue(value: unknown, type: FieldType, isRoot: boolean, mode: Mode): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case 'object':
      return isObject(value) ? conformStruct(value, type.type, isRoot, mode) : value;
    case 'array':
      return Array.isArray(value) ? conformList(value, type.of, mode) : value;
    case 'map':
      return isObject(value) ? conformMap(value, type.of, mode) : value;
    default:
      return conformScalar(value);
  }
}

function conformList(list: unknown[], of: FieldType, mode: Mode): unknown[] {
  if (!mode.keep) return list.map((item) => conformValue(item, of, false, mode));
  // The list itself, unless an item changes (then a copy from that item on).
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = conformValue(list[i], of, false, mode);
    if (item !== list[i] && out === undefined) out = list.slice(0, i);
    if (out !== undefined) out[i] = item;
  }
  return out ?? list;
}

function conformScalar(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(conformScalar);
  if (isObject(value) && !(value instanceof RawNumber)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) out[k] = conformScalar(v);
    return out;
  }
  return value;
}

function conformMap(value: Json, of: FieldType, mode: Mode): Json {
  const out: Json = {};
  const keys = Object.keys(value);
  let same = mode.keep;
  for (let i = 0; i < keys.length; i++) {
    const item = value[keys[i]];
    if (item === undefined || (i > 0 && compareGoStrings(keys[i - 1], keys[i]) > 0)) same = false;
  }
  for (const key of same ? keys : keys.sort(compareGoStrings)) {
    if (value[key] === undefined) continue;
    out[key] = conformValue(value[key], of, false, mode);
    if (out[key] !== value[key]) same = false;
  }
  return same ? value : out;
}

/** What Go's `omitempty` counts as empty for a field, from its type. */
type Emptiness = 'never' | 'list' | 'map' | 'string' | 'integer' | 'boolean';

export interface FieldPlan { name: string; type: FieldType; required: boolean; index: number; empty: Emptiness }

// Structs are never empty (a present object is written even when empty), and neither are
// dates and times (`cal.*` are structs) or amounts (structs, and pointers when optional).
function emptinessOf(type: FieldType): Emptiness {
  switch (type.kind) {
    case 'array':
      return 'list';
    case 'map':
      return 'map';
    case 'object':
      return 'never';
    default:
      if (type.type?.startsWith('cal.')) return 'never';
      return type.scalar === 'string' || type.scalar === 'integer' || type.scalar === 'boolean' ? type.scalar : 'never';
  }
}

export interface StructPlan {
  fields: FieldPlan[];
  byName: Map<string, FieldPlan>;
  required: FieldPlan[];
}

// Each struct type's fields with their types and whether Go always writes them, worked out once:
// conform runs over every node of every document built.
const plans = new Map<string, StructPlan>();

function planOf(typeName: string, fields: readonly string[], field: (name: string) => FieldType | undefined): StructPlan {
  let plan = plans.get(typeName);
  if (!plan) {
    const required = new Set<string>((schemaDef(typeName)?.required as string[] | undefined) ?? []);
    const list = fields.map((name, index): FieldPlan => {
      const type = field(name)!;
      return { name, type, required: required.has(name), index, empty: emptinessOf(type) };
    });
    plan = { fields: list, byName: new Map(list.map((f) => [f.name, f])), required: list.filter((f) => f.required) };
    plans.set(typeName, plan);
  }
  return plan;
}

/** The plan of a struct type (its `$defs` name): fields in Go order, their types, which are required. */
export function structPlan(typeName: string): StructPlan {
  const info = typeInfo(typeName)!;
  return planOf(typeName, info.fields, info.field);
}

/**
 * The plan entries to write for `value`, in field order. A GOBL object usually sets a handful of
 * its type's many fields (a party has twenty), so a sparse object is read by its own keys.
 */
function fieldsToWrite(value: Json, plan: StructPlan, fill: boolean): readonly FieldPlan[] {
  const keys = Object.keys(value);
  if (keys.length * 3 >= plan.fields.length) return plan.fields;
  const chosen: FieldPlan[] = [];
  for (const key of keys) {
    const entry = plan.byName.get(key);
    if (entry && !entry.required) chosen.push(entry);
  }
  for (const entry of plan.required) if (fill || value[entry.name] !== undefined) chosen.push(entry);
  return sortByIndex(chosen);
}

// An insertion sort: a few entries, mostly in order already, where Array#sort would allocate
// work space on every call (it was a tenth of all the memory a build allocated).
function sortByIndex(entries: FieldPlan[]): FieldPlan[] {
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i];
    let j = i - 1;
    while (j >= 0 && entries[j].index > entry.index) {
      entries[j + 1] = entries[j];
      j--;
    }
    entries[j + 1] = entry;
  }
  return entries;
}

function conformStruct(value: Json, declared: string, isRoot: boolean, mode: Mode): Json {
  const typeName = concreteType(value, declared);
  // A `$schema` GOBL does not know (a complement from another project) is kept as raw JSON.
  if (typeName === DYNAMIC_OBJECT) return conformScalar(value) as Json;
  const info = typeInfo(typeName);
  if (!info) return conformScalar(value) as Json;
  if (info.shape === 'map') return conformMap(value, info.mapOf!, mode);
  // A document's `$schema` is written first by GOBL's schema.Object wrapper; nested
  // structs have no such field and lose it like any unknown field.
  const keepsSchema = isRoot || declared === DYNAMIC_OBJECT;
  const plan = planOf(typeName, info.fields, info.field);
  if (mode.keep && isFormed(value, plan, keepsSchema, mode.fill)) return keepFormed(value, plan, mode);
  return writeStruct(value, plan, keepsSchema, mode, true);
}

/**
 * Whether writeStruct would write exactly the keys `value` has, in the same order: each is a
 * field Go writes (or a document's leading `$schema`), in field order, with nothing to fill in.
 */
function isFormed(value: Json, plan: StructPlan, keepsSchema: boolean, fill: boolean): boolean {
  let last = -1;
  let required = 0;
  for (const key in value) {
    if (key === '$schema' && keepsSchema && !plan.byName.has('$schema')) {
      if (last !== -1 || typeof value.$schema !== 'string') return false;
      continue;
    }
    const field = plan.byName.get(key);
    if (field === undefined || field.index <= last || !isWritten(value[key], field)) return false;
    last = field.index;
    if (field.required) required++;
  }
  return !fill || required === plan.required.length;
}

/** A formed node with its children conformed: itself when they all are already, else a copy. */
function keepFormed(value: Json, plan: StructPlan, mode: Mode): Json {
  let out: Json | undefined;
  for (const key in value) {
    const v = value[key];
    const field = plan.byName.get(key);
    const conformed = field === undefined ? v : conformValue(v, field.type, false, mode);
    if (conformed !== v && out === undefined) {
      out = {};
      for (const before in value) {
        if (before === key) break;
        out[before] = value[before];
      }
    }
    if (out !== undefined) out[key] = conformed;
  }
  return out ?? value;
}

/**
 * A struct node of type `typeName` whose field values are already conformed (input
 * preparation conforms each node as it builds it, children first): fields put in struct
 * order, unknown ones dropped, omitempty applied, absent required fields left absent.
 * `keepsSchema` as for a document root or an envelope's `doc`.
 */
export function conformStructFields(value: Json, typeName: string, keepsSchema: boolean): Json {
  return writeStruct(value, structPlan(typeName), keepsSchema, PREPARED, false);
}

/**
 * The same from the field values in plan order (`slots[i]` holds field i, undefined when
 * absent), with the document `$schema` to write first, if any.
 */
export function conformSlots(slots: readonly unknown[], plan: StructPlan, schema: string | undefined): Json {
  const out: Json = {};
  if (schema !== undefined && !plan.byName.has('$schema')) out.$schema = schema;
  const fields = plan.fields;
  for (let i = 0; i < fields.length; i++) {
    const v = slots[i];
    if (isWritten(v, fields[i])) out[fields[i].name] = v;
  }
  return out;
}

/**
 * A map node whose values are already conformed: keys in Go's sorted order, undefined values
 * left out. `value` itself when it is so already (a map made for the caller, as input
 * preparation makes them, and mostly in order since GOBL wrote it).
 */
export function conformMapKeys(value: Json): Json {
  const keys = Object.keys(value);
  // (A `__proto__` key set the prototype of the map it was written to: that one is copied.)
  let same = Object.getPrototypeOf(value) === Object.prototype;
  for (let i = 0; i < keys.length && same; i++) {
    if (value[keys[i]] === undefined || (i > 0 && compareGoStrings(keys[i - 1], keys[i]) > 0)) same = false;
  }
  if (same) return value;
  const out: Json = {};
  for (const key of keys.sort(compareGoStrings)) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out;
}

/** A deep copy of raw JSON (a value GOBL keeps as it is, such as an unknown complement). */
export function copyRawJson(value: unknown): unknown {
  return conformScalar(value);
}

// The one place that decides which fields Go writes: `deep` conforms each value on the way,
// otherwise the values are taken as they are.
// Prepared input: conformed node by node, absent required fields left absent.
const PREPARED: Mode = { fill: false, keep: false };

function writeStruct(value: Json, plan: StructPlan, keepsSchema: boolean, mode: Mode, deep: boolean): Json {
  const out: Json = {};
  if (keepsSchema && !plan.byName.has('$schema') && typeof value.$schema === 'string') {
    out.$schema = value.$schema;
  }
  for (const field of fieldsToWrite(value, plan, mode.fill)) {
    const v = value[field.name];
    if (isWritten(v, field)) out[field.name] = deep ? conformValue(v, field.type, false, mode) : v;
    else if (mode.fill && field.required) out[field.name] = zeroValue(field.type);
  }
  return out;
}

/** Whether Go writes a field holding `v` (undefined when the node does not have it). */
function isWritten(v: unknown, field: FieldPlan): boolean {
  // A null scalar leaves a Go value field at its zero value, like an absent one.
  if (v === undefined || (v === null && field.type.kind === 'scalar')) return false;
  return field.required || !isOmittedEmpty(v, field.empty);
}

/** Whether Go's `omitempty` leaves this present value out. */
function isOmittedEmpty(value: unknown, empty: Emptiness): boolean {
  if (value === null) return true;
  switch (empty) {
    case 'never':
      return false;
    case 'list':
      return Array.isArray(value) && value.length === 0;
    case 'map':
      return isObject(value) && Object.values(value).every((v) => v === undefined);
    case 'string':
      return value === '';
    case 'integer':
      return value === 0 || (value instanceof RawNumber && Number(value.text) === 0);
    case 'boolean':
      return value === false;
  }
}

/** What Go writes for a required field the tree does not have. */
function zeroValue(type: FieldType): unknown {
  if (type.kind !== 'scalar') return null;
  if (type.type === 'cal.Date') return '0000-00-00';
  switch (type.scalar) {
    case 'amount':
      return '0';
    case 'percentage':
      return '0%';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'string':
      return '';
    default:
      return null;
  }
}
