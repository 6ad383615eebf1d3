import { routeHref } from '../../app/routes.ts';
import { formatRelative } from '../../format/date.ts';
import { Icon } from '../../ui/Icon.tsx';
import { describeSync } from './describe.ts';
import { useSyncStatus } from './SyncStatusProvider.tsx';

/** Settings' pointer to the Sync screen, with the state in one line. */
export function SyncSettingsCard() {
  const { status, allowed } = useSyncStatus();
  if (!allowed) return null;
  const configured = status?.configured ?? false;
  const described = status && configured ? describeSync(status) : undefined;
  return (
    <section className="card settings-card" aria-labelledby="sync-card-title">
      <div className="card-header">
        <h2 id="sync-card-title">Sync</h2>
      </div>
      <div className="card-body settings-body">
        <p className="muted">Keep this company in step with another Silodesk: an office server, or a colleague's install.</p>
        {described && status && (
          <p>
            <span className={`badge tone-${described.tone}`}>{described.label}</span>{' '}
            {status.last_success_at ? <span className="muted">Last synced {formatRelative(status.last_success_at)}</span> : null}
          </p>
        )}
        <div>
          <a className="btn" href={routeHref({ screen: 'sync' })}>
            <Icon name="cloud" />
            {configured ? 'Open sync' : 'Set up sync'}
          </a>
        </div>
      </div>
    </section>
  );
}
