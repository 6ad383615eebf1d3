import { expect, it } from 'vitest';
import { areRulesPrepared } from '../../../src-main/core/gobl/validate/rules/index.ts';
import { ENVELOPE_SCHEMA, isVerdictPrepared } from '../../../src-main/core/gobl/validate/schema.ts';
import { buildDocument } from '../../../src-main/core/gobl/engine/index.ts';
import { WARM_UP_SAMPLE, warmUpGobl } from '../../../src-main/core/gobl/warm-up.ts';

it('compiles the rule sets and the envelope and invoice verdicts ahead, a step per turn of the loop', async () => {
  const invoice = 'https://gobl.org/draft-0/bill/invoice';
  expect([areRulesPrepared(), isVerdictPrepared(ENVELOPE_SCHEMA), isVerdictPrepared(invoice)]).toEqual([false, false, false]);
  // Other work gets turns while it runs: it never holds the loop for all of its steps at once.
  let turns = 0;
  let warming = true;
  const tick = () => {
    if (!warming) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await warmUpGobl();
  warming = false;
  expect(turns).toBeGreaterThanOrEqual(5);
  expect([areRulesPrepared(), isVerdictPrepared(ENVELOPE_SCHEMA), isVerdictPrepared(invoice)]).toEqual([true, true, true]);
});

it('warms up with an invoice that builds without a fault (a faulty one would compile Ajv on the loop)', () => {
  expect(buildDocument(structuredClone(WARM_UP_SAMPLE)).faults).toEqual([]);
});
