import { operations, type OperationName } from '../../../src-main/core/api/contract/index.ts';

/*
 * What a write makes stale, derived from the operation registry: every operation
 * has a resource, the nouns of its path without the version and the parameters
 * (`PATCH /silo/v1/entries/{id}` is `silo/entries`, `GET /silo/v1/entries/{id}/files/{id}`
 * is `silo/entries/files`), and a successful write makes stale the reads whose
 * resource is under one of the prefixes its own resource affects. No screen says
 * what to reload: a screen that reads through the query cache is refreshed by
 * every write that can change what it shows.
 */

/** An operation's resource: `silo/entries/files`. */
export function resourceOf(name: OperationName): string {
  return operations[name].path
    .split('/')
    .filter((part) => part !== '' && !/^v\d+$/.test(part) && !/^\{.*\}$/.test(part))
    .join('/');
}

const under = (resource: string, prefix: string): boolean => resource === prefix || resource.startsWith(`${prefix}/`);

/**
 * Every view of documents: the entries (with their related entries, files' list, meta,
 * states and versions), the folder counts, tags, search, sums and names, the trash, and
 * the audit log every change of them is written to.
 */
const DOCUMENTS = ['silo/entries', 'silo/folders', 'silo/tags', 'silo/search', 'silo/entry-sums', 'silo/entry-names', 'silo/trash', 'silo/audit'];

/**
 * The writes whose effects reach beyond their own collection, by resource prefix
 * (the longest prefix that matches wins). Any other write makes stale the reads of
 * its own collection (its first two nouns): a saved view the views, an issued number
 * its series, a saved workflow the workflows.
 */
const EFFECTS: Record<string, readonly string[]> = {
  // Answers worked out from the request alone: nothing is stored, nothing shown goes stale.
  'silo/gobl': [],
  'silo/exports': [],
  'access/login': [],
  'sync/settings/test': [],
  'sync/identity': [],
  'sync/blobs/missing': [],
  'sync/blobs/read': [],
  // An entry, its files, meta or states, an import, the bytes of an announced file, the trash
  // emptied: what documents there are and how they are filed.
  'silo/entries': DOCUMENTS,
  'silo/import': DOCUMENTS,
  'silo/uploads': DOCUMENTS,
  'silo/trash': DOCUMENTS,
  // A job's steps change its entry (state, folder, tags, files) and number it from a series.
  'transform/jobs': ['transform/jobs', ...DOCUMENTS, 'sequence/series'],
  // A company's name and tokens show in the session and the workspace.
  access: ['access'],
  // A sync run, a resolved conflict or a retried change brings records of every kind.
  sync: ['sync', ...DOCUMENTS, 'sequence', 'transform/workflows', 'silo/views', 'silo/trusted-jwks'],
  'sync/settings': ['sync'],
};

/** Reads whose answer never changes: a file's bytes are fixed under its id (another file there is a 409). */
const IMMUTABLE = ['silo/entries/files'];

/** Whether the operation can change what is stored (it is not a GET). */
export const isWrite = (name: OperationName): boolean => operations[name].method !== 'GET';

/** The resource prefixes a write makes stale. */
export function affectedBy(write: OperationName): readonly string[] {
  const resource = resourceOf(write);
  const match = Object.keys(EFFECTS)
    .filter((prefix) => under(resource, prefix))
    .sort((a, b) => b.length - a.length)[0];
  if (match !== undefined) return EFFECTS[match];
  return [resource.split('/').slice(0, 2).join('/')];
}

/** Whether a successful `write` makes the answer of `read` stale. */
export function affects(write: OperationName, read: OperationName): boolean {
  if (!isWrite(write)) return false;
  const resource = resourceOf(read);
  if (IMMUTABLE.some((prefix) => under(resource, prefix))) return false;
  return affectedBy(write).some((prefix) => under(resource, prefix));
}

export const isOperationName = (value: unknown): value is OperationName => typeof value === 'string' && Object.hasOwn(operations, value);
