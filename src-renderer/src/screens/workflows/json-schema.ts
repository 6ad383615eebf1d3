/** The part of JSON Schema the config forms understand; anything else gets a JSON field. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export type Widget = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'strings' | 'object' | 'json';

const singleType = (schema: JsonSchema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.length === 1 ? schema.type[0] : undefined;
  return schema.type;
};

/** Which control edits a value of this schema. */
export function widgetFor(schema: JsonSchema): Widget {
  if (schema.anyOf || schema.oneOf) return 'json';
  if (schema.enum && schema.enum.length > 0 && schema.enum.every((v) => typeof v === 'string')) return 'enum';
  switch (singleType(schema)) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array':
      return schema.items && singleType(schema.items) === 'string' ? 'strings' : 'json';
    case 'object':
      return schema.properties && Object.keys(schema.properties).length > 0 ? 'object' : 'json';
    default:
      return 'json';
  }
}

/** "series_id" → "Series id": a label from a property name, when the schema has no title. */
export function labelFor(name: string, schema: JsonSchema): string {
  if (schema.title) return schema.title;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}
