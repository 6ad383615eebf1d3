import { z } from 'zod';
import { state } from '../../api/contract/common.ts';
import { defineProvider } from '../provider.ts';

export const siloState = defineProvider({
  id: 'silo.state',
  description: "Sets the entry's state label (draft, registered, sent, paid, …)",
  config: z.object({ state }).strict(),
  inline: true,
  run: async (ctx, config) =>
    (await ctx.entry()).state === config.state
      ? { status: 'SKIP', code: 'unchanged', message: `already ${config.state}` }
      : { status: 'OK', code: config.state, apply: () => ctx.updateEntry({ state: config.state }) },
});
