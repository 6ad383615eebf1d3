import { useState, type FormEvent } from 'react';
import { ApiClientError } from '../../api/errors.ts';
import { useApi, useApiEnv } from '../../app/ApiContext.tsx';
import { useSession } from '../../app/SessionContext.tsx';
import { useApiQuery } from '../../data/queries.ts';
import { ErrorNotice, fieldError } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { useToast } from '../../ui/Toasts.tsx';

/**
 * The company the window works for. In the desktop app the window is the local
 * user of every company and can switch; in a browser a token is bound to one
 * company, so another company means another token.
 */
export function CompanySettings() {
  const { transport } = useApiEnv();
  const { session, error } = useSession();
  const owner = session?.caller.kind === 'owner';

  return (
    <section className="card settings-card" aria-labelledby="company-title">
      <div className="card-header">
        <h2 id="company-title">Company</h2>
      </div>
      <div className="card-body settings-body">
        {error !== undefined && !session && <ErrorNotice error={error} />}
        {session && (
          <>
            <p className="current-company">
              Working on <strong>{session.company.name}</strong>
              <span className="muted">
                {' '}
                as {session.caller.kind}
                {transport === 'http' ? ' (this browser session’s token)' : ''}
              </span>
            </p>
            {owner && <RenameCompany id={session.company.id} name={session.company.name} />}
          </>
        )}
        {transport === 'ipc' ? <DesktopCompanies currentId={session?.company.id} /> : <BrowserCompanies owner={owner} />}
      </div>
    </section>
  );
}

function RenameCompany({ id, name }: { id: string; name: string }) {
  const api = useApi();
  const notify = useToast();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<unknown>();

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      await api.renameCompany({ params: { id }, body: { name: value.trim() } });
      notify('Company renamed', { kind: 'success' });
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form className="inline-form settings-inline" onSubmit={save}>
      <Field label="Company name" error={fieldError(error, '$.name')}>
        {(a11y) => <input {...a11y} className="input" value={value} onChange={(event) => setValue(event.target.value)} />}
      </Field>
      <button type="submit" className="btn" disabled={!value.trim() || value.trim() === name}>
        Rename
      </button>
      <ErrorNotice error={error} withFields={false} />
    </form>
  );
}

/** Desktop: every company of this install, one click to switch, and a way to add one. */
function DesktopCompanies({ currentId }: { currentId?: string }) {
  const { onCompanyChange } = useApiEnv();
  const api = useApi();
  const companies = useApiQuery('listCompanies');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      const created = await api.createCompany({ body: { name: name.trim() } });
      setName('');
      onCompanyChange?.(created.id);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <ErrorNotice error={companies.error} />
      {companies.data && (
        <fieldset className="company-list">
          <legend>Switch company</legend>
          {companies.data.list.map((c) => (
            <label key={c.id} className="check">
              <input type="radio" name="company" checked={c.id === currentId} onChange={() => onCompanyChange?.(c.id)} />
              {c.name}
            </label>
          ))}
        </fieldset>
      )}
      <form className="inline-form settings-inline" onSubmit={create}>
        <Field label="Add a client company" error={fieldError(error, '$.name')}>
          {(a11y) => <input {...a11y} className="input" value={name} placeholder="Company name" onChange={(event) => setName(event.target.value)} />}
        </Field>
        <button type="submit" className="btn" disabled={!name.trim()}>
          Add and switch
        </button>
      </form>
      <ErrorNotice error={error} withFields={false} />
    </>
  );
}

/** Browser: a token opens one company. Owners see the others and can add one (its token is shown once). */
function BrowserCompanies({ owner }: { owner: boolean }) {
  const { onTokenChange, onSignOut } = useApiEnv();
  const api = useApi();
  const notify = useToast();
  const companies = useApiQuery('listCompanies', undefined, { enabled: owner });
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const [error, setError] = useState<unknown>();

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      const company = await api.createCompany({ body: { name: name.trim() } });
      setName('');
      setCreated({ name: company.name, token: company.owner_token });
    } catch (err) {
      setError(err);
    }
  }

  const forbidden = companies.error instanceof ApiClientError && companies.error.key === 'forbidden';
  return (
    <>
      {owner && companies.data && companies.data.list.length > 1 && (
        <div>
          <h3 className="section-title">Companies of this install</h3>
          <ul className="plain-list">
            {companies.data.list.map((c) => (
              <li key={c.id}>{c.name}</li>
            ))}
          </ul>
        </div>
      )}
      {companies.error && !forbidden && <ErrorNotice error={companies.error} />}
      <form
        className="inline-form settings-inline"
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) onTokenChange?.(token.trim());
        }}
      >
        <Field label="Open another company with its token" hint="Tokens are bound to one company.">
          {(a11y) => <input {...a11y} className="input" type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} />}
        </Field>
        <button type="submit" className="btn" disabled={!token.trim()}>
          Open
        </button>
      </form>
      {owner && (
        <form className="inline-form settings-inline" onSubmit={create}>
          <Field label="Add a client company" error={fieldError(error, '$.name')}>
            {(a11y) => <input {...a11y} className="input" value={name} placeholder="Company name" onChange={(event) => setName(event.target.value)} />}
          </Field>
          <button type="submit" className="btn" disabled={!name.trim()}>
            Add
          </button>
        </form>
      )}
      <ErrorNotice error={error} withFields={false} />
      {created && (
        <div className="notice notice-success" role="status">
          <div className="notice-body">
            <p>
              <strong>{created.name}</strong> was added. Its owner token is shown only this once:
            </p>
            <code className="token-once">{created.token}</code>
            <div className="form-actions start">
              <button type="button" className="btn btn-sm" onClick={() => navigator.clipboard.writeText(created.token).then(() => notify('Copied the token'), () => notify('The clipboard is not available here', { kind: 'error' }))}>
                Copy
              </button>
              <button type="button" className="btn btn-sm btn-primary" onClick={() => onTokenChange?.(created.token)}>
                Open {created.name}
              </button>
            </div>
          </div>
        </div>
      )}
      {onSignOut && (
        <div>
          <button type="button" className="btn btn-ghost" onClick={onSignOut}>
            Sign out of this browser session
          </button>
        </div>
      )}
    </>
  );
}
