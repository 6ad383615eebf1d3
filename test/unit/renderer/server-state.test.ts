import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { operations, type OperationName } from '../../../src-main/core/api/contract/index.ts';
import { createClient } from '../../../src-renderer/src/api/client.ts';
import { ApiClientError } from '../../../src-renderer/src/api/errors.ts';
import { affectedBy, affects, isWrite, resourceOf } from '../../../src-renderer/src/data/invalidation.ts';
import { apiKey } from '../../../src-renderer/src/data/keys.ts';
import { invalidateAfter, writeBatcher } from '../../../src-renderer/src/data/query-client.ts';
import { watchedClient } from '../../../src-renderer/src/data/watched-client.ts';

const names = Object.keys(operations) as OperationName[];
const reads = names.filter((n) => !isWrite(n));
const staleAfter = (write: OperationName) => reads.filter((read) => affects(write, read)).sort();

describe('invalidation by operation, derived from the contract', () => {
  it('names each operation by the nouns of its path, its area first', () => {
    expect(resourceOf('patchEntry')).toBe('silo/entries');
    expect(resourceOf('getAttachment')).toBe('silo/entries/files');
    expect(resourceOf('putSeriesEntry')).toBe('sequence/series/entries');
    expect(resourceOf('cancelJob')).toBe('transform/jobs/cancel');
    for (const name of names) expect(resourceOf(name).split('/')[0], name).toBe(operations[name].area);
  });

  it('an edited entry makes every view of documents stale, and nothing else', () => {
    const stale = staleAfter('patchEntry');
    for (const read of ['getEntry', 'getEntryByKey', 'listEntries', 'listRelated', 'listFolders', 'listTags', 'searchEntries', 'sumEntries', 'entryNames'] as const) {
      expect(stale, read).toContain(read);
    }
    for (const read of ['listWorkflows', 'listSeries', 'getSession', 'getRegime', 'listJobs', 'getSyncStatus'] as const) expect(stale, read).not.toContain(read);
    // A file never changes under its id: no write makes its bytes stale.
    for (const write of names) expect(affects(write, 'getAttachment'), write).toBe(false);
    expect(staleAfter('putAttachment')).toEqual(staleAfter('patchEntry'));
    expect(staleAfter('importEntries')).toEqual(staleAfter('patchEntry'));
  });

  it('a write reaches beyond its collection only where its effects do', () => {
    expect(staleAfter('putSeriesEntry')).toEqual(['getSeries', 'getSeriesEntry', 'listSeries', 'listSeriesEntries', 'verifySeries']);
    expect(staleAfter('patchWorkflow')).toEqual(['getWorkflow', 'listWorkflows']);
    expect(staleAfter('putView')).toEqual(['listViews']);
    // A job's steps change its entry and number it from a series.
    const job = staleAfter('createJob');
    for (const read of ['listJobs', 'getJob', 'listEntries', 'getEntry', 'listFolders', 'entryNames', 'listSeries', 'verifySeries'] as const) expect(job, read).toContain(read);
    expect(job).not.toContain('listWorkflows');
    expect(staleAfter('cancelJob')).toEqual(job);
    // A company's name shows in the session.
    expect(staleAfter('renameCompany')).toEqual(expect.arrayContaining(['getSession', 'listCompanies', 'getWorkspace']));
    // Sync brings records of every kind.
    const sync = staleAfter('resolveSyncConflict');
    for (const read of ['listSyncConflicts', 'getSyncStatus', 'listEntries', 'listFolders', 'listSeries', 'listWorkflows', 'listViews'] as const) expect(sync, read).toContain(read);
    expect(staleAfter('startSync')).toEqual(sync);
  });

  it('a read never invalidates, and the writes that store nothing are exactly the answer-only ones', () => {
    for (const read of reads) expect(reads.filter((other) => affects(read, other)), read).toEqual([]);
    const storeNothing = names.filter((n) => isWrite(n) && staleAfter(n).length === 0).sort();
    expect(storeNothing).toEqual(
      ['buildGobl', 'correctGobl', 'exchangeLoginCode', 'exportCsv', 'exportZip', 'findMissingSyncBlobs', 'presentSyncIdentity', 'readSyncBlobs', 'signGobl', 'testSyncConnection'].sort(),
    );
    // The editor's live build is asked on every pause in typing: it must not refetch what the screen shows.
    expect(affectedBy('buildGobl')).toEqual([]);
  });
});

