import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { uuid } from './common.ts';

const UUID_VERSIONS = ['1', '3', '4', '5', '6', '7'] as const;

/**
 * The hosted UUID generator's query: `v` (default 4), and for the name-based
 * versions 3 and 5 the namespace `base` and the name `key`, both required then.
 */
const uuidQuery = z
  .object({
    v: z.enum(UUID_VERSIONS, { error: `must be one of ${UUID_VERSIONS.join(', ')}` }).default('4'),
    base: uuid.optional(),
    key: z.string().min(1).max(1000).optional(),
  })
  .refine((q) => !(q.v === '3' || q.v === '5') || (q.base !== undefined && q.key !== undefined), {
    message: 'versions 3 and 5 need a base UUID and a key',
    path: ['key'],
  });

export const utilsOperations = {
  ping: defineOperation({
    method: 'GET',
    path: '/utils/v1/ping',
    summary: 'Liveness check',
    area: 'utils',
    access: 'public',
    output: z.object({ ping: z.literal('pong') }),
  }),
  makeUuid: defineOperation({
    method: 'GET',
    path: '/utils/v1/uuid',
    summary: 'A new UUID of version `v` (1, 3, 4, 5, 6 or 7; default 4), as the hosted generator answers it',
    area: 'utils',
    access: ['owner', 'user', 'app'],
    query: uuidQuery,
    output: z.object({ uuid: z.string(), version: z.string() }),
  }),
};
