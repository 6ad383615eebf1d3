import type { ApiClient } from '../../api/client.ts';
import { attach, recordOutcome, sendItems, type ImportedFile, type Outcome, type PendingItem } from './importer.ts';

type Change = (key: number, change: (f: ImportedFile) => ImportedFile) => void;
const noProgress = { progress: () => {}, signal: new AbortController().signal };

/** Duplicates still waiting for the decision, with the file each belongs to. */
export const pendingDuplicates = (files: readonly ImportedFile[]) =>
  files.flatMap((f) => f.duplicates.filter((d) => !d.skipped).map((d) => ({ key: f.key, item: d.item, of: d.of })));

export const pendingClashes = (files: readonly ImportedFile[]) => files.flatMap((f) => f.clashes.map((c) => ({ key: f.key, item: c.item })));

/** "Skip all duplicates": nothing is stored; each stays listed with the entry that holds it. */
export function skipAllDuplicates(files: readonly ImportedFile[], change: Change): void {
  for (const f of files) if (f.duplicates.some((d) => !d.skipped)) change(f.key, (x) => ({ ...x, duplicates: x.duplicates.map((d) => ({ ...d, skipped: true })) }));
}

/**
 * "Import all as new copies": every waiting duplicate is stored after all, in as few
 * calls as the batch size allows (files attached to their drafts as on import).
 */
export async function importDuplicatesAsCopies(api: ApiClient, files: readonly ImportedFile[], change: Change): Promise<void> {
  const pending = pendingDuplicates(files);
  const keyOf = new Map(pending.map((p) => [p.item, p.key]));
  const ofOf = new Map(pending.map((p) => [p.item, p.of]));
  await sendItems(api, pending.map((p) => p.item), 'store', noProgress, (item, outcome) =>
    change(keyOf.get(item)!, (f) => settle(f, item, 'duplicates', outcome, ofOf.get(item))),
  );
}

/**
 * "Import all as new copies" for envelopes whose id belongs to another document:
 * each document goes in under a new id, all in one call (per batch).
 */
export async function importClashesAsCopies(api: ApiClient, files: readonly ImportedFile[], change: Change, only?: PendingItem): Promise<void> {
  const pending = pendingClashes(files).filter((p) => !only || p.item === only);
  const asCopy = new Map<PendingItem, PendingItem>(pending.map((p) => [p.item, { ...p.item, body: { ...p.item.body, id: undefined, data: documentOf(p.item.body.data) } }]));
  const back = new Map([...asCopy.entries()].map(([original, copy]) => [copy, original]));
  const keyOf = new Map(pending.map((p) => [p.item, p.key]));
  await sendItems(api, [...asCopy.values()], 'store', noProgress, (copy, outcome) => {
    const original = back.get(copy)!;
    change(keyOf.get(original)!, (f) => settle(f, original, 'clashes', outcome));
  });
}

/** The document inside an envelope (a new copy gets a new envelope and id). */
function documentOf(data: Record<string, unknown>): Record<string, unknown> {
  return (data.doc as Record<string, unknown> | undefined) ?? data;
}

/** Moves an item out of the waiting list into what became of it. */
function settle(f: ImportedFile, item: PendingItem, from: 'duplicates' | 'clashes', outcome: Outcome, of?: string): ImportedFile {
  const rest = from === 'duplicates' ? { ...f, duplicates: f.duplicates.filter((d) => d.item !== item) } : { ...f, clashes: f.clashes.filter((c) => c.item !== item) };
  if (outcome.status === 'created') return { ...rest, copies: [...rest.copies, { id: outcome.id, of: outcome.duplicate_of ?? of }] };
  return recordOutcome(rest, item, outcome);
}

/** Tries again to attach a file to the draft made for it. */
export async function retryAttach(api: ApiClient, file: ImportedFile, index: number, change: Change): Promise<void> {
  const error = file.errors[index];
  if (!error?.retry) return;
  try {
    await attach(api, error.retry.entryId, error.retry.file);
    const id = error.retry.entryId;
    change(file.key, (f) => ({ ...f, errors: f.errors.filter((_, i) => i !== index), created: [...f.created, id] }));
  } catch (err) {
    change(file.key, (f) => ({ ...f, errors: f.errors.map((e, i) => (i === index ? { ...e, message: `the draft was made, but the file could not be attached: ${(err as Error).message}` } : e)) }));
  }
}
