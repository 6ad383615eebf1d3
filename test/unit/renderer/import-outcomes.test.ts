import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src-renderer/src/api/client.ts';
import { importDuplicatesAsCopies, importClashesAsCopies, skipAllDuplicates } from '../../../src-renderer/src/screens/import/decisions.ts';
import { importFiles, newImportedFile, type ImportedFile } from '../../../src-renderer/src/screens/import/importer.ts';
import { displayNameOf } from '../../../src-renderer/src/screens/import/read-file.ts';
import { importSummary } from '../../../src-renderer/src/screens/import/summary.ts';

type Call = { op: string; input: any };

/** A fake service: answers import items by `answer`, attachments by `attachOk`. */
function fakeApi(answer: (item: any, onDuplicate: string, index: number) => any, attachOk: (name: string) => boolean) {
  const calls: Call[] = [];
  const api = {
    importEntries: async (input: any) => {
      calls.push({ op: 'import', input });
      return { results: input.body.entries.map((item: any, index: number) => ({ index, ...answer(item, input.body.on_duplicate, index) })) };
    },
    putAttachment: async (input: any) => {
      calls.push({ op: 'attach', input });
      if (!attachOk(input.body.name)) throw new Error('attachment name must not contain :');
      return {};
    },
  } as unknown as ApiClient;
  return { api, calls };
}

async function run(api: ApiClient, files: File[]): Promise<ImportedFile[]> {
  let state = files.map((f, i) => newImportedFile(i + 1, f));
  await importFiles(api, files, {
    signal: new AbortController().signal,
    progress: () => {},
    update: (index, change) => {
      state = state.map((f, i) => (i === index ? change(f) : f));
    },
  });
  return state;
}

const pdf = (name: string) => new File([new Uint8Array([37, 80, 68, 70, 1, 2, 3])], name, { type: 'application/pdf' });

describe('importing files', () => {
  it('sends `Scan 2025-03-14 10:30.pdf` under its own name with a path-safe id', async () => {
    const { api, calls } = fakeApi(() => ({ status: 'created', id: 'e1' }), () => true);
    const files = await run(api, [pdf('Scan 2025-03-14 10:30.pdf')]);
    const put = calls.find((c) => c.op === 'attach')!.input;
    expect(put.body.name).toBe('Scan 2025-03-14 10:30.pdf');
    expect(put.params.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(importSummary(files)).toBe('1 entry added');
  });

  it('never says added for a file whose draft was made but whose file was refused', async () => {
    const { api } = fakeApi(() => ({ status: 'created', id: 'e1' }), () => false);
    const files = await run(api, [pdf('Scan 10:30.pdf')]);
    expect(files[0].created).toEqual([]);
    expect(files[0].errors[0]).toMatchObject({ message: expect.stringContaining('could not be attached'), retry: { entryId: 'e1' } });
    expect(importSummary(files)).toBe('0 entries added · 1 failed');
  });

  it('leaves duplicates out, then applies one decision to all of them', async () => {
    let stored = 0;
    const { api, calls } = fakeApi((_item, onDuplicate) => (onDuplicate === 'skip' ? { status: 'duplicate', duplicate_of: 'held', duplicate_by: 'file' } : { status: 'created', id: `copy-${++stored}`, duplicate_of: 'held' }), () => true);
    let files = await run(api, [pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')]);
    expect(calls.filter((c) => c.op === 'import').map((c) => c.input.body.on_duplicate)).toEqual(['skip']);
    expect(calls.filter((c) => c.op === 'attach')).toHaveLength(0);
    expect(importSummary(files)).toBe('0 entries added · 3 already stored');

    const change = (key: number, fn: (f: ImportedFile) => ImportedFile) => {
      files = files.map((f) => (f.key === key ? fn(f) : f));
    };
    const skipped = files;
    skipAllDuplicates(skipped, (key, fn) => change(key, fn));
    expect(importSummary(files)).toBe('0 entries added · 3 duplicates skipped');

    files = skipped;
    await importDuplicatesAsCopies(api, files, change);
    // One call for all three, each file attached to its copy.
    expect(calls.filter((c) => c.op === 'import').map((c) => [c.input.body.on_duplicate, c.input.body.entries.length])).toEqual([['skip', 3], ['store', 3]]);
    expect(calls.filter((c) => c.op === 'attach')).toHaveLength(3);
    expect(importSummary(files)).toBe('3 entries added');
    expect(files.map((f) => f.copies)).toEqual([[{ id: 'copy-1', of: 'held' }], [{ id: 'copy-2', of: 'held' }], [{ id: 'copy-3', of: 'held' }]]);
  });

  it('imports every envelope whose id is taken as a new copy in one call', async () => {
    const envelope = (code: string) => new File([JSON.stringify({ $schema: 'https://gobl.org/draft-0/envelope', head: { uuid: 'taken' }, doc: { $schema: 'https://gobl.org/draft-0/bill/invoice', code } })], `${code}.json`, { type: 'application/json' });
    const { api, calls } = fakeApi((item) => (item.data.head ? { status: 'error', id: 'taken', error: { key: 'conflict', code: 'conflict', message: 'entry taken already exists with a different body' } } : { status: 'created', id: `new-${item.data.code}` }), () => true);
    let files = await run(api, Array.from({ length: 68 }, (_, i) => envelope(`C-${i}`)));
    expect(importSummary(files)).toBe('0 entries added · 68 with a taken id');
    await importClashesAsCopies(api, files, (key, fn) => {
      files = files.map((f) => (f.key === key ? fn(f) : f));
    });
    const copyCalls = calls.filter((c) => c.op === 'import').slice(1);
    expect(copyCalls).toHaveLength(1);
    // Each goes in as its document, under a new id.
    expect(copyCalls[0].input.body.entries[0]).toEqual({ data: { $schema: 'https://gobl.org/draft-0/bill/invoice', code: 'C-0' }, id: undefined });
    expect(importSummary(files)).toBe('68 entries added');
  });

  it('shows names as the user knows them, without invisible characters', () => {
    expect(displayNameOf('Scan 2025-03-14 10:30.pdf')).toBe('Scan 2025-03-14 10:30.pdf');
    expect(displayNameOf('bad\nname\u202E.pdf')).toBe('bad name .pdf');
    expect(displayNameOf('\u0000')).toBe('file');
    expect(Array.from(displayNameOf('😀'.repeat(300)))).toHaveLength(255);
  });
});
