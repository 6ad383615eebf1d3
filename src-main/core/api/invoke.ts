import type { z } from 'zod';
import { ApiError, fieldsOf, notFound } from './errors.ts';
import { receiveBytesMembers } from './bytes-members.ts';
import type { Ctx, Handler } from './handler.ts';
import type { OperationContract } from './operation.ts';
import { handlers } from './registry.ts';
import { writeJson } from './json-text.ts';
import { withCall } from '../silo/audit-actor.ts';
import { auditOperation } from '../silo/audited-operations.ts';
import { operations } from './contract/index.ts';

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** the headers the operation declares, by lower-case name; others are ignored */
  headers?: unknown;
}

const checkOutputs = process.env.SILODESK_CHECK_OUTPUT === '1';

/**
 * Runs one operation for a caller: access check, then params, query and the
 * headers it declares (a bad URL or header is 400), then body (its long base64 members
 * decoded a part at a time; a bad document is 422 with fields by JSON path), then the handler. Both adapters, HTTP and IPC, come through here.
 */
export async function invokeOperation(ctx: Ctx, name: string, raw: RawInput): Promise<unknown> {
  if (!Object.hasOwn(operations, name)) throw notFound(`operation ${name}`);
  const contract = operations[name as keyof typeof operations] as OperationContract;
  const handler = handlers[name as keyof typeof handlers] as Handler<OperationContract>;

  if (contract.access !== 'public' && !contract.access.includes(ctx.caller.kind)) {
    throw new ApiError('forbidden', `a ${ctx.caller.kind} token may not call ${name}`);
  }
  const params = parsePart(contract.params, raw.params ?? {}, 'bad-request', '');
  const query = parsePart(contract.query, raw.query ?? {}, 'bad-request', '');
  const headers = parsePart(contract.headers, raw.headers ?? {}, 'bad-request', '');
  const body = contract.body ? parsePart(contract.body, await receiveBytesMembers(contract, raw.body), 'validation', '$') : undefined;

  // The caller and operation are known to every change the handler makes (history, audit log); settings and tokens are put on record here.
  const result = await withCall(ctx.service.db, ctx.caller, name, () => handler(ctx, { params, query, body, headers } as never));
  await auditOperation(ctx, name, { params, query, body }, result);

  if (checkOutputs && contract.output !== 'binary') {
    // What the client reads: a JsonText (json-text.ts) as the value its text is.
    const check = (contract.output as z.ZodType).safeParse(ctx.writesJson ? JSON.parse(writeJson(result)) : result);
    if (!check.success) throw new Error(`${name} answered outside its schema: ${check.error.message}`);
  }
  return result;
}

function parsePart(schema: z.ZodType | undefined, value: unknown, key: 'bad-request' | 'validation', prefix: string) {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields = fieldsOf(parsed.error, prefix).valueOf();
  // A parameter or header is named as sent (`limit`, `if-match`), not as a JSON path.
  const cleaned = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^\./, '').replace(/^\["([^"\\]*)"\]/, '$1'), v]));
  const what = key === 'validation' ? 'request body is not valid' : 'request parameters are not valid';
  throw new ApiError(key, `${what}: ${Object.entries(cleaned).map(([k, v]) => `${k || 'body'} ${v}`).join('; ')}`, cleaned);
}
