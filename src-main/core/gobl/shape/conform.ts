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
}

/** `node` as GOBL would marshal it when it is of GOBL type `typeName` (a `$defs` name). Never mutates `node`. */
export function conform<T = Json>(node: T, typeName: string, options: ConformOptions = {}): T {
  const fill = options.fillRequired ?? true;
  return conformValue(node, fieldTypeOf(typeName), true, fill) as T;
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

function conformValue(value: unknown, type: FieldType, isRoot: boolean, fill: boolean): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case 'object':
      return isObject(value) ? conformStruct(value, type.type, isRoot, fill) : value;
    case 'array':
      return Array.isArray(value) ? value.map((item) => conformValue(item, type.of, false, fill)) : value;
    case 'map':
      return isObject(value) ? conformMap(value, type.of, fill) : value;
    default:
      return conformScalar(value);
  }
}

function conformScalar(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(conformScalar);
  if (isObject(value) && !(value instanceof RawNumber)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) out[k] = conformScalar(v);
    return out;
  }
  return value;
}

function conformMap(value: Json, of: FieldType, fill: boolean): Json {
  const out: Json = {};
  for (const key of Object.keys(value).sort(compareGoStrings)) {
    if (value[key] === undefined) continue;
    out[key] = conformValue(value[key], of, false, fill);
  }
  return out;
}

interface FieldPlan { name: string; type: FieldType; required: boolean; index: number }

interface StructPlan {
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
    const list = fields.map((name, index) => ({ name, type: field(name)!, required: required.has(name), index }));
    plan = { fields: list, byName: new Map(list.map((f) => [f.name, f])), required: list.filter((f) => f.required) };
    plans.set(typeName, plan);
  }
  return plan;
}

const byIndex = (a: FieldPlan, b: FieldPlan): number => a.index - b.index;

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
  if (fill) chosen.push(...plan.required);
  else for (const entry of plan.required) if (value[entry.name] !== undefined) chosen.push(entry);
  return chosen.sort(byIndex);
}

function conformStruct(value: Json, declared: string, isRoot: boolean, fill: boolean): Json {
  const typeName = concreteType(value, declared);
  // A `$schema` GOBL does not know (a complement from another project) is kept as raw JSON.
  if (typeName === DYNAMIC_OBJECT) return conformScalar(value) as Json;
  const info = typeInfo(typeName);
  if (!info) return conformScalar(value) as Json;
  if (info.shape === 'map') return conformMap(value, info.mapOf!, fill);
  const out: Json = {};
  // A document's `$schema` is written first by GOBL's schema.Object wrapper; nested
  // structs have no such field and lose it like any unknown field.
  const keepsSchema = isRoot || declared === DYNAMIC_OBJECT;
  const plan = planOf(typeName, info.fields, info.field);
  if (keepsSchema && !plan.byName.has('$schema') && typeof value.$schema === 'string') {
    out.$schema = value.$schema;
  }
  for (const { name, type, required } of fieldsToWrite(value, plan, fill)) {
    const v = value[name];
    // A null scalar leaves a Go value field at its zero value, like an absent one.
    const present = v !== undefined && !(v === null && type.kind === 'scalar');
    if (required) {
      if (present) out[name] = conformValue(v, type, false, fill);
      else if (fill) out[name] = zeroValue(type);
      continue;
    }
    if (!present || isOmittedEmpty(v, type)) continue;
    out[name] = conformValue(v, type, false, fill);
  }
  return out;
}

/** Whether Go's `omitempty` leaves this present value out. */
function isOmittedEmpty(value: unknown, type: FieldType): boolean {
  if (value === null) return true;
  switch (type.kind) {
    case 'array':
      return Array.isArray(value) && value.length === 0;
    case 'map':
      return isObject(value) && Object.values(value).every((v) => v === undefined);
    case 'object':
      return false;
    default:
      break;
  }
  if (type.type?.startsWith('cal.')) return false;
  switch (type.scalar) {
    case 'string':
      return value === '';
    case 'integer':
      return value === 0 || (value instanceof RawNumber && Number(value.text) === 0);
    case 'boolean':
      return value === false;
    default:
      return false;
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
