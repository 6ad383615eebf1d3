import { createContext, useContext, type ReactNode } from 'react';
import type { Session } from '../api/types.ts';
import { useApiQuery } from '../data/queries.ts';

interface SessionState {
  session?: Session;
  error?: unknown;
}

const SessionContext = createContext<SessionState>({});

/** Who the window acts as and for which company (a rename refreshes it: invalidation.ts); screens degrade gracefully while it is unknown. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const query = useApiQuery('getSession');
  return <SessionContext.Provider value={{ session: query.data, error: query.error ?? undefined }}>{children}</SessionContext.Provider>;
}

export const useSession = (): SessionState => useContext(SessionContext);
