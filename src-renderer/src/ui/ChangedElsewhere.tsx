import { ApiClientError } from '../api/errors.ts';
import { Icon } from './Icon.tsx';

/**
 * The `If-Match` of an edit: the entry's version as this screen shows it. The
 * service refuses the edit (412) when the entry has changed since, on another
 * screen, another client or through sync, instead of overwriting that change.
 */
export const ifMatchOf = (entry: { version: string }): string => `"${entry.version}"`;

/** The answer to an edit based on a version that is no longer the entry's. */
export const isChangedElsewhere = (error: unknown): boolean => error instanceof ApiClientError && error.key === 'precondition-failed';

/** What the person sees then: the entry changed elsewhere, and a way to load it as it is now. */
export function ChangedElsewhere({ onReload }: { onReload(): void }) {
  return (
    <div className="notice notice-warning" role="alert">
      <Icon name="alert" />
      <div className="notice-body">
        <p>Changed elsewhere — reload to see the latest version, then make your change again.</p>
      </div>
      <button type="button" className="btn btn-sm" onClick={onReload}>
        Reload
      </button>
    </div>
  );
}
