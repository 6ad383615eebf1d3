import jsonpatch from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError, validationError } from '../api/errors.ts';

export type PatchContentType = 'application/json' | 'application/merge-patch+json' | 'application/json-patch+json';
export type JsonPatchOperation = { op: string; path: string; from?: string; value?: unknown };

/**
 * `data` applied to `current` as its content type says: a replacement
 * (application/json), an RFC 7396 merge patch or an RFC 6902 JSON patch. `current`
 * is not changed. A patch that cannot apply is a 422 naming `$.data` (or the
 * operation at fault).
 */
export function applyPatch(
  current: Record<string, unknown>,
  contentType: PatchContentType,
  data: Record<string, unknown> | JsonPatchOperation[],
): Record<string, unknown> {
  switch (contentType) {
    case 'application/json':
      if (Array.isArray(data)) throw validationError('application/json data must be an object', { '$.data': 'must be an object' });
      return data;
    case 'application/merge-patch+json': {
      if (Array.isArray(data)) throw validationError('a merge patch must be an object', { '$.data': 'must be an object' });
      const result = mergePatch.apply(structuredClone(current), data) as unknown;
      if (typeof result !== 'object' || result === null || Array.isArray(result)) {
        throw validationError('the merge patch must leave an object', { '$.data': 'must leave an object' });
      }
      return result as Record<string, unknown>;
    }
    case 'application/json-patch+json': {
      if (!Array.isArray(data)) throw validationError('a JSON patch must be an array of operations', { '$.data': 'must be an array' });
      const error = jsonpatch.validate(data as jsonpatch.Operation[], current);
      if (error) {
        const index = (error as { index?: number }).index ?? 0;
        throw validationError(`JSON patch operation ${index} cannot apply: ${error.name}`, {
          [`$.data[${index}]`]: error.message.split('\n')[0],
        });
      }
      try {
        return jsonpatch.applyPatch(structuredClone(current), data as jsonpatch.Operation[], true, true).newDocument as Record<string, unknown>;
      } catch (err) {
        throw new ApiError('validation', `JSON patch cannot apply: ${(err as Error).message.split('\n')[0]}`, { '$.data': 'cannot apply' });
      }
    }
  }
}
