import { useState, type FormEvent } from 'react';

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
      <form className="token-form" onSubmit={submit} aria-labelledby="token-title">
        <h1 id="token-title">Silodesk</h1>
        <p>
          Enter an API token to open this Silodesk. <code>npm run serve</code> writes one to{' '}
          <code>api-token</code> in its data folder.
        </p>
        {notice && (
          <p className="notice" role="alert">
            {notice}
          </p>
        )}
        <label htmlFor="token-input">API token</label>
        <input
          id="token-input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" disabled={!value.trim()}>
          Open
        </button>
      </form>
    </main>
  );
}
