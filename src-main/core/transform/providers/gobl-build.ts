import { z } from 'zod';
import { faultOf } from '../../gobl/fault.ts';
import { buildFaulted } from '../../silo/admit.ts';
import { defineProvider } from '../provider.ts';

/**
 * Builds the entry's document as GOBL does (normalise, calculate, validate) and
 * stores the result: a document whose figures were edited by hand, or partial data
 * from another step, comes out complete and consistent. A signed envelope is sealed.
 */
export const goblBuild = defineProvider({
  id: 'gobl.build',
  description: "Builds the entry's document with GOBL (normalise, calculate, validate) and stores it; KO with the faults when GOBL cannot",
  config: z.object({}).strict(),
  inline: true,
  engineBound: true,
  async run(ctx) {
    const entry = await ctx.entry();
    if (entry.signed) return { status: 'SKIP', code: 'signed', message: 'the envelope is signed; its document cannot be rebuilt' };
    const { built, faults } = await buildFaulted(entry.envelope, { headUuid: ctx.job.silo_entry_id });
    if (!built || faults.length > 0) {
      const count = faults.length === 1 ? '1 fault' : `${faults.length} faults`;
      return {
        status: 'KO',
        code: built ? 'invalid' : 'build-failed',
        message: `GOBL cannot build the document (${count}; first: ${faults[0]?.message ?? 'unknown'})`,
        faults: faults.map((f) => faultOf(f, 'gobl.build')),
      };
    }
    if (built.head.dig?.val === entry.envelope.head.dig?.val) {
      return { status: 'OK', code: 'unchanged', message: 'the document is already as GOBL builds it' };
    }
    return { status: 'OK', code: 'built', message: 'built and stored', apply: () => ctx.updateEntry({ envelope: built }) };
  },
});
