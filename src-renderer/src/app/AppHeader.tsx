import { routeHref, type Screen } from './routes.ts';
import { useSession } from './SessionContext.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { useImport } from '../screens/import/ImportProvider.tsx';
import { SyncBadge } from '../screens/sync/SyncBadge.tsx';
import '../screens/sync/sync.css';

const NAV: Array<{ screen: Screen; label: string; icon: IconName }> = [
  { screen: 'entries', label: 'Entries', icon: 'inbox' },
  { screen: 'workflows', label: 'Workflows', icon: 'flow' },
  { screen: 'jobs', label: 'Jobs', icon: 'clock' },
  { screen: 'series', label: 'Series', icon: 'hash' },
  { screen: 'trash', label: 'Trash', icon: 'trash' },
  { screen: 'settings', label: 'Settings', icon: 'settings' },
];

export function AppHeader({ screen, onHelp }: { screen: Screen; onHelp(): void }) {
  const { session } = useSession();
  const importer = useImport();
  return (
    <header className="app-header">
      <a className="brand" href={routeHref({ screen: 'entries' })}>
        <span className="brand-mark" aria-hidden="true">
          S
        </span>
        Silodesk
      </a>
      <nav className="main-nav" aria-label="Main">
        <ul>
          {NAV.map((item) => (
            <li key={item.screen}>
              <a href={routeHref({ screen: item.screen } as Parameters<typeof routeHref>[0])} aria-current={item.screen === screen ? 'page' : undefined}>
                <Icon name={item.icon} />
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="header-end">
        <SyncBadge />
        <a className="btn" href={routeHref({ screen: 'editor' })} title="New invoice (n)">
          <Icon name="plus" />
          New invoice
        </a>
        <button type="button" className="btn btn-primary" onClick={importer.pickFiles}>
          <Icon name="upload" />
          Import
        </button>
        <button type="button" className="icon-btn" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={onHelp}>
          <Icon name="keyboard" />
        </button>
        {session && (
          <a className="company-pill ellipsis" href={routeHref({ screen: 'settings' })} title={`Company: ${session.company.name}`}>
            <span className="visually-hidden">Company: </span>
            {session.company.name}
          </a>
        )}
      </div>
    </header>
  );
}
