// GOBL's JSON Schemas (data/schemas/**) describe every Go type the engine works on: the
// property order of a `$defs` entry is the Go struct field order (the schemas are generated
// from the structs), so they give us field order, field types and which nodes are maps.
// Indexed lazily on first use and cached, because the walker runs for every build.
import { readdirSync } from 'node:fs';
import { readGoblData } from '../defs/index.ts';
import { goblDataDir } from '../defs/data-dir.ts';

export type ScalarKind = 'amount' | 'percentage' | 'string' | 'integer' | 'number' | 'boolean' | 'any';

export type FieldType =
  | { kind: 'object'; type: string }
  | { kind: 'array'; of: FieldType; type?: string }
  | { kind: 'map'; of: FieldType; type?: string }
  | { kind: 'scalar'; scalar: ScalarKind; type?: string };

export interface TypeInfo {
  /** The `$defs` name, e.g. `bill.Invoice`. */
  name: string;
  /** `struct` for objects with properties, `map` for patternProperties types (`tax.Extensions`). */
  shape: 'struct' | 'map';
  /** Field names in Go struct order (empty for maps). */
  fields: string[];
  field(name: string): FieldType | undefined;
  /** For maps: the type of every value. */
  mapOf?: FieldType;
}

/** The type of `envelope.doc`: resolved at run time from the node's own `$schema`. */
export const DYNAMIC_OBJECT = 'schema.Object';

type JsonSchema = Record<string, any>;

interface SchemaIndex {
  defs: Map<string, JsonSchema>;
  rootById: Map<string, string>;
}

let index: SchemaIndex | undefined;
const typeInfos = new Map<string, TypeInfo | null>();
const defTypes = new Map<string, FieldType>();

function listSchemaFiles(dir: string, prefix: string, out: string[]): void {
  for (const entry of readdirSync(dir + prefix, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) listSchemaFiles(dir, `${rel}/`, out);
    else if (entry.name.endsWith('.json')) out.push(rel);
  }
}

function schemaIndex(): SchemaIndex {
  if (index) return index;
  const defs = new Map<string, JsonSchema>();
  const rootById = new Map<string, string>();
  const files: string[] = [];
  listSchemaFiles(`${goblDataDir()}schemas/`, '', files);
  for (const file of files.sort()) {
    const schema = readGoblData<JsonSchema>(`schemas/${file}`);
    for (const [name, def] of Object.entries(schema.$defs ?? {})) defs.set(name, def as JsonSchema);
    const root = typeof schema.$ref === 'string' ? refName(schema.$ref, rootById) : undefined;
    if (schema.$id && root) rootById.set(schema.$id, root);
  }
  index = { defs, rootById };
  return index;
}

// `#/$defs/x.Y` names a def directly; an absolute `$id` names the root def of its file.
function refName(ref: string, rootById: Map<string, string>): string | undefined {
  const hash = ref.indexOf('#/$defs/');
  if (hash >= 0) return ref.slice(hash + 8);
  return rootById.get(ref);
}

/** `https://gobl.org/draft-0/bill/invoice` → `bill.Invoice`. A trailing slash or fragment is tolerated. */
export function rootTypeOf(schemaUri: string): string | undefined {
  const { rootById } = schemaIndex();
  const found = rootById.get(schemaUri);
  if (found) return found;
  const trimmed = schemaUri.replace(/#.*$/, '').replace(/\/+$/, '');
  return rootById.get(trimmed);
}

const NAMED_SCALARS: Record<string, ScalarKind> = {
  'num.Amount': 'amount',
  'num.Percentage': 'percentage',
};

function scalarOfType(type: unknown): ScalarKind {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'any';
  }
}

/** The field type a named def stands for when a property `$ref`s it. */
function typeOfDef(name: string): FieldType {
  let known = defTypes.get(name);
  if (known) return known;
  const def = schemaIndex().defs.get(name);
  if (!def) known = { kind: 'scalar', scalar: 'any', type: name };
  else if (name === DYNAMIC_OBJECT || def.properties) known = { kind: 'object', type: name };
  else if (def.patternProperties) known = { kind: 'map', of: mapValueType(def), type: name };
  else if (def.items) known = { kind: 'array', of: typeOfSchema(def.items), type: name };
  else known = { kind: 'scalar', scalar: NAMED_SCALARS[name] ?? scalarOfType(def.type ?? 'string'), type: name };
  defTypes.set(name, known);
  return known;
}

function mapValueType(def: JsonSchema): FieldType {
  const values = Object.values(def.patternProperties as Record<string, JsonSchema>);
  return values.length ? typeOfSchema(values[0]) : { kind: 'scalar', scalar: 'any' };
}

