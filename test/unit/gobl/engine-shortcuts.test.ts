// The engine's fast paths must never answer differently from the slow, authoritative ones they
// stand in front of: the schema verdict from Ajv, the digest reuse from a fresh digest.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { checkDocument } from '../../../src-main/core/gobl/engine/index.ts';
import { schemaAnswers } from '../../../src-main/core/gobl/validate/schema.ts';

const OUT = fileURLToPath(new URL('../../fixtures/gobl/examples/out/', import.meta.url));
const docs = readdirSync(OUT).map((f) => JSON.parse(readFileSync(OUT + f, 'utf8')).doc);

type Path = Array<string | number>;

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

function setAt(root: any, path: Path, value: unknown): any {
  if (path.length === 0) return value;
  let node = root;
  for (const p of path.slice(0, -1)) node = node[p];
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return root;
}

const replacements = fc.oneof(
  fc.constant(undefined), fc.constant(null), fc.constant(''), fc.constant('x'), fc.constant(-1), fc.constant(1.5),
  fc.constant(true), fc.constant([]), fc.constant({}), fc.constant('2024-13-45'), fc.constant('not-a-uuid'),
  fc.string(), fc.integer(),
);

describe('the schema verdict shortcut', () => {
  it('agrees with Ajv on every GOBL example output', () => {
    for (const doc of docs) {
      const { verdict, ajv } = schemaAnswers(doc.$schema, doc);
      expect(ajv).toBe(true);
      expect(verdict).toBe(true);
    }
  });

  it('never calls valid what Ajv calls invalid, over randomly damaged documents', () => {
    fc.assert(
      fc.property(fc.nat(docs.length - 1), fc.nat(), replacements, (which, pick, value) => {
        const doc = structuredClone(docs[which]);
        const all = paths(doc).filter((p) => p.length > 0);
        const damaged = setAt(doc, all[pick % all.length], value);
        const { verdict, ajv } = schemaAnswers(docs[which].$schema, damaged);
        if (ajv === false) expect(verdict).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('digest reuse', () => {
  it('still reports a stale head.dig on an envelope whose document changed', () => {
    const envelope = JSON.parse(readFileSync(`${OUT}es-invoice-es-es.json`, 'utf8'));
    expect(checkDocument(envelope)).toEqual([]);
    envelope.doc.notes = [{ text: 'added after the digest' }];
    // GOBL's own rule for it: the envelope's digest does not match its document.
    expect(checkDocument(envelope).map((f) => f.code)).toContain('GOBL-ENVELOPE-11');
    envelope.head.dig = digestOf(envelope.doc);
    expect(checkDocument(envelope).map((f) => f.code)).not.toContain('GOBL-ENVELOPE-11');
  });
});
