// The members of a request body that carry a file's bytes as base64 (contract/common.ts's
// `base64`: an attachment's `data`, a sync push's `blobs[].data`), found from the body's own
// schema, and their texts decoded a part at a time before the schema sees the body; likewise
// the members of an answer (a sync read's files) for sync's client, and the bytes a client
// sends, encoded a part at a time. Checking and decoding 50 MiB of base64 at once holds the
// event loop for about 160 ms.
import { z } from 'zod';
import { decodeBase64InTurns } from '../files/base64-in-turns.ts';
import { BYTES_PER_TURN, type HashedBytes } from '../files/hashed-bytes.ts';
import { isHashedBytes } from '../files/hashed-bytes-mark.ts';
import { Base64Bytes } from './json-text.ts';
import { TurnBudget } from '../turn-budget.ts';
import type { OperationContract } from './operation.ts';

/** Where a bytes member is: member names from the root, `[]` for every element of an array. */
export type BytesPath = readonly string[];

export const EVERY_ELEMENT = '[]';

/**
 * Stands in for a long text that is not base64: the body's schema refuses it as it refuses
 * any such text ("must be base64"), without checking the whole text again in one block.
 */
export const NOT_BASE64 = Object.freeze({ notBase64: true });

const pathCache = { input: new WeakMap<z.ZodType, BytesPath[]>(), output: new WeakMap<z.ZodType, BytesPath[]>() };

/** The paths of the members the body's schema takes base64 bytes in. */
export function bytesPaths(contract: OperationContract): BytesPath[] {
  return contract.body ? pathsIn(contract.body, 'input') : [];
}

/** The paths of the members the answer carries base64 bytes in (a sync read's files), for a client reading it. */
export function answerBytesPaths(contract: OperationContract): BytesPath[] {
  return contract.output === 'binary' ? [] : pathsIn(contract.output, 'output');
}

function pathsIn(schema: z.ZodType, io: 'input' | 'output'): BytesPath[] {
  let paths = pathCache[io].get(schema);
  if (!paths) {
    paths = [];
    collect(z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchemaNode, [], paths);
    pathCache[io].set(schema, paths);
  }
  return paths;
}

interface JsonSchemaNode {
  contentEncoding?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
}

function collect(node: JsonSchemaNode, at: string[], out: BytesPath[]): void {
  if (typeof node !== 'object' || node === null) return;
  if (node.contentEncoding === 'base64') out.push(at);
  for (const [name, member] of Object.entries(node.properties ?? {})) collect(member, [...at, name], out);
  if (node.items) collect(node.items, [...at, EVERY_ELEMENT], out);
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) collect(branch, at, out);
}

/**
 * The body with each base64 text at a bytes path decoded (HashedBytes), or NOT_BASE64 where
 * the text is not base64, a part at a time: one budget of work across all of them, so a
 * thousand small files let others in as one large one does. The body given is not changed.
 */
export async function receiveBytesMembers(contract: OperationContract, body: unknown): Promise<unknown> {
  let out = body;
  const budget = new TurnBudget(BYTES_PER_TURN);
  const decode = async (value: unknown) => (typeof value === 'string' ? ((await decodeBase64InTurns(value, budget)) ?? NOT_BASE64) : value);
  for (const path of bytesPaths(contract)) out = await replaceAlong(out, path, 0, decode);
  return out;
}

/**
 * The body a client sends, with the HashedBytes at its bytes paths as Base64Bytes: written by
 * writeJsonBody a part at a time as the request streams out (a sync push of a large file).
 */
export async function sendBytesMembers(contract: OperationContract, body: unknown): Promise<unknown> {
  let out = body;
  const encode = async (value: unknown) => (isHashedBytes(value) ? new Base64Bytes((value as HashedBytes).bytes) : value);
  for (const path of bytesPaths(contract)) out = await replaceAlong(out, path, 0, encode);
  return out;
}

/** `value` with what is at `path` (from `depth` on) replaced by `change`'s answer, copied only where something changed. */
export async function replaceAlong(value: unknown, path: BytesPath, depth: number, change: (value: unknown) => Promise<unknown>): Promise<unknown> {
  if (depth === path.length) return change(value);
  const key = path[depth];
  if (key === EVERY_ELEMENT) {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = await replaceAlong(value[i], path, depth + 1, change);
      if (next !== value[i]) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) return value;
  const member = (value as Record<string, unknown>)[key];
  const next = await replaceAlong(member, path, depth + 1, change);
  return next === member ? value : { ...value, [key]: next };
}
