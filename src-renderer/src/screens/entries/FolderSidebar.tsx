import type { Folder } from '../../api/types.ts';
import { formatCount } from '../../format/count.ts';
import { Icon } from '../../ui/Icon.tsx';

interface FolderSidebarProps {
  folders: Folder[];
  current?: string;
  onSelect(folder: string | undefined): void;
}

/** Folders with their entry counts; "All entries" on top. */
export function FolderSidebar({ folders, current, onSelect }: FolderSidebarProps) {
  const total = folders.reduce((sum, f) => sum + f.count, 0);
  return (
    <nav className="folder-sidebar" aria-label="Folders">
      <h2 className="section-title">Folders</h2>
      <ul>
        <li>
          <button type="button" aria-pressed={current === undefined} onClick={() => onSelect(undefined)}>
            <Icon name="inbox" />
            <span className="ellipsis">All entries</span>
            <span className="count">{formatCount(total)}</span>
          </button>
        </li>
        {folders.map((f) => (
          <li key={f.folder}>
            <button type="button" aria-pressed={current === f.folder} onClick={() => onSelect(f.folder)} title={f.folder}>
              <Icon name="folder" />
              <span className="ellipsis">{f.folder || '(no folder)'}</span>
              <span className="count">{formatCount(f.count)}</span>
            </button>
          </li>
        ))}
      </ul>
      {folders.length === 0 && <p className="muted sidebar-hint">Folders appear as entries arrive.</p>}
    </nav>
  );
}
