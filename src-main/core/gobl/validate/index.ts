// GOBL validation: the JSON Schemas, then GOBL's rule sets, as one list of faults.
import type { EngineFault, Node } from '../engine/types.ts';
import { ruleFaults } from './rules/index.ts';
import { ENVELOPE_SCHEMA, schemaFaults } from './schema.ts';

export { ENVELOPE_SCHEMA, SCHEMA_FAULT, UNKNOWN_SCHEMA_FAULT, isKnownSchema, schemaFaults } from './schema.ts';
export { ruleFaults } from './rules/index.ts';

/** A document broken everywhere would give one fault per field; the first ones are enough to act on. */
export const MAX_FAULTS = 100;
export const TOO_MANY_FAULTS = 'too-many-faults';

export interface ValidateOptions {
  /**
   * The caller computed `head.dig` from this document just now (a build did), so checking
   * the digest again (a canonicalisation and a SHA-256, a third of rule checking) is skipped.
   */
  trustDigest?: boolean;
  /**
   * Where a bare document sits, for its fault paths: `$.doc` reports `$.doc.supplier.name`
   * as if it were in an envelope (without the envelope's own header and digest checks).
   */
  docPath?: string;
  /**
   * The digest of the envelope's document, when the caller has computed it already (it
   * rebuilt a document equal to it): `head.dig` is compared with it instead of a new one.
   */
  docDigest?: { alg: string; val: string };
}

/**
 * Every fault of an envelope (paths from its root: `$.doc.supplier.name`) or of a bare
 * document (`$.supplier.name`): schema faults first, then rule faults. Rule faults sharing a
 * code and message are one fault with several paths, as GOBL reports them. At most
 * MAX_FAULTS, then one `too-many-faults` fault.
 */
export function validateDocument(envelopeOrDoc: Node, options: ValidateOptions = {}): EngineFault[] {
  if (envelopeOrDoc === null || typeof envelopeOrDoc !== 'object' || Array.isArray(envelopeOrDoc)) {
    return [{ code: 'schema', message: 'a document must be a JSON object', paths: ['$'] }];
  }
  const faults = schemaFaults(envelopeOrDoc);
  const rules = ruleFaults(envelopeOrDoc, envelopeOrDoc.$schema === ENVELOPE_SCHEMA, options.trustDigest === true, options.docDigest);
  if (rules.length) {
    const byKey = new Map<string, EngineFault>();
    const seen = new Set(faults.map((f) => `${f.code}\u0000${f.paths[0]}`));
    for (const r of rules) {
      if (seen.has(`${r.code}\u0000${r.path}`)) continue;
      seen.add(`${r.code}\u0000${r.path}`);
      const key = `${r.code}\u0000${r.message}`;
      const merged = byKey.get(key);
      if (merged) merged.paths.push(r.path);
      else {
        const fault: EngineFault = { code: r.code, message: r.message, paths: [r.path] };
        byKey.set(key, fault);
        faults.push(fault);
      }
    }
  }
  const docPath = options.docPath;
  if (docPath && docPath !== '$' && envelopeOrDoc.$schema !== ENVELOPE_SCHEMA) {
    for (const f of faults) f.paths = f.paths.map((p) => docPath + p.slice(1));
  }
  if (faults.length > MAX_FAULTS) {
    const omitted = faults.length - MAX_FAULTS;
    faults.length = MAX_FAULTS;
    faults.push({ code: TOO_MANY_FAULTS, message: `${omitted} more faults not shown`, paths: ['$'] });
  }
  return faults;
}
