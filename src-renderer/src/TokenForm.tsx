import { useState, type FormEvent } from 'react';
import './token-form.css';

interface TokenFormProps {
  notice?: string;
  onSubmit(token: string): void;
}

/** Asks for the API token when the browser UI was opened without one. */
export function TokenForm({ notice, onSubmit }: TokenFormProps) {
  const [value, setValue] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    const token = value.trim();
    if (token) onSubmit(token);
  }

  return (
    <main className="token-screen">
      <form className="token-form card" onSubmit={submit} aria-labelledby="token-title">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            S
          </span>
          <h1 id="token-title">Silodesk</h1>
        </div>
        <p>
          Open the sign-in link <code>npm run serve</code> printed, or enter an API token. <code>serve</code> writes
          the owner's token to <code>api-token</code> in its data folder.
        </p>
        {notice && (
          <p className="notice notice-error" role="alert">
            {notice}
          </p>
        )}
        <div className="field">
          <label htmlFor="token-input">API token</label>
          <input
            id="token-input"
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={!value.trim()}>
          Open
        </button>
      </form>
    </main>
  );
}
