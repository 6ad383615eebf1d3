import type { QueryKey } from '@tanstack/react-query';
import type { OperationName } from '../../../src-main/core/api/contract/index.ts';
import { isOperationName } from './invalidation.ts';

/**
 * The cache key of a read: the operation first (invalidation goes by it), then its
 * input, then, when one answer is kept in two shapes (a file as a Blob and as bytes,
 * a list as pages), what tells them apart.
 */
export const apiKey = (name: OperationName, input?: unknown, shape?: string): QueryKey =>
  shape === undefined ? [name, input ?? {}] : [name, input ?? {}, shape];

/** The operation a cache key reads, when it is one of ours. */
export function operationOfKey(key: QueryKey): OperationName | undefined {
  const first = key[0];
  return isOperationName(first) ? first : undefined;
}
