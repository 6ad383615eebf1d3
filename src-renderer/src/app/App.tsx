import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { createQueryClient, writeBatcher } from '../data/query-client.ts';
import { watchedClient } from '../data/watched-client.ts';
import { ApiProvider, type ApiEnv } from './ApiContext.tsx';
import { AppHeader } from './AppHeader.tsx';
import { useShortcuts } from './keyboard.ts';
import { navigate, useRoute } from './routes.ts';
import { SessionProvider } from './SessionContext.tsx';
import { ShortcutsHelp } from './ShortcutsHelp.tsx';
import { ToastProvider } from '../ui/Toasts.tsx';
import { EditorScreen } from '../screens/editor/EditorScreen.tsx';
import { EntriesScreen } from '../screens/entries/EntriesScreen.tsx';
import { ImportProvider, useImport } from '../screens/import/ImportProvider.tsx';
import { JobsScreen } from '../screens/jobs/JobsScreen.tsx';
import { SeriesScreen } from '../screens/series/SeriesScreen.tsx';
import { SettingsScreen } from '../screens/settings/SettingsScreen.tsx';
import { SyncScreen } from '../screens/sync/SyncScreen.tsx';
import { SyncStatusProvider } from '../screens/sync/SyncStatusProvider.tsx';
import { TrashScreen } from '../screens/trash/TrashScreen.tsx';
import { WorkflowsScreen } from '../screens/workflows/WorkflowsScreen.tsx';

/**
 * The whole UI for one company, over whichever transport the window has. Its server
 * state lives in one query cache, made with the App (a new company or token is a new
 * App, so nothing of the previous one survives); every call goes through the watched
 * client, which invalidates what a write affects and hands a 401 to the one handler.
 */
export function App({ env }: { env: ApiEnv }) {
  const [queryClient] = useState(createQueryClient);
  const watched = useMemo<ApiEnv>(
    () => ({ ...env, api: watchedClient(env.api, { onUnauthorized: env.onUnauthorized, onWrite: writeBatcher(queryClient) }) }),
    [env, queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider value={watched}>
        <ToastProvider>
          <SessionProvider>
            <ImportProvider>
              <SyncStatusProvider>
                <Shell />
              </SyncStatusProvider>
            </ImportProvider>
          </SessionProvider>
        </ToastProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}

function Shell() {
  const route = useRoute();
  const [help, setHelp] = useState(false);
  const importer = useImport();

  useShortcuts(true, {
    '?': () => setHelp(true),
    i: () => importer.pickFiles(),
    n: () => navigate({ screen: 'editor' }),
    '/': (event) => {
      event.preventDefault();
      if (route.screen !== 'entries' || route.entryId) navigate({ screen: 'entries' });
      // After the route change has rendered the list.
      requestAnimationFrame(() => document.getElementById('entry-search')?.focus());
    },
  });

  return (
    <div className="app">
      <AppHeader screen={route.screen} onHelp={() => setHelp(true)} />
      <main className="app-main" id="main">
        {/* The entry list stays mounted so its pages, scroll and selection survive a visit elsewhere. */}
        <EntriesScreen route={route.screen === 'entries' ? route : undefined} />
        {route.screen === 'workflows' && <WorkflowsScreen workflowId={route.workflowId} />}
        {route.screen === 'jobs' && <JobsScreen jobId={route.jobId} />}
        {route.screen === 'series' && <SeriesScreen seriesId={route.seriesId} />}
        {route.screen === 'settings' && <SettingsScreen />}
        {route.screen === 'sync' && <SyncScreen />}
        {route.screen === 'trash' && <TrashScreen />}
        {route.screen === 'editor' && <EditorScreen key={route.entryId ?? 'new'} entryId={route.entryId} />}
      </main>
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
