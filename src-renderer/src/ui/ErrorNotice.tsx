import { ApiClientError } from '../api/errors.ts';
import { Icon } from './Icon.tsx';

/** The message of an error as the service worded it. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiClientError) return capitalize(error.message);
  if (error instanceof Error) return capitalize(error.message);
  return String(error);
}

const capitalize = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

interface ErrorNoticeProps {
  error: unknown;
  /** list the field errors too (when the form does not show them next to its fields) */
  withFields?: boolean;
  onRetry?(): void;
}

/** An API error: its message, and the fields it names when asked. */
export function ErrorNotice({ error, withFields = true, onRetry }: ErrorNoticeProps) {
  if (!error) return null;
  const fields = error instanceof ApiClientError && withFields ? Object.entries(error.fields ?? {}) : [];
  return (
    <div className="notice notice-error" role="alert">
      <Icon name="alert" />
      <div className="notice-body">
        <p>{errorMessage(error)}</p>
        {fields.length > 0 && (
          <ul>
            {fields.map(([path, message]) => (
              <li key={path}>
                <code>{path}</code> {message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {onRetry && (
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The error the service gave for one field (`$.steps[0].name`), if any. */
export function fieldError(error: unknown, path: string): string | undefined {
  if (!(error instanceof ApiClientError) || !error.fields) return undefined;
  return error.fields[path] ?? error.fields[path.replace(/^\$\./, '')];
}
