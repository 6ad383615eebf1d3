import { ApiError } from '../core/api/errors.ts';
import { bytesPaths } from '../core/api/bytes-members.ts';
import { DEFAULT_MAX_BODY, type OperationContract } from '../core/api/operation.ts';
import { hashBytesInTurns } from '../core/files/hashed-bytes.ts';
import { readBodyBytes, readJsonBody, type BodySource } from './body.ts';
import { readMultipart } from './multipart-body.ts';

const MULTIPART = /^multipart\/form-data\s*;/i;

/**
 * The request body of an operation, in whichever form its contract takes it
 * (OperationContract.bodyForms): JSON; multipart/form-data read into the same members;
 * or the raw bytes. Every form is capped at the operation's maxBody while streaming,
 * and what comes out is validated by the operation's body schema like any JSON body.
 */
export async function readOperationBody(request: BodySource, contract: OperationContract): Promise<unknown> {
  const max = contract.maxBody ?? DEFAULT_MAX_BODY;
  const forms = contract.bodyForms;
  if (forms?.raw) {
    // An upload's bytes are the file, whatever type the client labels them with (a JSON file too).
    return { [forms.raw.file]: await hashBytesInTurns(await readBodyBytes(request, max)) };
  }
  const type = request.headers.get('content-type') ?? '';
  if (forms?.multipart && MULTIPART.test(type)) return readMultipart(request, type, max, contract, forms.multipart);
  try {
    return await readJsonBody(request, max, bytesPaths(contract));
  } catch (err) {
    if (forms?.multipart && err instanceof ApiError && err.key === 'unsupported-media-type') {
      throw new ApiError('unsupported-media-type', `Content-Type must be application/json or multipart/form-data (got ${type ? JSON.stringify(type.slice(0, 100)) : 'none'})`);
    }
    throw err;
  }
}

