import { z } from 'zod';
import { ApiError, validationError } from '../core/api/errors.ts';
import { DEFAULT_MAX_BODY, type OperationContract } from '../core/api/operation.ts';
import { unsafeDisplayNameReason } from '../core/silo/file-name.ts';
import { readBodyBytes, readJsonBody, type BodySource } from './body.ts';

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
    const bytes = await readBodyBytes(request, max);
    return { [forms.raw.file]: bytes.toString('base64') };
  }
  const type = request.headers.get('content-type') ?? '';
  if (forms?.multipart && MULTIPART.test(type)) return readMultipart(request, type, max, contract, forms.multipart);
  try {
    return await readJsonBody(request, max);
  } catch (err) {
    if (forms?.multipart && err instanceof ApiError && err.key === 'unsupported-media-type') {
      throw new ApiError('unsupported-media-type', `Content-Type must be application/json or multipart/form-data (got ${type ? JSON.stringify(type.slice(0, 100)) : 'none'})`);
    }
    throw err;
  }
}

type MultipartForm = NonNullable<NonNullable<OperationContract['bodyForms']>['multipart']>;

/**
 * A multipart/form-data body as the operation's JSON members: each text field is the
 * member of its name (read as the member's type: `true`, `12`, a JSON object), the one
 * file part is the base64 member `form.file`, and its file name and type stand in for
 * the `filename` and `mediaType` members when the form does not give them. A field the
 * operation does not take, a field given twice, a second file, or a file name that
 * carries a path or hidden characters is refused before the handler runs.
 */
async function readMultipart(request: BodySource, type: string, max: number, contract: OperationContract, form: MultipartForm): Promise<unknown> {
  const bytes = await readBodyBytes(request, max);
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ApiError('bad-request', 'the request body is not valid multipart/form-data');
  }
  const types = memberTypes(contract);
  const members = new Map<string, unknown>();
  let file: File | undefined;
  for (const [name, value] of data.entries()) {
    const at = `$.${name}`;
    if (members.has(name) || (name === form.file && file)) throw validationError(`${name} is given twice`, { [at]: 'is given more than once' });
    if (typeof value !== 'string') {
      if (name !== form.file) throw validationError(`a file part must be named ${form.file}`, { [at]: `a file goes in the part named ${form.file}` });
      const reason = hostileFileName(value.name);
      if (reason) throw validationError(`the file name ${reason}`, { [at]: `file name ${reason}` });
      file = value;
      continue;
    }
    if (!types.has(name)) throw validationError(`unknown field ${JSON.stringify(name.slice(0, 100))}: this operation does not take it`, { [at]: 'is not a field this operation takes' });
    members.set(name, coerce(value, types.get(name)!));
  }
  if (file) {
    members.set(form.file, Buffer.from(await file.arrayBuffer()).toString('base64'));
    if (form.filename && !members.has(form.filename) && file.name !== '') members.set(form.filename, file.name);
    if (form.mediaType && !members.has(form.mediaType) && file.type !== '') members.set(form.mediaType, file.type.split(';')[0].trim());
  }
  // fromEntries makes own members only: a field named like a prototype member changes no prototype.
  return Object.fromEntries(members);
}

/** Why a multipart file name is refused: the name a browser sends is a bare name, never a path. */
function hostileFileName(name: string): string | undefined {
  if (name === '') return undefined;
  if (/[/\\]/.test(name) || name === '.' || name === '..') return 'must be a name, not a path';
  return unsafeDisplayNameReason(name);
}

type MemberType = 'string' | 'boolean' | 'number' | 'json';
const memberTypeCache = new WeakMap<OperationContract, Map<string, MemberType>>();

/** The members an operation's body takes, with the JSON type each is read as from a form field. */
function memberTypes(contract: OperationContract): Map<string, MemberType> {
  let types = memberTypeCache.get(contract);
  if (types) return types;
  types = new Map();
  const schema = contract.body ? (z.toJSONSchema(contract.body, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> }) : {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) types.set(name, typeOf(prop));
  memberTypeCache.set(contract, types);
  return types;
}

function typeOf(prop: unknown): MemberType {
  const p = prop as { type?: string | string[]; anyOf?: unknown[]; oneOf?: unknown[] };
  const declared = Array.isArray(p.type) ? p.type : p.type ? [p.type] : (p.anyOf ?? p.oneOf ?? []).map((s) => (s as { type?: string }).type);
  if (declared.includes('string')) return 'string';
  if (declared.includes('boolean')) return 'boolean';
  if (declared.includes('integer') || declared.includes('number')) return 'number';
  return declared.length > 0 ? 'json' : 'string';
}

/** A form field's text as the member's type; what does not read as that type is left for the schema to refuse. */
function coerce(text: string, type: MemberType): unknown {
  switch (type) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'number':
      return /^-?\d+(?:\.\d+)?$/.test(text) ? Number(text) : text;
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text;
  }
}
