import { accessHandlers } from '../access/handlers.ts';
import { sequenceHandlers } from '../sequence/handlers.ts';
import { siloHandlers } from '../silo/handlers.ts';
import { syncHandlers } from '../sync/handlers.ts';
import { transformHandlers } from '../transform/handlers.ts';
import { operations, type OperationName } from './contract/index.ts';
import type { Handlers } from './handler.ts';
import type { OperationContract } from './operation.ts';

/** Every operation's contract bound to its handler; the compiler checks none is missing. */
export const handlers: Handlers = {
  ping: () => ({ ping: 'pong' as const }),
  ...siloHandlers,
  ...sequenceHandlers,
  ...transformHandlers,
  ...accessHandlers,
  ...syncHandlers,
};

export interface RegisteredOperation {
  name: OperationName;
  contract: OperationContract;
  handler: Handlers[OperationName];
}

export const registry: RegisteredOperation[] = (Object.keys(operations) as OperationName[]).map((name) => ({
  name,
  contract: operations[name],
  handler: handlers[name],
}));
