import { z } from 'zod';
import { folder } from '../../api/contract/common.ts';
import { defineProvider } from '../provider.ts';

export const siloFolder = defineProvider({
  id: 'silo.folder',
  description: 'Moves the entry to a folder',
  config: z.object({ folder }).strict(),
  inline: true,
  run: async (ctx, config) =>
    (await ctx.entry()).folder === config.folder
      ? { status: 'SKIP', code: 'unchanged', message: `already in ${config.folder}` }
      : { status: 'OK', code: config.folder, apply: () => ctx.updateEntry({ folder: config.folder }) },
});
