import { accessOperations } from './access.ts';
import { exportOperations } from './exports.ts';
import { recordKeepingOperations } from './record-keeping.ts';
import { regimeOperations } from './regimes.ts';
import { goblOperations } from './gobl.ts';
import { sequenceOperations } from './sequence.ts';
import { siloOperations } from './silo.ts';
import { siloHostedOperations } from './silo-hosted.ts';
import { syncOperations } from './sync.ts';
import { transformOperations } from './transform.ts';
import { trustedJwksOperations } from './trusted-jwks.ts';
import { utilsOperations } from './utils.ts';
import { workspaceOperations } from './workspace.ts';

/** Every operation of the service, by name. Adapters, clients and OpenAPI derive from this. */
export const operations = {
  ...utilsOperations,
  ...siloOperations,
  ...siloHostedOperations,
  ...trustedJwksOperations,
  ...goblOperations,
  ...sequenceOperations,
  ...transformOperations,
  ...accessOperations,
  ...workspaceOperations,
  ...syncOperations,
  ...exportOperations,
  ...regimeOperations,
  ...recordKeepingOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;
