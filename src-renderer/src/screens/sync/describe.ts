import { formatBytes, formatCount, plural } from '../../format/count.ts';
import type { SyncStatus } from './SyncStatusProvider.tsx';

export type SyncTone = 'good' | 'bad' | 'warn' | 'info' | 'busy' | 'plain';

/** What the badge says for a status, its colour, and a longer line for its tooltip. */
export function describeSync(status: SyncStatus): { label: string; tone: SyncTone; detail: string } {
  switch (status.state) {
    case 'not-configured':
      return { label: 'Sync not set up', tone: 'plain', detail: 'This company does not sync with another Silodesk' };
    case 'syncing':
      return { label: `Syncing${progressShort(status)}`, tone: 'busy', detail: progressLine(status) || 'Syncing' };
    case 'error':
      if (!status.last_error && status.forks > 0) {
        return { label: plural(status.forks, 'forked number', 'forked numbers'), tone: 'bad', detail: 'A series number was issued twice; both are kept' };
      }
      return {
        label: status.parked > 0 && !status.last_error ? plural(status.parked, 'parked change', 'parked changes') : 'Sync error',
        tone: 'bad',
        detail: status.last_error?.message ?? `${plural(status.parked, 'change was', 'changes were')} refused and kept aside`,
      };
    case 'offline':
      return { label: 'Offline', tone: 'warn', detail: status.last_error?.message ?? 'The remote cannot be reached' };
    case 'paused':
      return { label: 'Sync paused', tone: 'plain', detail: 'Automatic sync is paused' };
    case 'conflicts':
      return { label: plural(status.conflicts, 'conflict', 'conflicts'), tone: 'warn', detail: 'Both sides changed the same record, or took the same key: decide on the Sync screen' };
    case 'pending':
      return { label: `${formatCount(status.pending)} pending`, tone: 'info', detail: `${plural(status.pending, 'change', 'changes')} not synced yet` };
    case 'synced':
      return { label: 'Synced', tone: 'good', detail: 'Everything is synced' };
  }
}

/** " 3/10" while pushing, "" before the counts mean anything. */
function progressShort(status: SyncStatus): string {
  const p = status.progress;
  if (!p) return '…';
  if (p.phase === 'push' && p.pending_at_start > 0) return ` ${formatCount(p.pushed)}/${formatCount(p.pending_at_start)}`;
  if (p.phase === 'pull' && p.pulled > 0) return ` ↓${formatCount(p.pulled)}`;
  return '…';
}

const PHASES = { connect: 'Connecting', push: 'Sending', pull: 'Receiving', done: 'Finishing' } as const;

/** "Sending: 3 of 10 records sent, 12 KB up, 0 B down". */
export function progressLine(status: SyncStatus): string {
  const p = status.progress;
  if (!p) return '';
  return `${PHASES[p.phase]}: ${formatCount(p.pushed)} of ${plural(p.pending_at_start, 'record', 'records')} sent, ${plural(p.pulled, 'record', 'records')} received (${formatBytes(p.bytes_sent)} up, ${formatBytes(p.bytes_received)} down)`;
}
