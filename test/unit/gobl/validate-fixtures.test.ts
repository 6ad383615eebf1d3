// Every envelope GOBL itself built must pass our validation untouched: the committed fixtures and
// example outputs (GOBL_EXAMPLES_DIR points at a larger examples folder, with `out/` inside).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../../src-main/core/gobl/validate/index.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const EXAMPLES_OUT = process.env.GOBL_EXAMPLES_DIR
  ? `${process.env.GOBL_EXAMPLES_DIR.replace(/\/$/, '')}/out/`
  : fileURLToPath(new URL('../../fixtures/gobl/examples/out/', import.meta.url));

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

  it('the documents inside them validate as bare documents too', () => {
    const failing = loadEnvelopes()
      .map(({ file, envelope }) => [file, validateDocument(envelope.doc)] as const)
      .filter(([, faults]) => faults.length > 0);
    expect(failing).toEqual([]);
  });
});
