import { operations, type OperationName, type Operations } from '../../../src-main/core/api/contract/index.ts';
import type { InputOf, OperationContract, OutputOf } from '../../../src-main/core/api/operation.ts';
import type { IpcBinary } from '../../../src-main/ipc/channel.ts';
import type { CallInput, Transport } from './transport.ts';

/** A downloaded file: a Blob over HTTP, the bytes with their name and type over IPC. */
export type BinaryDownload = Blob | IpcBinary;

/** Keys whose part may be left out: absent from the contract, or every field in it optional. */
type OptionalKeys<T> = { [K in keyof T]: undefined extends T[K] ? K : {} extends T[K] ? K : never }[keyof T];
type Relaxed<T> = { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & { [K in OptionalKeys<T>]?: T[K] };

/** What a call takes: the contract's input, with parts that need nothing made optional. */
export type ClientInput<C extends OperationContract> = Relaxed<InputOf<C>>;
export type ClientOutput<C extends OperationContract> = C['output'] extends 'binary' ? BinaryDownload : OutputOf<C>;
type ClientArgs<C extends OperationContract> = {} extends ClientInput<C> ? [input?: ClientInput<C>] : [input: ClientInput<C>];

/** One typed method per operation of the registry, e.g. `api.listEntries({ query: { limit: 20 } })`. */
export type ApiClient = {
  [K in OperationName]: (...args: ClientArgs<Operations[K]>) => Promise<ClientOutput<Operations[K]>>;
};

/** Generated from the registry: adding an operation there adds its method here. */
export function createClient(transport: Transport): ApiClient {
  const names = Object.keys(operations) as OperationName[];
  return Object.fromEntries(
    names.map((name) => [name, (input?: CallInput) => transport.call(name, input ?? {})]),
  ) as unknown as ApiClient;
}
