import jsonpatch from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError, validationError } from '../api/errors.ts';

export type PatchContentType = 'application/json' | 'application/merge-patch+json' | 'application/json-patch+json';
export type JsonPatchOperation = { op: string; path: string; from?: string; value?: unknown };

/**
 * `data` applied to `current` as its content type says: a replacement
 * (application/json), an RFC 7396 merge patch or an RFC 6902 JSON patch. `current`
 * is the caller's to give up (each parses it fresh): it is patched in place, where two
 * deep copies of a 13,000-line document (one to validate the operations on, one to
 * apply them to) held the event loop some 100 ms. A patch that cannot apply is a 422
 * naming `$.data` (or the operation at fault), and leaves `current` half patched.
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
      const result = mergePatch.apply(current, data) as unknown;
      if (typeof result !== 'object' || result === null || Array.isArray(result)) {
        throw validationError('the merge patch must leave an object', { '$.data': 'must leave an object' });
      }
      return result as Record<string, unknown>;
    }
    case 'application/json-patch+json': {
      if (!Array.isArray(data)) throw validationError('a JSON patch must be an array of operations', { '$.data': 'must be an array' });
      let document: unknown = current;
      const operations = data as jsonpatch.Operation[];
      // One at a time, each validated against the document as the ones before it left it: the library names every failing operation 0.
      for (let index = 0; index < operations.length; index++) {
        try {
          document = jsonpatch.applyOperation(document, operations[index], true, true, true, index).newDocument;
        } catch (err) {
          if (err instanceof jsonpatch.JsonPatchError) {
            throw validationError(`JSON patch operation ${index} cannot apply: ${err.name}`, { [`$.data[${index}]`]: err.message.split('\n')[0] });
          }
          throw new ApiError('validation', `JSON patch cannot apply: ${(err as Error).message.split('\n')[0]}`, { '$.data': 'cannot apply' });
        }
      }
      if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        throw validationError('the JSON patch must leave an object', { '$.data': 'must leave an object' });
      }
      return document as Record<string, unknown>;
    }
  }
}
