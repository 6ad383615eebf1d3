import { routeHref } from '../../app/routes.ts';
import { Icon } from '../../ui/Icon.tsx';
import { describeSync } from './describe.ts';
import { useSyncStatus } from './SyncStatusProvider.tsx';

/** The header's sync state; a link to the Sync screen. Quiet when sync is not set up, absent when not allowed. */
export function SyncBadge() {
  const { status, allowed } = useSyncStatus();
  if (!allowed || !status) return null;
  const href = routeHref({ screen: 'sync' });
  if (status.state === 'not-configured') {
    return (
      <a className="sync-setup-link" href={href}>
        <Icon name="cloud" />
        Sync not set up
      </a>
    );
  }
  const { label, tone, detail } = describeSync(status);
  return (
    <a className={`sync-badge badge tone-${tone}`} href={href} title={detail} aria-label={`Sync: ${label}. ${detail}`} data-state={status.state}>
      {label}
    </a>
  );
}
