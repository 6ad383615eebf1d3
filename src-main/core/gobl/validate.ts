import type { z } from 'zod';
import { docTypeOf } from './doc-types.ts';
import type { Fault } from './fault.ts';
import { jsonPath } from './json-path.ts';
import { docSchemaByUri, envelope as envelopeSchema } from './schemas/index.ts';

export { docTypeOf };

/** The document `$schema` URIs whose contents are validated; others are stored with only the envelope checked. */
export const knownDocSchemas: readonly string[] = [...docSchemaByUri.keys()];

// A document broken everywhere would otherwise produce one fault per field;
// past this many the first ones are enough to act on.
const MAX_FAULTS = 100;

type Issue = z.core.$ZodIssue;

/**
 * Checks a GOBL envelope: its own shape (head, dig, sigs, doc.$schema), then
 * the document against the schema its `$schema` names, when Silodesk knows it.
 * Returns no faults when the envelope is valid.
 */
export function validateEnvelope(envelope: unknown): Fault[] {
  const faults: Fault[] = [];
  const outer = envelopeSchema.safeParse(envelope);
  if (!outer.success) addFaults(outer.error.issues, envelope, [], faults);

  const doc = isRecord(envelope) ? envelope.doc : undefined;
  const schema = isRecord(doc) && typeof doc.$schema === 'string' ? docSchemaByUri.get(doc.$schema) : undefined;
  if (schema) {
    const inner = schema.safeParse(doc);
    if (!inner.success) addFaults(inner.error.issues, doc, ['doc'], faults);
  }

  if (faults.length > MAX_FAULTS) {
    const omitted = faults.length - MAX_FAULTS;
    faults.length = MAX_FAULTS;
    faults.push({ code: 'too-many-faults', message: `${omitted} more faults not shown`, provider: 'silo', path: '$' });
  }
  return faults;
}

// One fault per path: the first check that fails says what to fix (an empty
// code is "too short"; that it also does not match the pattern adds nothing).
function addFaults(issues: readonly Issue[], root: unknown, prefix: readonly PropertyKey[], faults: Fault[]): void {
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = jsonPath([...prefix, ...issue.path]);
    if (seen.has(path)) continue;
    seen.add(path);
    const value = valueAt(root, issue.path);
    faults.push({ code: faultCode(issue, value), message: faultMessage(issue, value), provider: 'silo', path });
  }
}

function faultCode(issue: Issue, value: unknown): string {
  if (isMissingMember(issue, value)) return 'required';
  switch (issue.code) {
    case 'invalid_type':
      return 'invalid-type';
    case 'invalid_format':
      return 'invalid-format';
    case 'invalid_value':
    case 'not_multiple_of':
      return 'invalid-value';
    case 'invalid_key':
      return 'invalid-key';
    case 'too_small':
      return issue.origin === 'string' ? 'too-short' : 'too-small';
    case 'too_big':
      return issue.origin === 'string' ? 'too-long' : 'too-big';
    case 'custom':
      return typeof issue.params?.code === 'string' ? issue.params.code : 'invalid-value';
    default:
      return 'invalid';
  }
}

function faultMessage(issue: Issue, value: unknown): string {
  if (isMissingMember(issue, value)) return 'is required';
  if (issue.code === 'invalid_key') {
    const detail = issue.issues[0]?.message ?? 'is not a valid key';
    return `key ${JSON.stringify(String(issue.path.at(-1)))}: ${detail}`;
  }
  return issue.message;
}

// Null counts as absent: canonical JSON (and so the digest) drops null members.
// A null array element, or the root itself, is a wrong type rather than a gap.
function isMissingMember(issue: Issue, value: unknown): boolean {
  const last = issue.path.at(-1);
  return (value === undefined || value === null) && last !== undefined && typeof last !== 'number';
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
