import { z } from 'zod';
import { faultOf } from '../../gobl/fault.ts';
import { defineProvider } from '../provider.ts';
import { documentCheck } from './checked-document.ts';
import type { StepResult } from '../provider.ts';

const config = z
  .object({
    /** check the figures too (every figure GOBL's build would calculate differently), not only schemas and rules */
    arithmetic: z.boolean().default(true),
  })
  .strict();

export const goblValidate = defineProvider({
  id: 'gobl.validate',
  description:
    "Checks the entry's document as GOBL does: its schema, GOBL's rules for its regime and addons, and every figure "
    + '(line sums, discounts, charges, taxes, totals) against what GOBL calculates; KO with every fault found.',
  config,
  inline: true,
  engineBound: true,
  async run(ctx, options): Promise<StepResult> {
    const { envelope } = await ctx.entry();
    const found = (await documentCheck(envelope)).filter((f) => options.arithmetic || f.code !== 'calculation');
    if (found.length === 0) return { status: 'OK', code: 'valid', message: 'no faults' };
    const faults = found.map((f) => faultOf(f, 'gobl.validate'));
    const [first] = faults;
    const count = faults.length === 1 ? '1 fault' : `${faults.length} faults`;
    return { status: 'KO', code: 'invalid', message: `${count}; first at ${first.paths[0] ?? '$'}: ${first.message}`, faults };
  },
});
