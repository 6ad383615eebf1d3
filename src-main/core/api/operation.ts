import type { z } from 'zod';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** Who is calling: the owner and users of a company, or an enrolled application. */
export type CallerKind = 'owner' | 'user' | 'app';

/** A file (or bytes) answered as-is instead of JSON: attachment downloads. */
export interface BinaryResult {
  mime: string;
  name: string;
  size: number;
  /** absolute path of the stored file, or the bytes themselves */
  file?: string;
  bytes?: Uint8Array;
  inline: boolean;
}

/**
 * The contract of one operation: everything an adapter needs to serve it and a
 * client needs to call it. Contracts are pure data + zod schemas, so the renderer
 * can import them without pulling in the database.
 */
export interface OperationContract {
  method: HttpMethod;
  /** OpenAPI-style path, `{id}` for parameters */
  path: string;
  summary: string;
  area: 'utils' | 'silo' | 'transform' | 'sequence' | 'access' | 'sync';
  /** callers allowed; `public` needs no token at all */
  access: readonly CallerKind[] | 'public';
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The request headers the operation reads, as an object schema keyed by lower-case
   * header name (`if-match`). Adapters pass these and no others; a bad value is a 400.
   */
  headers?: z.ZodObject;
  output: z.ZodType | 'binary';
  /** request body cap in bytes (default 5 MiB) */
  maxBody?: number;
  /**
   * Forms the body may take over HTTP besides JSON, read into the same body object
   * (so `body` validates it either way): `multipart` takes multipart/form-data, its
   * text fields as members and its one file part as the bytes member `file` (with its
   * file name and type filling `filename` and `mediaType` when the form leaves them
   * out); `raw` takes the request's bytes, whatever their type, as the bytes member `file`.
   * The bytes come decoded and hashed, as a base64 member's do (bytes-members.ts).
   */
  bodyForms?: {
    multipart?: { file: string; filename?: string; mediaType?: string };
    raw?: { file: string };
  };
}

export const DEFAULT_MAX_BODY = 5 * 1024 * 1024;

export function defineOperation<const C extends OperationContract>(contract: C): C {
  return contract;
}

/** The lower-case names of the headers an operation reads (what an adapter passes on). */
export function declaredHeaders(contract: OperationContract): string[] {
  return contract.headers ? Object.keys(contract.headers.shape) : [];
}

type InOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type ParsedOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a client sends (before defaults and coercion). */
export type InputOf<C extends OperationContract> = OmitUndefined<{
  params: InOf<C['params']>;
  query: InOf<C['query']>;
  body: InOf<C['body']>;
  headers: InOf<C['headers']>;
}>;

/** What a handler receives (after parsing). */
export interface ParsedInput<C extends OperationContract> {
  params: ParsedOf<C['params']>;
  query: ParsedOf<C['query']>;
  body: ParsedOf<C['body']>;
  headers: ParsedOf<C['headers']>;
}

export type OutputOf<C extends OperationContract> = C['output'] extends z.ZodType
  ? z.output<C['output']>
  : BinaryResult;

type OmitUndefined<T> = { [K in keyof T as T[K] extends undefined ? never : K]: T[K] } & {
  [K in keyof T as T[K] extends undefined ? K : never]?: never;
};
