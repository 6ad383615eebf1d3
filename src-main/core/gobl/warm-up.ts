import { buildDocument, examineDocument, type Node } from './engine/index.ts';
import { prepareRules } from './validate/rules/index.ts';
import { ENVELOPE_SCHEMA, isKnownSchema, prepareVerdict } from './validate/schema.ts';
import { letOthersIn } from '../let-others-in.ts';

/** The document most documents are: its schema's verdict is compiled ahead too. */
const INVOICE_SCHEMA = 'https://gobl.org/draft-0/bill/invoice';

/**
 * A small partial invoice, built and then examined once, so that the code a document
 * runs through is compiled too. It builds without a fault: a faulty one would send it
 * to Ajv, whose compile of the invoice schema alone holds the loop for about 100 ms.
 */
export const WARM_UP_SAMPLE = {
  $schema: INVOICE_SCHEMA,
  currency: 'EUR',
  issue_date: '2026-01-01',
  series: 'WARM',
  code: '1',
  supplier: { name: 'Supplier', tax_id: { country: 'ES', code: 'B98602642' } },
  customer: { name: 'Customer', tax_id: { country: 'ES', code: 'B85905495' } },
  lines: [{ quantity: '1', item: { name: 'Item', price: '10.00' }, taxes: [{ cat: 'VAT', rate: 'general' }] }],
};

/**
 * GOBL's schemas and rule sets are read and compiled on first use: 30–50 ms at once
 * on the first document a started service takes (a push, an import, a PUT), holding
 * every other request up as long. A started service does it beforehand, a step at a
 * time (each under 20 ms), letting other work in between.
 */
export async function warmUpGobl(): Promise<void> {
  let built: Node | undefined;
  const steps: Array<() => void> = [
    () => isKnownSchema(ENVELOPE_SCHEMA),
    prepareRules,
    () => prepareVerdict(ENVELOPE_SCHEMA),
    () => prepareVerdict(INVOICE_SCHEMA),
    () => (built = buildDocument(structuredClone(WARM_UP_SAMPLE)).envelope),
    () => built && examineDocument(built),
  ];
  for (const step of steps) {
    await letOthersIn();
    step();
  }
}
