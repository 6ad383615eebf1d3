import { createContext, useContext, type ReactNode } from 'react';
import type { Session } from '../api/types.ts';
import { useApiQuery } from './useApiQuery.ts';
import { useChangeVersion } from './changes.ts';

interface SessionState {
  session?: Session;
  error?: unknown;
  reload(): void;
}

const SessionContext = createContext<SessionState>({ reload: () => {} });

/** Who the window acts as and for which company; screens degrade gracefully while it is unknown. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const companies = useChangeVersion('companies');
  const query = useApiQuery((api) => api.getSession(), [companies]);
  return <SessionContext.Provider value={{ session: query.data, error: query.error, reload: query.reload }}>{children}</SessionContext.Provider>;
}

export const useSession = (): SessionState => useContext(SessionContext);
