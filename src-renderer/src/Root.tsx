import { useCallback, useEffect, useMemo, useState } from 'react';
import { App } from './app/App.tsx';
import type { ApiEnv } from './app/ApiContext.tsx';
import { createClient } from './api/client.ts';
import { chooseCompany, chosenCompany } from './api/company-choice.ts';
import { browserTokenEnv, forgetToken, initialToken, saveToken, storedToken, takeLoginCode } from './api/token.ts';
import { httpTransport, ipcTransport } from './api/transport.ts';
import type { SilodeskBridge } from '../../src-preload/api.ts';
import { errorMessage } from './ui/ErrorNotice.tsx';
import { TokenForm } from './TokenForm.tsx';

/** Picks the way to the service: the preload bridge in the desktop app, HTTP with a token in a browser. */
export function Root() {
  const bridge = window.silodesk;
  return bridge ? <DesktopRoot bridge={bridge} /> : <BrowserRoot />;
}

/** The desktop window is the local user of every company; the one it works for is chosen in Settings. */
function DesktopRoot({ bridge }: { bridge: SilodeskBridge }) {
  const [companyId, setCompanyId] = useState(chosenCompany);
  const env = useMemo<ApiEnv>(
    () => ({
      api: createClient(ipcTransport(bridge, { companyId: () => companyId })),
      transport: 'ipc',
      onCompanyChange: (id) => {
        chooseCompany(id);
        setCompanyId(id);
      },
    }),
    [bridge, companyId],
  );
  // A new company is a fresh app: no list, selection or cache of the previous one survives.
  return <App key={companyId ?? 'default'} env={env} />;
}

/**
 * A `#login=` code is single-use: the exchange starts once per page load (not once
 * per render, which React may repeat in development).
 */
let loginExchange: Promise<string> | undefined;

function exchangeLoginCode(code: string): Promise<string> {
  loginExchange ??= createClient(httpTransport({ token: () => undefined }))
    .exchangeLoginCode({ body: { code } })
    .then((answer) => answer.token);
  return loginExchange;
}

function BrowserRoot() {
  const tokenEnv = useMemo(browserTokenEnv, []);
  const [loginCode, setLoginCode] = useState(() => takeLoginCode(tokenEnv));
  const [token, setToken] = useState(() => initialToken(tokenEnv));
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    if (!loginCode) return;
    let current = true;
    exchangeLoginCode(loginCode).then(
      (fresh) => {
        if (!current) return;
        saveToken(tokenEnv, fresh);
        setToken(fresh);
        setLoginCode(undefined);
      },
      (error: unknown) => {
        if (!current) return;
        setNotice(`This sign-in link did not work: ${errorMessage(error)}. Sign-in links work once; start serve again for a new one, or enter a token.`);
        setLoginCode(undefined);
      },
    );
    return () => {
      current = false;
    };
  }, [loginCode, tokenEnv]);

  // A `#token=` or `#login=` link opened in a tab that already shows the UI changes only the fragment.
  useEffect(() => {
    const pickUp = () => {
      const code = takeLoginCode(tokenEnv);
      if (code) {
        loginExchange = undefined;
        setLoginCode(code);
        return;
      }
      if (!/[#&]token=/.test(window.location.hash)) return;
      setNotice(undefined);
      setToken(initialToken(tokenEnv));
    };
    window.addEventListener('hashchange', pickUp);
    return () => window.removeEventListener('hashchange', pickUp);
  }, [tokenEnv]);

  const applyToken = useCallback(
    (value: string) => {
      saveToken(tokenEnv, value);
      setNotice(undefined);
      setToken(value);
    },
    [tokenEnv],
  );

  const env = useMemo<ApiEnv | undefined>(
    () =>
      token
        ? {
            api: createClient(httpTransport({ token: () => token })),
            transport: 'http',
            // The one answer to a 401, whichever call got it (data/watched-client.ts). A late
            // refusal of an earlier token must not sign out the one entered since.
            onUnauthorized: () => {
              if (storedToken(tokenEnv) !== token) return;
              forgetToken(tokenEnv);
              setToken(undefined);
              setNotice('That token was not accepted. Enter a valid API token.');
            },
            onTokenChange: applyToken,
            onSignOut: () => {
              forgetToken(tokenEnv);
              setToken(undefined);
              setNotice('Signed out.');
            },
          }
        : undefined,
    [token, tokenEnv, applyToken],
  );

  if (loginCode) {
    return (
      <main className="token-screen" aria-busy="true">
        <p className="loading-line" role="status">
          <span className="spinner" aria-hidden="true" /> Signing in…
        </p>
      </main>
    );
  }
  if (!env) return <TokenForm notice={notice} onSubmit={applyToken} />;
  return <App key={token} env={env} />;
}
