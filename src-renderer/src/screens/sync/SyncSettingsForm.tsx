import { useState, type FormEvent } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { ErrorNotice, errorMessage, fieldError } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import type { ConnectionTest, SyncSettings } from './SyncStatusProvider.tsx';

/** Where and how this company syncs. The token is write-only: the form only says whether one is saved. */
export function SyncSettingsForm({ current, onSaved }: { current: SyncSettings; onSaved(next: SyncSettings): void }) {
  const api = useApi();
  const notify = useToast();
  const [url, setUrl] = useState(current.remote_url);
  const [token, setToken] = useState('');
  const [interval, setIntervalText] = useState(String(current.configured ? current.interval_minutes : 15));
  const [paused, setPaused] = useState(current.paused);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<ConnectionTest | { ok: false; error: { kind: string; message: string } }>();
  const [confirmForget, setConfirmForget] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const minutes = interval.trim() === '' ? NaN : Number(interval);
      const saved = await api.putSyncSettings({
        body: { remote_url: url.trim(), ...(token ? { token } : {}), interval_minutes: minutes, paused },
      });
      setToken('');
      onSaved(saved);
      notify(current.configured ? 'Sync settings saved' : 'Sync set up', { kind: 'success' });
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  async function testConnection() {
    setTesting(true);
    setTest(undefined);
    try {
      // What is typed, or what is stored when a field is left as it was.
      const body = { ...(url.trim() ? { remote_url: url.trim() } : {}), ...(token ? { token } : {}) };
      setTest(await api.testSyncConnection({ body }));
    } catch (err) {
      setTest({ ok: false, error: { kind: 'request', message: errorMessage(err) } });
    } finally {
      setTesting(false);
    }
  }

  async function forget() {
    setError(undefined);
    try {
      const next = await api.deleteSyncSettings();
      setConfirmForget(false);
      onSaved(next);
      notify('Sync turned off; what was synced stays');
    } catch (err) {
      setError(err);
    }
  }

  const tokenHint = current.has_token ? 'A token is saved. Leave empty to keep it; type a new one to replace it.' : "A token of the company on the remote (its API token).";
  return (
    <form className="sync-form" onSubmit={save} noValidate>
      <Field label="Remote URL" error={fieldError(error, '$.remote_url')} hint="The remote Silodesk's address, e.g. https://silodesk.example.com (http:// only for this computer).">
        {(a11y) => (
          <input {...a11y} className="input" type="url" inputMode="url" autoComplete="off" spellCheck={false} value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://" />
        )}
      </Field>
      <Field
        label={
          <>
            Token {current.has_token && <span className="badge tone-good token-saved">saved</span>}
          </>
        }
        error={fieldError(error, '$.token')}
        hint={tokenHint}
      >
        {(a11y) => (
          <input
            {...a11y}
            className="input"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            value={token}
            onChange={(event) => setToken(event.target.value)}
            placeholder={current.has_token ? '•••••••• (saved)' : ''}
          />
        )}
      </Field>
      <div className="sync-form-row">
        <Field label="Sync every (minutes)" error={fieldError(error, '$.interval_minutes')} hint="0 syncs only when you ask.">
          {(a11y) => <input {...a11y} className="input interval-input" type="number" min={0} max={1440} step={1} value={interval} onChange={(event) => setIntervalText(event.target.value)} />}
        </Field>
        <label className="switch">
          <input type="checkbox" role="switch" checked={paused} onChange={(event) => setPaused(event.target.checked)} />
          <span className="switch-track" aria-hidden="true" />
          Pause automatic sync
        </label>
      </div>
      <ErrorNotice error={error} withFields={false} />
      <div className="form-actions start">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {current.configured ? 'Save' : 'Set up sync'}
        </button>
        <button type="button" className="btn" onClick={testConnection} disabled={testing || (!url.trim() && !current.configured)}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        {current.configured &&
          (confirmForget ? (
            <>
              <button type="button" className="btn btn-danger" onClick={forget}>
                Forget the remote
              </button>
              <button type="button" className="btn btn-ghost" onClick={() => setConfirmForget(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-ghost" onClick={() => setConfirmForget(true)}>
              Turn sync off…
            </button>
          ))}
      </div>
      <div className="sync-test-result" role="status" aria-live="polite">
        {test &&
          (test.ok ? (
            <div className="notice notice-success" data-testid="connection-result">
              <Icon name="check" />
              <div className="notice-body">
                <p>
                  Connected to <strong>{'remote_company' in test && test.remote_company ? test.remote_company.name : 'the remote'}</strong>
                  {'latency_ms' in test && test.latency_ms !== undefined ? ` in ${test.latency_ms} ms` : ''}
                  {'caller_kind' in test && test.caller_kind ? ` (token of a ${test.caller_kind})` : ''}.
                </p>
              </div>
            </div>
          ) : (
            <div className="notice notice-error" data-testid="connection-result">
              <Icon name="alert" />
              <div className="notice-body">
                <p>
                  Connection failed{test.error ? ` (${test.error.kind})` : ''}: {test.error ? capitalize(test.error.message) : 'no answer'}
                </p>
              </div>
            </div>
          ))}
      </div>
    </form>
  );
}

const capitalize = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);
