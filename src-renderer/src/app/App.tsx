import { useState } from 'react';
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
import { WorkflowsScreen } from '../screens/workflows/WorkflowsScreen.tsx';

/** The whole UI for one company, over whichever transport the window has. */
export function App({ env }: { env: ApiEnv }) {
  return (
    <ApiProvider value={env}>
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
        {route.screen === 'editor' && <EditorScreen key={route.entryId ?? 'new'} entryId={route.entryId} />}
      </main>
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
