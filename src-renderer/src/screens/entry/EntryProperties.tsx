import { useState, type FormEvent } from 'react';
import type { Entry, EntryPatch } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { formatDateTime } from '../../format/date.ts';
import { ChangedElsewhere, ifMatchOf, isChangedElsewhere } from '../../ui/ChangedElsewhere.tsx';
import { ErrorNotice, fieldError } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { ENTRY_STATES } from '../../ui/StatusBadge.tsx';
import { TagEditor } from '../../ui/TagEditor.tsx';
import { useToast } from '../../ui/Toasts.tsx';

interface EntryPropertiesProps {
  entry: Entry;
  onSaved(entry: Entry): void;
}

type Change = Pick<EntryPatch, 'state' | 'folder' | 'tags'>;

/** State, folder and tags (each saved as soon as it changes), then the entry's facts. */
export function EntryProperties({ entry, onSaved }: EntryPropertiesProps) {
  const api = useApi();
  const notify = useToast();
  const [folder, setFolder] = useState(entry.folder);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();

  async function save(change: Change, message: string) {
    setSaving(true);
    setError(undefined);
    try {
      // Based on the version shown: a change made elsewhere meanwhile is a 412, never overwritten.
      const saved = await api.patchEntry({ params: { id: entry.id }, headers: { 'if-match': ifMatchOf(entry) }, body: change });
      // This view takes the answer as is; the list, folder counts and related entries follow by invalidation.
      onSaved(saved);
      notify(message, { kind: 'success' });
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  function submitFolder(event: FormEvent) {
    event.preventDefault();
    const target = folder.trim();
    if (target && target !== entry.folder) void save({ folder: target }, `Moved to ${target}`);
  }

  const states = ENTRY_STATES.includes(entry.state) ? ENTRY_STATES : [entry.state, ...ENTRY_STATES];
  return (
    <section className="entry-properties" aria-label="Properties">
      <Field label="State" error={fieldError(error, '$.state')}>
        {(a11y) => (
          <select {...a11y} className="select" value={entry.state} disabled={saving} onChange={(event) => save({ state: event.target.value }, `State set to ${event.target.value}`)}>
            {states.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </Field>
      <form onSubmit={submitFolder}>
        <Field label="Folder" error={fieldError(error, '$.folder')}>
          {(a11y) => (
            <div className="inline-form">
              <input {...a11y} className="input" value={folder} onChange={(event) => setFolder(event.target.value)} autoComplete="off" />
              <button type="submit" className="btn btn-sm" disabled={saving || !folder.trim() || folder.trim() === entry.folder}>
                Move
              </button>
            </div>
          )}
        </Field>
      </form>
      <div className="field">
        <span className="field-label">Tags</span>
        <TagEditor tags={entry.tags} disabled={saving} onChange={(tags) => save({ tags }, 'Tags saved')} />
        {fieldError(error, '$.tags') && <span className="field-error">{fieldError(error, '$.tags')}</span>}
      </div>
      {isChangedElsewhere(error) ? (
        <ChangedElsewhere onReload={() => api.getEntry({ params: { id: entry.id } }).then((fresh) => { setError(undefined); setFolder(fresh.folder); onSaved(fresh); }, setError)} />
      ) : (
        error !== undefined && !fieldError(error, '$.state') && !fieldError(error, '$.folder') && !fieldError(error, '$.tags') && <ErrorNotice error={error} />
      )}

      <h3 className="section-title">Details</h3>
      <dl className="kv entry-facts">
        <dt>Added</dt>
        <dd>{formatDateTime(entry.created_at)}</dd>
        <dt>Updated</dt>
        <dd>
          {formatDateTime(entry.updated_at)} <span className="muted">(version {entry.version})</span>
        </dd>
        <dt>Signed</dt>
        <dd>{entry.signed ? 'Yes' : 'No'}</dd>
        <dt>Valid</dt>
        <dd>{entry.invalid ? <span className="negative">No, see faults</span> : 'Yes'}</dd>
        {entry.draft && (
          <>
            <dt>Draft</dt>
            <dd>Yes</dd>
          </>
        )}
        <dt>Schema</dt>
        <dd className="mono">{entry.doc_schema.replace(/^https?:\/\//, '') || '—'}</dd>
        {entry.key && (
          <>
            <dt>Key</dt>
            <dd className="mono">{entry.key}</dd>
          </>
        )}
        <dt>Entry ID</dt>
        <dd className="mono">{entry.id}</dd>
        <dt>Digest</dt>
        <dd className="mono" title={entry.digest.val}>
          {entry.digest.alg} {entry.digest.val.slice(0, 16)}…
        </dd>
      </dl>
    </section>
  );
}
