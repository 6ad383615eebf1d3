import { z } from 'zod';
import { tags } from '../../api/contract/common.ts';
import { defineProvider } from '../provider.ts';

export const siloTags = defineProvider({
  id: 'silo.tags',
  description: 'Adds and removes tags of the entry',
  config: z
    .object({ add: tags.optional(), remove: tags.optional() })
    .strict()
    .refine((c) => (c.add?.length ?? 0) + (c.remove?.length ?? 0) > 0, { message: 'give tags to add or remove' }),
  inline: true,
  run: async (ctx, config) => {
    const remove = new Set(config.remove ?? []);
    const next = [...new Set([...(await ctx.entry()).tags, ...(config.add ?? [])])].filter((t) => !remove.has(t));
    return { status: 'OK', apply: () => ctx.updateEntry({ tags: next }) };
  },
});
