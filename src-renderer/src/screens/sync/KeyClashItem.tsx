import { useState, type FormEvent } from 'react';
import type { ConflictResolution } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDateTime, formatRelative } from '../../format/date.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { JsonView } from '../../ui/JsonView.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import type { SyncConflict } from './SyncStatusProvider.tsx';


const DONE: Record<string, string> = {
  remote: "Kept the remote's entry; yours is in the trash, without its key",
  mine: "Kept yours; the remote's entry goes to the trash, without its key",
  'rename-mine': 'Your entry has its new key; both are kept',
  'rename-theirs': "The remote's entry has its new key; both are kept",
};

/**
 * Two entries, one from the remote and one here, that took the same key while
 * apart. The remote's waits (not applied) until a person merges them (one is kept
 * with the key, the other goes to the trash without it) or renames one of them.
 */
export function KeyClashItem({ conflict }: { conflict: SyncConflict }) {
  const api = useApi();
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState(false);
  const [which, setWhich] = useState<'mine' | 'theirs'>('mine');
  const theirs = conflict.loser as { key?: string };
  const key = theirs.key ?? '';
  const [newKey, setNewKey] = useState(`${key}-2`);

  async function resolve(how: ConflictResolution) {
    setBusy(true);
    setError(undefined);
    try {
      const done = await api.resolveSyncConflict({ params: { id: conflict.id }, body: how });
      notify(DONE[done.resolution ?? ''] ?? 'Resolved', { kind: 'success' });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  function rename(event: FormEvent) {
    event.preventDefault();
    void resolve({ rename: { which, key: newKey.trim() } });
  }

  return (
    <li className="sync-item" aria-label={`Key clash on ${key}`}>
      <div className="sync-item-main">
        <div className="sync-item-title">
          <span className="badge tone-warn">key clash</span>
          <code className="ellipsis">{key}</code>
        </div>
        <p className="muted sync-item-meta">
          The remote's entry <code>{conflict.record_id.slice(0, 8)}</code> (not applied yet) and{' '}
          {conflict.other_entry_id ? <a href={entryHref(conflict.other_entry_id)}>yours</a> : 'yours'} both took this key ·{' '}
          <time dateTime={conflict.created_at} title={formatDateTime(conflict.created_at)}>
            {formatRelative(conflict.created_at)}
          </time>
        </p>
        <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide both entries' : 'Compare both entries'}
        </button>
        {open && <ClashCompare conflict={conflict} />}
        <form className="sync-rename" onSubmit={rename}>
          <label>
            Rename{' '}
            <select value={which} onChange={(e) => setWhich(e.target.value as 'mine' | 'theirs')} aria-label="Which entry to rename">
              <option value="mine">mine</option>
              <option value="theirs">the remote's</option>
            </select>{' '}
            to <input value={newKey} onChange={(e) => setNewKey(e.target.value)} aria-label="New key" required maxLength={255} />
          </label>
          <button type="submit" className="btn btn-sm" disabled={busy || newKey.trim() === '' || newKey.trim() === key}>
            Rename, keep both
          </button>
        </form>
        <ErrorNotice error={error} />
      </div>
      <div className="sync-item-actions">
        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => resolve({ keep: 'remote' })} aria-label={`Keep the remote's entry for ${key}`}>
          Keep theirs
        </button>
        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => resolve({ keep: 'mine' })} aria-label={`Keep my entry for ${key}`}>
          Keep mine
        </button>
      </div>
    </li>
  );
}

function ClashCompare({ conflict }: { conflict: SyncConflict }) {
  const mine = useApiQuery('getSyncRecord', { params: { kind: 'entry', id: conflict.other_entry_id ?? '' } }, { enabled: !!conflict.other_entry_id });
  return (
    <div className="sync-compare">
      <div>
        <h3 className="section-title">Remote's (waiting)</h3>
        <JsonView value={conflict.loser} expandDepth={1} label="The remote's entry" />
      </div>
      <div>
        <h3 className="section-title">Mine</h3>
        <ErrorNotice error={mine.error} />
        {mine.data?.record !== undefined && <JsonView value={mine.data.record} expandDepth={1} label="My entry" />}
      </div>
    </div>
  );
}
