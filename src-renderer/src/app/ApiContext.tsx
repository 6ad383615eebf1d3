import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../api/client.ts';

/** How the window reaches the service, and what it may change about that. */
export interface ApiEnv {
  api: ApiClient;
  /** `ipc` in the desktop app (switching company allowed), `http` in a browser (one token, one company) */
  transport: 'ipc' | 'http';
  /** browser: the token was refused, ask for another (called by the watched client alone: data/watched-client.ts) */
  onUnauthorized?: () => void;
  /** browser: open the UI with another token (another company) */
  onTokenChange?: (token: string) => void;
  /** browser: forget the token (back to the sign-in form) */
  onSignOut?: () => void;
  /** desktop: act for another company from now on */
  onCompanyChange?: (companyId: string) => void;
}

const ApiContext = createContext<ApiEnv | null>(null);

export function ApiProvider({ value, children }: { value: ApiEnv; children: ReactNode }) {
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApiEnv(): ApiEnv {
  const env = useContext(ApiContext);
  if (!env) throw new Error('useApiEnv outside ApiProvider');
  return env;
}

export const useApi = (): ApiClient => useApiEnv().api;
