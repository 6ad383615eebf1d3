// Reading loosely typed GOBL JSON: anything may be missing or of the wrong
// type (the shape check reports that); the arithmetic just works with what is there.
export type Json = Record<string, unknown>;

export function asRecord(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
