import { useState, type FormEvent } from 'react';
import type { LocalApi } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { useApiQuery, useShowAnswer } from '../../data/queries.ts';
import { ErrorNotice, fieldError } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { useToast } from '../../ui/Toasts.tsx';

/** The desktop app's localhost HTTP API: off by default; on, it listens on 127.0.0.1 only and needs a token. */
export function LocalApiSettings() {
  const query = useApiQuery('getLocalApi');
  const show = useShowAnswer('getLocalApi');
  return (
    <section className="card settings-card" aria-labelledby="local-api-title">
      <div className="card-header">
        <h2 id="local-api-title">Local API</h2>
      </div>
      <div className="card-body settings-body">
        <p className="muted">
          Lets scripts, spreadsheets and accounting software on this computer use Silodesk over HTTP. It listens on 127.0.0.1 only and every call
          needs an API token.
        </p>
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        {query.data && <LocalApiForm key={`${query.data.enabled}/${query.data.port}`} current={query.data} onSaved={show} />}
      </div>
    </section>
  );
}

function LocalApiForm({ current, onSaved }: { current: LocalApi; onSaved(value: LocalApi): void }) {
  const api = useApi();
  const notify = useToast();
  const [enabled, setEnabled] = useState(current.enabled);
  const [port, setPort] = useState(String(current.port));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const saved = await api.setLocalApi({ body: { enabled, port: Number(port) } });
      onSaved(saved);
      notify(saved.enabled ? `Local API on at ${saved.url ?? `port ${saved.port}`}` : 'Local API off', { kind: 'success' });
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  if (!current.configurable) {
    return (
      <p>
        This instance's port is set on the command line{current.url ? `: ${current.url}` : ''}.
      </p>
    );
  }
  return (
    <form className="settings-form" onSubmit={save}>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        Serve the API on this computer
      </label>
      <Field label="Port" error={fieldError(error, '$.port')} hint="1024–65535">
        {(a11y) => <input {...a11y} className="input port-input" type="number" min={1024} max={65535} value={port} onChange={(event) => setPort(event.target.value)} />}
      </Field>
      <p className="muted" role="status">
        {current.running ? `Listening at ${current.url ?? `http://127.0.0.1:${current.port}`}` : 'Not listening'}
      </p>
      <ErrorNotice error={error} withFields={false} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          Apply
        </button>
      </div>
    </form>
  );
}
