import { useSession } from '../../app/SessionContext.tsx';
import { useToast } from '../../ui/Toasts.tsx';

/** Where this install keeps its database and files (owners only see the path). */
export function DataSettings() {
  const { session, error } = useSession();
  const notify = useToast();
  const dir = session?.data_dir;
  return (
    <section className="card settings-card" aria-labelledby="data-title">
      <div className="card-header">
        <h2 id="data-title">Data</h2>
      </div>
      <div className="card-body settings-body">
        {dir ? (
          <>
            <p>Everything is kept in one folder on this computer:</p>
            <div className="path-row">
              <code className="data-dir">{dir}</code>
              <button type="button" className="btn btn-sm" onClick={() => navigator.clipboard.writeText(dir).then(() => notify('Copied the path'), () => notify('The clipboard is not available here', { kind: 'error' }))}>
                Copy
              </button>
            </div>
            <p className="muted">
              It holds <code>silodesk.db</code> (the database), <code>files/</code> (attachments) and <code>backups/</code>. Copying the folder while
              Silodesk is closed is a complete backup.
            </p>
          </>
        ) : (
          <p className="muted">{error ? 'The data folder cannot be shown right now.' : session ? 'Only the owner sees where the data lives.' : 'Loading…'}</p>
        )}
      </div>
    </section>
  );
}