describe('the query cache after writes', () => {
  const seeded = () => {
    const queryClient = new QueryClient();
    for (const [name, input] of [['listEntries', { query: { limit: 100 } }], ['listFolders', undefined], ['listWorkflows', undefined], ['getAttachment', { params: { entry_id: 'e', id: 'f' } }]] as const) {
      queryClient.setQueryData(apiKey(name, input), { list: [] });
    }
    return queryClient;
  };
  const invalidated = (queryClient: QueryClient, name: OperationName, input?: unknown) => queryClient.getQueryState(apiKey(name, input))?.isInvalidated;

  it('invalidates what the operation affects, by the operation that heads the key', async () => {
    const queryClient = seeded();
    await invalidateAfter(queryClient, ['patchEntry']);
    expect(invalidated(queryClient, 'listEntries', { query: { limit: 100 } })).toBe(true);
    expect(invalidated(queryClient, 'listFolders')).toBe(true);
    expect(invalidated(queryClient, 'listWorkflows')).toBe(false);
    expect(invalidated(queryClient, 'getAttachment', { params: { entry_id: 'e', id: 'f' } })).toBe(false);
  });

  it('batches a burst of writes into one invalidation once they pause', async () => {
    vi.useFakeTimers();
    try {
      const queryClient = seeded();
      const spy = vi.spyOn(queryClient, 'invalidateQueries');
      const wrote = writeBatcher(queryClient, 40);
      for (let i = 0; i < 500; i++) wrote('patchEntry');
      wrote('patchWorkflow');
      await vi.advanceTimersByTimeAsync(39);
      expect(spy).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(invalidated(queryClient, 'listEntries', { query: { limit: 100 } })).toBe(true);
      expect(invalidated(queryClient, 'listWorkflows')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the watched client', () => {
  const answering = (answer: (name: OperationName) => unknown) =>
    createClient({
      call: async (name) => {
        const result = answer(name);
        if (result instanceof Error) throw result;
        return result;
      },
    });

  it('reports each successful write by name, and no read and no failed write', async () => {
    const writes: OperationName[] = [];
    const api = watchedClient(
      answering((name) => (name === 'putView' ? new ApiClientError({ key: 'conflict', message: 'taken' }, 409) : { ok: name })),
      { onWrite: (name) => writes.push(name) },
    );
    await expect(api.listEntries()).resolves.toEqual({ ok: 'listEntries' });
    await api.patchEntry({ params: { id: 'x' }, body: { content_type: 'application/json', tags: ['a'] } });
    await expect(api.putView({ params: { id: 'v' }, body: { name: 'n', filters: {}, columns: [], sort: 'created_at', ascending: false } } as never)).rejects.toThrow('taken');
    expect(writes).toEqual(['patchEntry']);
  });

  it('is the one place that hears a 401, whichever call got it, and still rejects that call', async () => {
    const refused = vi.fn();
    const api = watchedClient(
      answering((name) => (name === 'getSyncStatus' || name === 'patchEntry' ? new ApiClientError({ key: 'unauthorized', message: 'the token is not valid' }, 401) : new ApiClientError({ key: 'forbidden', message: 'no' }, 403))),
      { onUnauthorized: refused, onWrite: () => {} },
    );
    await expect(api.getSyncStatus()).rejects.toMatchObject({ key: 'unauthorized' });
    await expect(api.patchEntry({ params: { id: 'x' }, body: { content_type: 'application/json' } })).rejects.toMatchObject({ key: 'unauthorized' });
    await expect(api.listEntries()).rejects.toMatchObject({ key: 'forbidden' });
    expect(refused).toHaveBeenCalledTimes(2);
  });
});
