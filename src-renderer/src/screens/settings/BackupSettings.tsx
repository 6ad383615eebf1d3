import { useEffect, useState } from 'react';
import type { Operations } from '../../../../src-main/core/api/contract/index.ts';
import type { ClientOutput } from '../../api/client.ts';
import { ApiClientError } from '../../api/errors.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { useApiQuery, useShowAnswer } from '../../data/queries.ts';
import { formatBytes, formatCount } from '../../format/count.ts';
import { formatDateTime } from '../../format/date.ts';
import { Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { useToast } from '../../ui/Toasts.tsx';

type BackupStatus = ClientOutput<Operations['getBackup']>;

/** The scheduled backup of the data folder: where, how often, how many; its last run; "back up now". Install owners only. */
export function BackupSettings() {
  const api = useApi();
  const toast = useToast();
  const status = useApiQuery('getBackup');
  const show = useShowAnswer('getBackup');
  const [form, setForm] = useState({ folder: '', every_hours: '24', keep: '7', enabled: false });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<'save' | 'run'>();
  const current = status.data;

  useEffect(() => {
    if (!current) return;
    const s = current.settings;
    setForm({ folder: s.folder, every_hours: String(s.every_hours), keep: String(s.keep), enabled: s.enabled });
  }, [current?.settings.folder, current?.settings.every_hours, current?.settings.keep, current?.settings.enabled]);

  // Only the install's owner manages the data folder's backups: for others the card is not shown.
  if (status.error instanceof ApiClientError && (status.error.key === 'not-found' || status.error.key === 'forbidden')) return null;

  const act = async (kind: 'save' | 'run', call: () => Promise<BackupStatus>, done: string) => {
    setBusy(kind);
    setError(undefined);
    try {
      show(await call());
      toast(done, { kind: 'success' });
    } catch (err) {
      setError(err);
      if (kind === 'run') void status.refetch();
    } finally {
      setBusy(undefined);
    }
  };
  const fields = error instanceof ApiClientError ? (error.fields ?? {}) : {};
  const last = current?.last;

  return (
    <section className="card settings-card" aria-labelledby="backup-title">
      <div className="card-header">
        <h2 id="backup-title">Backups</h2>
      </div>
      {/* The form shows the settings once they are known: typing into it before would be overwritten by them. */}
      {!current ? (
        <div className="card-body settings-body">{status.error ? <ErrorNotice error={status.error} onRetry={() => void status.refetch()} /> : <Loading />}</div>
      ) : (
        <form
          className="card-body settings-body"
          aria-label="Backup settings"
          onSubmit={(event) => {
            event.preventDefault();
            void act('save', () => api.putBackupSettings({ body: { folder: form.folder, every_hours: Number(form.every_hours), keep: Number(form.keep), enabled: form.enabled } }), 'Backup settings saved');
          }}
        >
          <p className="muted">A consistent copy of the database, the attachments and the keys, taken while you work, into a folder of your choice (best on another disk).</p>
          <Field label="Backup folder" error={fields['$.folder']} hint="An absolute path outside the data folder; made if missing">
            {(c) => <input {...c} className="input" name="backup-folder" value={form.folder} onChange={(e) => setForm({ ...form, folder: e.target.value })} placeholder="/home/you/Backups/silodesk" />}
          </Field>
          <div className="form-grid">
            <Field label="Every (hours)" error={fields['$.every_hours']}>
              {(c) => <input {...c} className="input" type="number" min={1} max={720} value={form.every_hours} onChange={(e) => setForm({ ...form, every_hours: e.target.value })} />}
            </Field>
            <Field label="Keep the last" error={fields['$.keep']}>
              {(c) => <input {...c} className="input" type="number" min={1} max={365} value={form.keep} onChange={(e) => setForm({ ...form, keep: e.target.value })} />}
            </Field>
          </div>
          <label className="check">
            <input type="checkbox" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />
            Back up on this schedule while Silodesk runs
          </label>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={!!busy}>
              {busy === 'save' ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn" disabled={!!busy || !current?.settings.folder} onClick={() => act('run', () => api.runBackup(), 'Backup written')}>
              {busy === 'run' ? 'Backing up…' : 'Back up now'}
            </button>
          </div>
          {error !== undefined && Object.keys(fields).length === 0 && <ErrorNotice error={error} />}
          <div className="backup-status" role="status">
            {last ? (
              <p>
                {last.ok ? 'Last backup' : 'The last backup failed'} {formatDateTime(last.at)}
                {last.ok && last.name ? <> into <code>{last.name}</code></> : null}
                {!last.ok && last.error ? `: ${last.error}` : ''}
                {last.missing_files ? ` (${formatCount(last.missing_files)} files were gone when copied)` : ''}
              </p>
            ) : (
              <p className="muted">No backup taken yet.</p>
            )}
            {current?.next_at && <p className="muted">Next one {formatDateTime(current.next_at)}.</p>}
          </div>
          {current && current.backups.length > 0 && (
            <table className="backup-list">
              <caption className="visually-hidden">Backups kept</caption>
              <thead>
                <tr>
                  <th scope="col">Taken</th>
                  <th scope="col">Entries</th>
                  <th scope="col">Files</th>
                  <th scope="col">Size</th>
                </tr>
              </thead>
              <tbody>
                {current.backups.map((b) => (
                  <tr key={b.name} title={b.path}>
                    <td>{formatDateTime(b.created_at)}</td>
                    <td>{formatCount(b.entries)}</td>
                    <td>{formatCount(b.files)}</td>
                    <td>{formatBytes(b.bytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </form>
      )}
    </section>
  );
}
