import { formatCount, plural } from '../../format/count.ts';
import { Icon } from '../../ui/Icon.tsx';

interface SelectionBarProps {
  count: number;
  loaded: number;
  allLoadedSelected: boolean;
  hasMore: boolean;
  allMatching: boolean;
  /** how many entries match, when known */
  total?: number;
  onAllMatching(on: boolean): void;
  onMove(): void;
  onTag(): void;
  onRun(): void;
  /** export the selection as a ZIP or CSV */
  onExport?(): void;
  onClear(): void;
}

/** What can be done with the selected entries; offers "all matching" once every loaded one is selected. */
export function SelectionBar(props: SelectionBarProps) {
  const { count, loaded, allLoadedSelected, hasMore, allMatching, total, onAllMatching, onMove, onTag, onRun, onExport, onClear } = props;
  const label = allMatching ? (total !== undefined ? `All ${formatCount(total)} matching entries selected` : 'All matching entries selected') : `${plural(count, 'entry', 'entries')} selected`;
  return (
    <div className="selection-bar" role="region" aria-label="Selection">
      <strong aria-live="polite">{label}</strong>
      {allLoadedSelected && hasMore && !allMatching && (
        <button type="button" className="link-btn" onClick={() => onAllMatching(true)}>
          Select all {total !== undefined ? formatCount(total) : ''} matching entries
        </button>
      )}
      {allMatching && loaded < (total ?? Infinity) && (
        <button type="button" className="link-btn" onClick={() => onAllMatching(false)}>
          Only the {formatCount(loaded)} loaded
        </button>
      )}
      <div className="selection-actions">
        <button type="button" className="btn btn-sm" onClick={onMove}>
          <Icon name="folder" /> Move to folder…
        </button>
        <button type="button" className="btn btn-sm" onClick={onTag}>
          <Icon name="tag" /> Tag…
        </button>
        <button type="button" className="btn btn-sm" onClick={onRun}>
          <Icon name="play" /> Run workflow…
        </button>
        {onExport && (
          <button type="button" className="btn btn-sm" onClick={onExport}>
            <Icon name="download" /> Export…
          </button>
        )}
        <button type="button" className="btn btn-sm btn-ghost" onClick={onClear}>
          Clear selection
        </button>
      </div>
    </div>
  );
}
