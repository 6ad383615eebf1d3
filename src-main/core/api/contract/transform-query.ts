import { z } from 'zod';
import { queryInt } from './common.ts';

/** The longest a call may be held waiting for a job (seconds). */
export const MAX_WAIT_SECONDS = 60;

/**
 * Client-chosen job ids: time-based UUIDs, version 1 or 7, as the hosted service
 * takes them (its Go client and Invoicerr make v7, older clients v1). The id
 * carries the job's creation time, so a random v4 is refused naming that rule.
 */
export const jobId = z
  .guid({ message: 'must be a UUID' })
  .refine((v) => v[14] === '1' || v[14] === '7', {
    message: 'must be a version 1 or version 7 UUID (job ids are time-based: they carry their creation time)',
  })
  .transform((v) => v.toLowerCase());

/**
 * `wait`: whole seconds to hold the answer until the job completes (capped at 60),
 * or `true`/`false` as some hosted clients send it: `true` waits the longest
 * allowed, `false` not at all.
 */
export const waitSeconds = z
  .union([z.boolean(), z.enum(['true', 'false']), queryInt(0, 3600)], {
    error: 'must be a whole number of seconds (at most 3600), true or false',
  })
  .transform((v) => (v === true || v === 'true' ? MAX_WAIT_SECONDS : v === false || v === 'false' ? 0 : Math.min(v, MAX_WAIT_SECONDS)));

export const waitQuery = z.object({ wait: waitSeconds.optional() });

/** The hosted service's page bounds for transform lists. */
export const HOSTED_LIMIT = { min: 10, max: 100, default: 20 } as const;

/**
 * A page size as the hosted lists take it. Only its form is checked here (not a
 * whole number → 400); the bounds are checked by the list itself, because the
 * hosted service answers an out-of-range limit with a 422 validation error
 * ("must be no less than 10"), not a 400.
 */
export const hostedLimit = z
  .union([z.number(), z.string().regex(/^-?\d+$/, 'must be a whole number')])
  .transform((v) => Number(v))
  .pipe(z.number().int())
  .describe(`${HOSTED_LIMIT.min} to ${HOSTED_LIMIT.max} (default ${HOSTED_LIMIT.default}); outside that a 422`)
  .default(HOSTED_LIMIT.default);
