import { useCallback, useEffect, useMemo, useState } from 'react';
import { App } from './App.tsx';
import { createClient, type ApiClient } from './api/client.ts';
import { browserTokenEnv, forgetToken, initialToken, saveToken } from './api/token.ts';
import { httpTransport, ipcTransport } from './api/transport.ts';
import { TokenForm } from './TokenForm.tsx';

/** Picks the way to the service: the preload bridge in the desktop app, HTTP with a token in a browser. */
export function Root() {
  const bridge = window.silodesk;
  const desktopApi = useMemo(() => (bridge ? createClient(ipcTransport(bridge)) : undefined), [bridge]);
  if (desktopApi) return <App api={desktopApi} />;
  return <BrowserRoot />;
}

function BrowserRoot() {
  const env = useMemo(browserTokenEnv, []);
  const [token, setToken] = useState(() => initialToken(env));
  const [notice, setNotice] = useState<string>();

  const api: ApiClient = useMemo(() => createClient(httpTransport({ token: () => token })), [token]);

  // A `#token=…` link opened in a tab that already shows the UI changes only the fragment.
  useEffect(() => {
    const pickUp = () => {
      if (!/[#&]token=/.test(window.location.hash)) return;
      setNotice(undefined);
      setToken(initialToken(env));
    };
    window.addEventListener('hashchange', pickUp);
    return () => window.removeEventListener('hashchange', pickUp);
  }, [env]);

  const onUnauthorized = useCallback(() => {
    forgetToken(env);
    setToken(undefined);
    setNotice('That token was not accepted. Enter a valid API token.');
  }, [env]);

  if (!token) {
    return (
      <TokenForm
        notice={notice}
        onSubmit={(value) => {
          saveToken(env, value);
          setNotice(undefined);
          setToken(value);
        }}
      />
    );
  }
  return <App api={api} onUnauthorized={onUnauthorized} />;
}
