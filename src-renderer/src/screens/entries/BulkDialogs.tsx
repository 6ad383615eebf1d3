import { useState, type FormEvent } from 'react';
import type { Entry } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { plural } from '../../format/count.ts';
import { ifMatchOf } from '../../ui/ChangedElsewhere.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorNotice, errorMessage } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { TagEditor } from '../../ui/TagEditor.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { BulkProgress } from './BulkProgress.tsx';
import { entryLabel, namedMessage } from './doc-kind.ts';
import { useBulkRun, type BulkOutcome } from './bulk.ts';

/** The entries a bulk action works on: the selected rows, or every match (fetched page by page). */
export type ResolveTargets = (signal: AbortSignal, onProgress: (loaded: number) => void) => Promise<Entry[]>;

interface BulkDialogProps {
  open: boolean;
  count: number;
  resolve: ResolveTargets;
  onClose(): void;
  onDone(): void;
}

function useResolvedRun() {
  const run = useBulkRun();
  const [error, setError] = useState<unknown>();

  async function execute(resolve: ResolveTargets, label: string, work: (entry: Entry) => Promise<unknown>): Promise<BulkOutcome<Entry> | undefined> {
    setError(undefined);
    try {
      run.setPhase('Finding the entries…');
      const targets = await resolve(run.signal(), (loaded) => run.setPhase('Finding the entries…', 0, loaded));
      return await run.start(label, targets, work);
    } catch (err) {
      if ((err as Error)?.name !== 'AbortError') setError(err);
      run.cancel();
      return undefined;
    }
  }
  return { run, error, setError, execute };
}

function summarize(outcome: BulkOutcome<Entry>, verb: string): string {
  const ok = outcome.done - outcome.failures.length;
  let text = `${verb} ${plural(ok, 'entry', 'entries')}`;
  const first = outcome.failures[0];
  if (first) text += `; ${outcome.failures.length} failed: ${entryLabel(first.item)}: ${namedMessage(errorMessage(first.error), first.item)}`;
  if (outcome.cancelled) text += ' (cancelled)';
  return text;
}

/** Moves the selected entries to a folder (an existing one or a new name). */
export function MoveDialog({ open, count, resolve, onClose, onDone, folders }: BulkDialogProps & { folders: string[] }) {
  const api = useApi();
  const notify = useToast();
  const [folder, setFolder] = useState('');
  const { run, error, execute } = useResolvedRun();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const target = folder.trim();
    if (!target) return;
    const outcome = await execute(resolve, `Moving to ${target}…`, (entry) =>
      entry.folder === target ? Promise.resolve() : api.patchEntry({ params: { id: entry.id }, headers: { 'if-match': ifMatchOf(entry) }, body: { folder: target } }),
    );
    if (!outcome) return;
    notify(summarize(outcome, `Moved to ${target}:`), { kind: outcome.failures.length ? 'error' : 'success' });
    setFolder('');
    onDone();
  }

  return (
    <Dialog
      open={open}
      title={`Move ${plural(count, 'entry', 'entries')}`}
      onClose={run.running ? run.cancel : onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={run.running ? run.cancel : onClose}>
            {run.running ? 'Stop' : 'Cancel'}
          </button>
          <button type="submit" form="move-form" className="btn btn-primary" disabled={run.running || !folder.trim()}>
            Move
          </button>
        </>
      }
    >
      <form id="move-form" onSubmit={submit} className="dialog-form">
        <Field label="Folder" hint="Pick one or type a new name.">
          {(a11y) => (
            <input {...a11y} className="input" list="move-folders" value={folder} onChange={(event) => setFolder(event.target.value)} autoComplete="off" />
          )}
        </Field>
        <datalist id="move-folders">
          {folders.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
      </form>
      <BulkProgress run={run} />
      <ErrorNotice error={error} />
    </Dialog>
  );
}

/** Adds and removes tags on the selected entries, keeping each entry's other tags. */
export function TagDialog({ open, count, resolve, onClose, onDone, knownTags }: BulkDialogProps & { knownTags: string[] }) {
  const api = useApi();
  const notify = useToast();
  const [add, setAdd] = useState<string[]>([]);
  const [remove, setRemove] = useState<string[]>([]);
  const { run, error, execute } = useResolvedRun();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (add.length === 0 && remove.length === 0) return;
    const outcome = await execute(resolve, 'Tagging…', (entry) => {
      const tags = [...entry.tags.filter((t) => !remove.includes(t)), ...add.filter((t) => !entry.tags.includes(t))];
      const same = tags.length === entry.tags.length && tags.every((t) => entry.tags.includes(t));
      return same ? Promise.resolve() : api.patchEntry({ params: { id: entry.id }, headers: { 'if-match': ifMatchOf(entry) }, body: { tags } });
    });
    if (!outcome) return;
    notify(summarize(outcome, 'Tagged'), { kind: outcome.failures.length ? 'error' : 'success' });
    setAdd([]);
    setRemove([]);
    onDone();
  }

  return (
    <Dialog
      open={open}
      title={`Tag ${plural(count, 'entry', 'entries')}`}
      onClose={run.running ? run.cancel : onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={run.running ? run.cancel : onClose}>
            {run.running ? 'Stop' : 'Cancel'}
          </button>
          <button type="submit" form="tag-form" className="btn btn-primary" disabled={run.running || (add.length === 0 && remove.length === 0)}>
            Apply
          </button>
        </>
      }
    >
      <form id="tag-form" onSubmit={submit} className="dialog-form">
        <div className="field">
          <span className="field-label">Add tags</span>
          <TagEditor tags={add} onChange={setAdd} suggestions={knownTags} label="Tag to add" />
        </div>
        <div className="field">
          <span className="field-label">Remove tags</span>
          <TagEditor tags={remove} onChange={setRemove} suggestions={knownTags} label="Tag to remove" />
        </div>
      </form>
      <BulkProgress run={run} />
      <ErrorNotice error={error} />
    </Dialog>
  );
}
