import { validationError } from '../api/errors.ts';
import { HOSTED_LIMIT } from '../api/contract/transform-query.ts';

/**
 * The hosted bounds of a list's page size: outside them the hosted service answers
 * 422 `key: validation` with the rule in its words, so clients that show that
 * message, or test for it, see the same here.
 */
export function checkHostedLimit(limit: number): number {
  if (limit < HOSTED_LIMIT.min) throw limitError(`must be no less than ${HOSTED_LIMIT.min}`);
  if (limit > HOSTED_LIMIT.max) throw limitError(`must be no greater than ${HOSTED_LIMIT.max}`);
  return limit;
}

const limitError = (rule: string) => validationError(`limit: ${rule}`, { limit: rule });
