// The GOBL (Go) type of every value, from the JSON Schemas through shape/schemas.ts, plus the
// few Go types the schemas do not name: `$schema` is a schema.ID, `format: uuid` strings are
// uuid.UUID, map keys are cbc.Key (i18n.Lang for i18n.String), and tax.Addons (embedded in
// documents, holding `$addons`) is a struct of its own.
import { fieldTypeOf, schemaDef, typeInfo } from '../../shape/schemas.ts';
import type { FieldType } from '../../shape/schemas.ts';

export type { FieldType };

export interface FieldInfo {
  name: string;
  type: FieldType;
  /** A non-pointer Go field: absent means its zero value (the schema lists it as required). */
  zero: boolean;
}

const SCHEMA_ID: FieldType = { kind: 'scalar', scalar: 'string', type: 'schema.ID' };
const UUID: FieldType = { kind: 'scalar', scalar: 'string', type: 'uuid.UUID' };
const ANY: FieldType = { kind: 'scalar', scalar: 'any' };

const fieldCache = new Map<string, Map<string, FieldInfo> | null>();

/** The fields of a struct type, by JSON name, or undefined for non-struct types. */
export function structFields(typeName: string): Map<string, FieldInfo> | undefined {
  let known = fieldCache.get(typeName);
  if (known !== undefined) return known ?? undefined;
  const info = typeInfo(typeName);
  if (!info || info.shape !== 'struct') {
    fieldCache.set(typeName, null);
    return undefined;
  }
  const def = schemaDef(typeName) ?? {};
  const required = new Set<string>(Array.isArray(def.required) ? def.required : []);
  const props = (def.properties ?? {}) as Record<string, Record<string, any>>;
  known = new Map();
  for (const name of info.fields) {
    let type = info.field(name) ?? ANY;
    if (name === '$schema') type = SCHEMA_ID;
    else if (props[name]?.format === 'uuid') type = UUID;
    known.set(name, { name, type, zero: required.has(name) });
  }
  fieldCache.set(typeName, known);
  return known;
}

/** The type a rules file's `object` names, when used as the root of a set. */
export function typeByName(name: string): FieldType {
  switch (name) {
    case 'schema.ID':
      return SCHEMA_ID;
    case 'uuid.UUID':
      return UUID;
    case 'tax.Addons':
      return { kind: 'object', type: 'tax.Addons' };
    case 'i18n.Lang':
      return { kind: 'scalar', scalar: 'string', type: 'i18n.Lang' };
    default:
      return fieldTypeOf(name);
  }
}

/** The field's type within a struct type (tax.Addons is the struct holding `$addons`). */
export function fieldOf(parent: FieldType | undefined, field: string): FieldInfo | undefined {
  if (!parent || parent.kind !== 'object') return undefined;
  if (parent.type === 'schema.Object') {
    // the wrapper around a document: its only field is `$schema` (the payload is embedded)
    return field === '$schema' ? { name: field, type: SCHEMA_ID, zero: true } : undefined;
  }
  if (parent.type === 'tax.Addons') {
    return field === '$addons' ? { name: field, type: fieldTypeOf('tax.AddonList'), zero: false } : undefined;
  }
  return structFields(parent.type)?.get(field);
}

/** The element type of a list type. */
export function elementOf(type: FieldType | undefined): FieldType | undefined {
  return type?.kind === 'array' ? type.of : undefined;
}

/** The Go type of a map's keys. */
const LANG_KEY: FieldType = { kind: 'scalar', scalar: 'string', type: 'i18n.Lang' };
const CBC_KEY: FieldType = { kind: 'scalar', scalar: 'string', type: 'cbc.Key' };

export function mapKeyType(map: FieldType): FieldType {
  return map.type === 'i18n.String' ? LANG_KEY : CBC_KEY;
}
