import { accessHandlers } from '../access/handlers.ts';
import { workspaceHandlers } from '../access/workspace.ts';
import { regimeHandlers } from '../editor/regime-catalogue.ts';
import { exportHandlers } from '../exports/handlers.ts';
import { sequenceHandlers } from '../sequence/handlers.ts';
import { recordKeepingHandlers } from '../silo/record-keeping-handlers.ts';
import { siloHandlers } from '../silo/handlers.ts';
import { siloHostedHandlers } from '../silo/hosted-handlers.ts';
import { trustedJwksHandlers } from '../silo/trusted-jwks.ts';
import { syncHandlers } from '../sync/handlers.ts';
import { transformHandlers } from '../transform/handlers.ts';
import { utilsHandlers } from '../utils/handlers.ts';
import { operations, type OperationName } from './contract/index.ts';
import type { Handlers } from './handler.ts';
import type { OperationContract } from './operation.ts';

/** Every operation's contract bound to its handler; the compiler checks none is missing. */
export const handlers: Handlers = {
  ...utilsHandlers,
  ...siloHandlers,
  ...siloHostedHandlers,
  ...trustedJwksHandlers,
  ...sequenceHandlers,
  ...transformHandlers,
  ...accessHandlers,
  ...workspaceHandlers,
  ...syncHandlers,
  ...exportHandlers,
  ...regimeHandlers,
  ...recordKeepingHandlers,
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
