import type { Caller } from '../access/tokens.ts';
import type { Service } from '../service.ts';
import type { OperationContract, OutputOf, ParsedInput } from './operation.ts';
import type { Operations } from './contract/index.ts';

/** What every handler is given: the service and who is calling, for which company. */
export interface Ctx {
  service: Service;
  caller: Caller;
  /** The answer is written out by writeJson (HTTP does): stored JSON text may go into it unparsed, as a JsonText. */
  writesJson?: boolean;
}

export type Handler<C extends OperationContract> = (
  ctx: Ctx,
  input: ParsedInput<C>,
) => OutputOf<C> | Promise<OutputOf<C>>;

export type HandlersOf<Ops extends Record<string, OperationContract>> = {
  [K in keyof Ops]: Handler<Ops[K]>;
};

export type Handlers = HandlersOf<Operations>;
