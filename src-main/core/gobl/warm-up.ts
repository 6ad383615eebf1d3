import { setImmediate as nextTurn } from 'node:timers/promises';
import { prepareRules } from './validate/rules/index.ts';
import { ENVELOPE_SCHEMA, isKnownSchema, prepareVerdict } from './validate/schema.ts';

/** The document most documents are: its schema's verdict is compiled ahead too. */
const INVOICE_SCHEMA = 'https://gobl.org/draft-0/bill/invoice';

/**
 * GOBL's schemas and rule sets are read and compiled on first use: 30–50 ms at once
 * on the first document a started service takes (a push, an import, a PUT), holding
 * every other request up as long. A started service does it beforehand, a step at a
 * time (each 1–16 ms), letting other work in between.
 */
const STEPS: ReadonlyArray<() => void> = [
  () => isKnownSchema(ENVELOPE_SCHEMA),
  prepareRules,
  () => prepareVerdict(ENVELOPE_SCHEMA),
  () => prepareVerdict(INVOICE_SCHEMA),
];

export async function warmUpGobl(): Promise<void> {
  for (const step of STEPS) {
    await nextTurn();
    step();
  }
}
