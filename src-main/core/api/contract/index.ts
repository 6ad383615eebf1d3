import { accessOperations } from './access.ts';
import { sequenceOperations } from './sequence.ts';
import { siloOperations } from './silo.ts';
import { syncOperations } from './sync.ts';
import { transformOperations } from './transform.ts';
import { utilsOperations } from './utils.ts';

/** Every operation of the service, by name. Adapters, clients and OpenAPI derive from this. */
export const operations = {
  ...utilsOperations,
  ...siloOperations,
  ...sequenceOperations,
  ...transformOperations,
  ...accessOperations,
  ...syncOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;
