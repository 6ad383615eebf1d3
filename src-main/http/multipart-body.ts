// A multipart/form-data body as an operation's JSON members (OperationContract.bodyForms.multipart).
// Parsed by busboy a slice at a time, others let in between: the platform's own parser
// (Response.formData) took a 50 MiB file in blocks of 50 ms and more, then copied it twice.
import { Busboy } from '@fastify/busboy';
import { z } from 'zod';
import { ApiError, validationError } from '../core/api/errors.ts';
import type { OperationContract } from '../core/api/operation.ts';
import { BYTES_PER_TURN, hashBytesInTurns } from '../core/files/hashed-bytes.ts';
import { letOthersIn } from '../core/let-others-in.ts';
import { unsafeDisplayNameReason } from '../core/silo/file-name.ts';
import { readBodyBytes, type BodySource } from './body.ts';
import { GrowingBuffer } from '../core/files/growing-buffer.ts';

type MultipartForm = NonNullable<NonNullable<OperationContract['bodyForms']>['multipart']>;

/** One part of the form, in the order sent: a text field, or a file (a part with a file name). */
type Part = { name: string; text: string } | { name: string; file: { bytes: GrowingBuffer; filename: string; type: string } };

/**
 * The form's members: each text field is the member of its name (read as the member's type:
 * `true`, `12`, a JSON object), the one file part is the bytes member `form.file` (decoded and
 * hashed, as a large base64 text would be), and its file name and type stand in for the
 * `filename` and `mediaType` members when the form does not give them. A field the operation
 * does not take, a field given twice, a second file, or a file name that carries a path or
 * hidden characters is refused before the handler runs.
 */
export async function readMultipart(request: BodySource, type: string, max: number, contract: OperationContract, form: MultipartForm): Promise<unknown> {
  const parts = await partsOf(await readBodyBytes(request, max), type);
  const types = memberTypes(contract);
  const members = new Map<string, unknown>();
  let file: Extract<Part, { file: unknown }>['file'] | undefined;
  for (const part of parts) {
    const { name } = part;
    const at = `$.${name}`;
    if (members.has(name) || (name === form.file && file)) throw validationError(`${name} is given twice`, { [at]: 'is given more than once' });
    if ('file' in part) {
      if (name !== form.file) throw validationError(`a file part must be named ${form.file}`, { [at]: `a file goes in the part named ${form.file}` });
      const reason = hostileFileName(part.file.filename);
      if (reason) throw validationError(`the file name ${reason}`, { [at]: `file name ${reason}` });
      file = part.file;
      continue;
    }
    if (!types.has(name)) throw validationError(`unknown field ${JSON.stringify(name.slice(0, 100))}: this operation does not take it`, { [at]: 'is not a field this operation takes' });
    members.set(name, coerce(part.text, types.get(name)!));
  }
  if (file) {
    members.set(form.file, await hashBytesInTurns(file.bytes.bytes()));
    if (form.filename && !members.has(form.filename) && file.filename !== '') members.set(form.filename, file.filename);
    if (form.mediaType && !members.has(form.mediaType) && file.type !== '') members.set(form.mediaType, file.type.split(';')[0].trim());
  }
  // fromEntries makes own members only: a field named like a prototype member changes no prototype.
  return Object.fromEntries(members);
}

/** The form's parts, the body fed to the parser a slice at a time. */
async function partsOf(body: Buffer, type: string): Promise<Part[]> {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': type },
      // The name as sent: one carrying a path is refused, not cut down to its last part.
      preservePath: true,
      defCharset: 'utf8',
      // A part is a file when it has a file name, as browsers and the platform's parser read it.
      isPartAFile: (_field, _type, filename) => filename !== undefined,
      limits: { fieldSize: body.byteLength, fileSize: body.byteLength },
    });
  } catch {
    throw notMultipart();
  }
  const parts: Part[] = [];
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, text) => parts.push({ name, text }));
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      // Room for the whole body at once (a file is less), so it is never copied to grow. Only the
      // first file is kept: a form with two is refused, and its second costs no memory meanwhile.
      const first = !parts.some((p) => 'file' in p);
      const bytes = new GrowingBuffer(first ? body.byteLength : undefined);
      parts.push({ name, file: { bytes, filename, type: mimeType } });
      stream.on('data', (chunk: Buffer) => first && bytes.append(chunk));
    });
    parser.on('finish', resolve);
    parser.on('error', () => reject(notMultipart()));
  });
  finished.catch(() => undefined);
  for (let at = 0; at < body.byteLength; at += BYTES_PER_TURN / 4) {
    if (at > 0) await letOthersIn();
    parser.write(body.subarray(at, at + BYTES_PER_TURN / 4));
  }
  parser.end();
  await finished;
  return parts;
}

const notMultipart = () => new ApiError('bad-request', 'the request body is not valid multipart/form-data');

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
