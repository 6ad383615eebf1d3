import { z } from 'zod';
import { defineOperation } from '../operation.ts';

export const utilsOperations = {
  ping: defineOperation({
    method: 'GET',
    path: '/utils/v1/ping',
    summary: 'Liveness check',
    area: 'utils',
    access: 'public',
    output: z.object({ ping: z.literal('pong') }),
  }),
};
