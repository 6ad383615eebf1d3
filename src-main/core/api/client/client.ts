import { operations, type OperationName, type Operations } from '../contract/index.ts';
import type { InputOf, OperationContract, OutputOf } from '../operation.ts';
import type { IpcBinary } from './ipc-answer.ts';
import type { CallInput } from './request-path.ts';

export type { CallInput } from './request-path.ts';

/**
 * How calls reach the service: HTTP, the preload bridge, the relay to the service
 * process. `O` is what a transport lets a single call tune (sync's transport takes
 * an answer size cap); `never` when it takes nothing.
 */
export interface Transport<O = never> {
  call(name: OperationName, input: CallInput, options?: O): Promise<unknown>;
}

/** A downloaded file: a Blob over HTTP, the bytes with their name and type over IPC. */
export type BinaryDownload = Blob | IpcBinary;

/** Keys whose part may be left out: absent from the contract, or every field in it optional. */
type OptionalKeys<T> = { [K in keyof T]: undefined extends T[K] ? K : {} extends T[K] ? K : never }[keyof T];
type Relaxed<T> = { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & { [K in OptionalKeys<T>]?: T[K] };

/** What a call takes: the contract's input, with parts that need nothing made optional. */
export type ClientInput<C extends OperationContract> = Relaxed<InputOf<C>>;
export type ClientOutput<C extends OperationContract> = C['output'] extends 'binary' ? BinaryDownload : OutputOf<C>;
type ClientArgs<C extends OperationContract, O> = {} extends ClientInput<C>
  ? [input?: ClientInput<C>, options?: O]
  : [input: ClientInput<C>, options?: O];

/** One typed method per operation of the registry, e.g. `api.listEntries({ query: { limit: 20 } })`. */
export type ApiClient<O = never> = {
  [K in OperationName]: (...args: ClientArgs<Operations[K], O>) => Promise<ClientOutput<Operations[K]>>;
};

/** The answer type of one operation, by name. */
export type AnswerOf<K extends OperationName> = ClientOutput<Operations[K]>;

/**
 * The typed client, generated from the registry: adding an operation there adds
 * its method here. Every transport (HTTP, IPC, relay, sync's remote) sits under it.
 */
export function createClient<O = never>(transport: Transport<O>): ApiClient<O> {
  const names = Object.keys(operations) as OperationName[];
  return Object.fromEntries(
    names.map((name) => [name, (input?: CallInput, options?: O) => transport.call(name, input ?? {}, options)]),
  ) as unknown as ApiClient<O>;
}

/** The contract of an operation, by name (a transport needs its method, path and output). */
export const contractOf = (name: OperationName): OperationContract => operations[name] as OperationContract;
