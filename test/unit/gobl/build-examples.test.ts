// GOBL's own examples are the measure of the engine: building each input must give GOBL's document,
// its digest, and — since the engine writes GOBL's field order — the same bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src-main/core/gobl/canonical.ts';
import { buildEnvelope } from '../../../src-main/core/gobl/engine/build.ts';
import { marshalGo } from '../../../src-main/core/gobl/shape/marshal.ts';
import { parseAsGoblYaml, parseJsonText } from '../../../src-main/core/gobl/shape/parse.ts';

const DIR = fileURLToPath(new URL('../../fixtures/gobl/examples/', import.meta.url));
const names = readdirSync(`${DIR}in`).filter((f) => f.endsWith('.json')).sort();

describe('building GOBL examples', () => {
  it('has the 69 example pairs', () => {
    expect(names.length).toBe(69);
  });

  // GOBL's examples force the head uuid; issue dates are given, so "now" only fills issue times.
  const build = (input: unknown, headUuid: string) => buildEnvelope(input, { headUuid, now: new Date('2026-01-01T12:00:00Z') }).envelope;

  it.each(names)('%s builds to GOBL\'s output', (name) => {
    const inputText = readFileSync(`${DIR}in/${name}`, 'utf8');
    const text = readFileSync(`${DIR}out/${name}`, 'utf8');
    const expected = JSON.parse(text);
    // As a JSON client sends it: the same document and digest.
    const envelope = build(parseJsonText(inputText), expected.head.uuid);
    expect(canonicalJson(envelope.doc)).toBe(canonicalJson(expected.doc));
    expect(envelope.head.dig).toEqual(expected.head.dig);
    // As GOBL's example runner reads it (through YAML: floats, sorted keys): the same bytes.
    expect(marshalGo(build(parseAsGoblYaml(inputText), expected.head.uuid))).toBe(text);
  });

  it('leaves its input untouched', () => {
    const text = readFileSync(`${DIR}in/es-invoice-es-es.json`, 'utf8');
    const input = parseJsonText(text);
    const before = JSON.stringify(input);
    buildEnvelope(input, { headUuid: '8a51fd30-2a27-11ee-be56-0242ac120002' });
    expect(JSON.stringify(input)).toBe(before);
  });
});