/** The field type of an inline (property or items) schema. */
function typeOfSchema(schema: JsonSchema): FieldType {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref, schemaIndex().rootById);
    return name ? typeOfDef(name) : { kind: 'scalar', scalar: 'any' };
  }
  if (schema.type === 'array') return { kind: 'array', of: schema.items ? typeOfSchema(schema.items) : { kind: 'scalar', scalar: 'any' } };
  if (schema.patternProperties) return { kind: 'map', of: mapValueType(schema) };
  // A property typed only through oneOf/anyOf alternatives: the first `$ref` alternative names it.
  for (const alt of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])] as JsonSchema[]) {
    if (alt && typeof alt.$ref === 'string') return typeOfSchema(alt);
  }
  if (schema.type === undefined && (schema.oneOf || schema.anyOf || schema.const !== undefined)) {
    return { kind: 'scalar', scalar: 'string' };
  }
  return { kind: 'scalar', scalar: scalarOfType(schema.type) };
}

function buildTypeInfo(name: string): TypeInfo | null {
  const def = schemaIndex().defs.get(name);
  if (!def) return null;
  if (def.patternProperties && !def.properties) {
    const mapOf = mapValueType(def);
    return { name, shape: 'map', fields: [], field: () => mapOf, mapOf };
  }
  if (!def.properties && name !== DYNAMIC_OBJECT) return null;
  const props = (def.properties ?? {}) as Record<string, JsonSchema>;
  const fieldTypes = new Map<string, FieldType>();
  for (const [field, schema] of Object.entries(props)) fieldTypes.set(field, typeOfSchema(schema));
  const fields = [...fieldTypes.keys()];
  return { name, shape: 'struct', fields, field: (f) => fieldTypes.get(f) };
}

/** The object type named `name` (a struct or a map type), or undefined for scalars and unknown names. */
export function typeInfo(name: string): TypeInfo | undefined {
  let info = typeInfos.get(name);
  if (info === undefined) {
    info = buildTypeInfo(name);
    typeInfos.set(name, info);
  }
  return info ?? undefined;
}

/** The field type a def name stands for (`tax.Set` → array of `tax.Combo`, `cbc.Code` → scalar). */
export function fieldTypeOf(name: string): FieldType {
  return typeOfDef(name);
}

/** Every `$defs` name known. */
export function typeNames(): string[] {
  return [...schemaIndex().defs.keys()];
}

/** The raw JSON Schema of a def, for callers that need more than shape (enums, patterns). */
export function schemaDef(name: string): Readonly<JsonSchema> | undefined {
  return schemaIndex().defs.get(name);
}

/**
 * The concrete type of an object node: `schema.Object` (an envelope's `doc`) takes the type
 * its own `$schema` names; every other type is itself.
 */
export function concreteType(node: unknown, typeName: string): string {
  if (typeName !== DYNAMIC_OBJECT) return typeName;
  const uri = isObject(node) ? node.$schema : undefined;
  return (typeof uri === 'string' && rootTypeOf(uri)) || typeName;
}

export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type TypedVisitor = (node: Record<string, any>, typeName: string, path: (string | number)[]) => void;

/**
 * Visits every object node under `node` (itself included) with its GOBL type: structs, maps
 * (`tax.Extensions`, `cbc.Meta`…) and list elements. `post` visits children before their
 * parent, as GOBL's normaliser does; `pre` visits the parent first and then descends into
 * whatever the visitor left in place. The path is relative to `node`.
 */
export function walkTyped(node: unknown, typeName: string, visit: TypedVisitor, order: 'pre' | 'post'): void {
  walkValue(node, typeOfRoot(typeName), visit, order, []);
}

function typeOfRoot(typeName: string): FieldType {
  return typeName === DYNAMIC_OBJECT ? { kind: 'object', type: typeName } : typeOfDef(typeName);
}

function walkValue(value: unknown, type: FieldType, visit: TypedVisitor, order: 'pre' | 'post', path: (string | number)[]): void {
  if (value === null || typeof value !== 'object') return;
  switch (type.kind) {
    case 'array':
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) walkValue(value[i], type.of, visit, order, [...path, i]);
      }
      return;
    case 'map':
      if (!isObject(value)) return;
      if (order === 'pre') visit(value, type.type ?? 'map', path);
      if (type.of.kind !== 'scalar') {
        for (const key of Object.keys(value)) walkValue(value[key], type.of, visit, order, [...path, key]);
      }
      if (order === 'post') visit(value, type.type ?? 'map', path);
      return;
    case 'object': {
      if (!isObject(value)) return;
      const name = concreteType(value, type.type);
      if (order === 'pre') visit(value, name, path);
      const info = typeInfo(name);
      if (info) {
        // Go's reflection walks struct fields in declaration order, which is schema order.
        for (const key of info.fields) {
          if (!(key in value)) continue;
          const field = info.field(key)!;
          if (field.kind !== 'scalar') walkValue(value[key], field, visit, order, [...path, key]);
        }
      }
      if (order === 'post') visit(value, name, path);
      return;
    }
    default:
      return;
  }
}
