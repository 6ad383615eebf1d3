// Every envelope GOBL itself built must pass our validation untouched: the committed
// fixtures and example outputs, and locally the whole example corpus when it is present.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../../src-main/core/gobl/validate/index.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const EXAMPLES_OUT = fileURLToPath(new URL('../../fixtures/gobl/examples/out/', import.meta.url));
// The full corpus of GOBL examples, kept outside the repository on development machines.
const LOCAL_CORPUS = '/tmp/gobl-all/out/';

function jsonFiles(dir: string): Array<[string, any]> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(dir + f, 'utf8'))]);
}

describe('GOBL-built envelopes validate without faults', () => {
  it.each(loadEnvelopes().map((f) => [f.file, f.envelope] as const))('fixture %s', (_file, envelope) => {
    expect(validateDocument(envelope)).toEqual([]);
  });

  it.each(jsonFiles(EXAMPLES_OUT))('example %s', (_file, envelope) => {
    expect(validateDocument(envelope)).toEqual([]);
  });

  it('every example of the local corpus, when present', () => {
    const files = existsSync(LOCAL_CORPUS) ? jsonFiles(LOCAL_CORPUS) : [];
    const failing = files.map(([file, env]) => [file, validateDocument(env)] as const).filter(([, faults]) => faults.length > 0);
    expect(failing).toEqual([]);
  });

  it('the documents inside them validate as bare documents too', () => {
    const failing = loadEnvelopes()
      .map(({ file, envelope }) => [file, validateDocument(envelope.doc)] as const)
      .filter(([, faults]) => faults.length > 0);
    expect(failing).toEqual([]);
  });
});
