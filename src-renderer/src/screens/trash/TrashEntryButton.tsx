import { useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { navigate } from '../../app/routes.ts';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';

/**
 * "Move to trash" on an entry's page: the entry leaves every list at once, the page
 * goes back to the list, and the toast offers to undo (restore) while it shows.
 */
export function TrashEntryButton({ entryId, label }: { entryId: string; label: string }) {
  const api = useApi();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn"
      disabled={busy}
      title="Move to the trash (restorable until the retention ends)"
      onClick={async () => {
        setBusy(true);
        try {
          await api.trashEntry({ params: { id: entryId } });
          navigate({ screen: 'entries' });
          toast(`${label} moved to the trash`, {
            action: {
              label: 'Undo',
              run: () => void api.restoreEntry({ params: { id: entryId } }).then(() => toast(`${label} restored`, { kind: 'success' })),
            },
          });
        } catch (err) {
          toast((err as Error).message, { kind: 'error' });
        } finally {
          setBusy(false);
        }
      }}
    >
      <Icon name="trash" /> Move to trash
    </button>
  );
}
