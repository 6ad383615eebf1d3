import { useState, type FormEvent } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { errorMessage } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { Popover } from './Popover.tsx';
import type { SavedView, ViewBody } from './views.ts';

interface ViewsMenuProps {
  views: readonly SavedView[];
  /** the view the list shows exactly now, if any */
  activeId?: string;
  /** the list as it is now, to save under a name */
  current(name: string): ViewBody;
  onApply(view: SavedView): void;
}

/**
 * Saved views of the list (filters, columns and sort), kept per company by the
 * service: apply one, save the list as it is (a name already used replaces that view),
 * or delete one.
 */
export function ViewsMenu({ views, activeId, current, onApply }: ViewsMenuProps) {
  const api = useApi();
  const notify = useToast();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    setBusy(true);
    setError(undefined);
    try {
      const same = views.find((v) => v.name === trimmed);
      const saved = await api.putView({ params: { id: same?.id ?? crypto.randomUUID() }, body: current(trimmed) });
      notify(same ? `Replaced the view ${saved.name}` : `Saved the view ${saved.name}`, { kind: 'success' });
      setName('');
      onApply(saved);
      setOpen(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove(view: SavedView) {
    try {
      await api.deleteView({ params: { id: view.id } });
      notify(`Deleted the view ${view.name}`);
    } catch (err) {
      notify(`Could not delete the view: ${errorMessage(err)}`, { kind: 'error' });
    }
  }

  return (
    <Popover label="Views" icon={<Icon name="folder" />} open={open} onOpenChange={setOpen}>
      {views.length === 0 ? (
        <p className="muted views-empty">No saved views yet. Set filters, columns and order, then save them here.</p>
      ) : (
        <ul className="plain-list view-list" aria-label="Saved views">
          {views.map((view) => (
            <li key={view.id}>
              <button
                type="button"
                className="view-apply"
                aria-pressed={view.id === activeId}
                onClick={() => {
                  onApply(view);
                  setOpen(false);
                }}
              >
                {view.name}
              </button>
              <button type="button" className="icon-btn" aria-label={`Delete the view ${view.name}`} onClick={() => void remove(view)}>
                <Icon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="view-save" onSubmit={save}>
        <label htmlFor="view-name">Save the list as it is</label>
        <div className="view-save-row">
          <input id="view-name" className="input" placeholder="View name" maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
          <button type="submit" className="btn btn-sm btn-primary" disabled={busy || !name.trim()}>
            Save view
          </button>
        </div>
        {error && <p className="field-error">{error}</p>}
      </form>
    </Popover>
  );
}
