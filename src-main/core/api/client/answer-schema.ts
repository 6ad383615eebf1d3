import type { OperationName } from '../contract/index.ts';
import { fieldsOf } from '../errors.ts';
import { contractOf } from './client.ts';

/** An answer that is not what the operation's contract says it answers. */
export class AnswerMismatch extends Error {
  readonly operation: OperationName;
  /** what is wrong, by JSON path (never the values: an answer may be large or hold documents) */
  readonly fields: Record<string, string>;

  constructor(operation: OperationName, fields: Record<string, string>) {
    const first = Object.entries(fields).slice(0, 3).map(([path, why]) => `${path} ${why}`).join('; ');
    super(`the answer to ${operation} does not match its contract: ${first}`);
    this.operation = operation;
    this.fields = fields;
  }
}

/**
 * An answer parsed with the operation's output schema: what a caller gets is what
 * the contract declares, whoever sent it (another Silodesk may be another version,
 * or hostile). Unknown members are dropped; a missing or mistyped one throws.
 */
export function parseAnswer(name: OperationName, answer: unknown): unknown {
  const output = contractOf(name).output;
  if (output === 'binary') return answer;
  const parsed = output.safeParse(answer);
  if (parsed.success) return parsed.data;
  throw new AnswerMismatch(name, fieldsOf(parsed.error));
}
