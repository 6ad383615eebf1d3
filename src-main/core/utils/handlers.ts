import { v1, v3, v4, v5, v6, v7 } from 'uuid';
import type { HandlersOf } from '../api/handler.ts';
import type { utilsOperations } from '../api/contract/utils.ts';

const random: Record<string, () => string> = { '1': () => v1(), '4': () => v4(), '6': () => v6(), '7': () => v7() };

export const utilsHandlers: HandlersOf<typeof utilsOperations> = {
  ping: () => ({ ping: 'pong' as const }),
  makeUuid: (_ctx, { query }) => {
    const { v } = query;
    // The contract guarantees base and key for the name-based versions.
    const made = v === '3' ? v3(query.key!, query.base!) : v === '5' ? v5(query.key!, query.base!) : random[v]();
    return { uuid: made, version: v };
  },
};
