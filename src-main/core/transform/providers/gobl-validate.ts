import { z } from 'zod';
import { checkInvoiceArithmetic } from '../../gobl/arithmetic/index.ts';
import { INVOICE_SCHEMA, validateEnvelope } from '../../gobl/index.ts';
import type { Fault } from '../../gobl/index.ts';
import { defineProvider } from '../provider.ts';
import type { StepResult } from '../provider.ts';

const config = z
  .object({
    /** recompute invoice figures as well as checking the document's shape */
    arithmetic: z.boolean().default(true),
  })
  .strict();

export const goblValidate = defineProvider({
  id: 'gobl.validate',
  description:
    'Checks the entry against the GOBL schemas and, for invoices, recomputes line sums, discounts, charges, '
    + 'tax bases and amounts and the totals with GOBL\'s rounding rules; KO with every fault found.',
  config,
  run(ctx, options): StepResult {
    const { envelope } = ctx.entry();
    const faults: Fault[] = validateEnvelope(envelope);
    const doc = envelope.doc as Record<string, unknown> | undefined;
    if (options.arithmetic && doc?.$schema === INVOICE_SCHEMA) faults.push(...checkInvoiceArithmetic(doc));
    if (faults.length === 0) return { status: 'OK', code: 'valid', message: 'no faults' };
    const [first] = faults;
    const count = faults.length === 1 ? '1 fault' : `${faults.length} faults`;
    return { status: 'KO', code: 'invalid', message: `${count}; first at ${first.path}: ${first.message}`, faults };
  },
});
