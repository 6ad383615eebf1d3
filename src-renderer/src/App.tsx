import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient, ClientOutput } from './api/client.ts';
import { ApiClientError } from './api/errors.ts';
import type { Operations } from '../../src-main/core/api/contract/index.ts';

type Entry = ClientOutput<Operations['listEntries']>['list'][number];
type Folder = ClientOutput<Operations['listFolders']>['list'][number];

interface AppProps {
  api: ApiClient;
  /** the browser UI asks for a new token; the desktop app never gets this */
  onUnauthorized?: () => void;
}

const PAGE_SIZE = 20;

/** First screen: folders and the newest entries. The full UI comes later. */
export function App({ api, onUnauthorized }: AppProps) {
  const [folders, setFolders] = useState<Folder[]>([]);
  const [folder, setFolder] = useState<string>();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [nextCursor, setNextCursor] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  // Answers for a folder the user has already left are dropped.
  const generation = useRef(0);

  const fail = useCallback(
    (err: unknown) => {
      if (err instanceof ApiClientError && err.key === 'unauthorized' && onUnauthorized) onUnauthorized();
      else setError(err instanceof Error ? err.message : String(err));
    },
    [onUnauthorized],
  );

  const loadPage = useCallback(
    async (cursor: string | undefined) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(undefined);
      try {
        const page = await api.listEntries({ query: { limit: PAGE_SIZE, folder, cursor } });
        if (mine !== generation.current) return;
        setEntries((shown) => (cursor ? [...shown, ...page.list] : page.list));
        setNextCursor(page.next_cursor || undefined);
      } catch (err) {
        if (mine === generation.current) fail(err);
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    [api, folder, fail],
  );

  useEffect(() => {
    api.listFolders().then((answer) => setFolders(answer.list), fail);
  }, [api, fail]);

  useEffect(() => {
    setEntries([]);
    setNextCursor(undefined);
    void loadPage(undefined);
  }, [loadPage]);

  return (
    <div className="app">
      <header className="app-header">
        <h1>Silodesk</h1>
      </header>
      <div className="app-body">
        <nav className="folders" aria-label="Folders">
          <h2>Folders</h2>
          <ul>
            <li>
              <button type="button" aria-pressed={folder === undefined} onClick={() => setFolder(undefined)}>
                All entries
              </button>
            </li>
            {folders.map((f) => (
              <li key={f.folder}>
                <button type="button" aria-pressed={folder === f.folder} onClick={() => setFolder(f.folder)}>
                  <span>{f.folder}</span>
                  <span className="count">{f.count}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <main className="entries">
          <h2>{folder ?? 'Newest entries'}</h2>
          {error && (
            <p className="notice" role="alert">
              {error}
            </p>
          )}
          {!loading && !error && entries.length === 0 ? (
            <p className="empty">No entries yet — import GOBL documents with the API (see README)</p>
          ) : (
            <EntryTable entries={entries} />
          )}
          {nextCursor && (
            <button type="button" className="load-more" disabled={loading} onClick={() => void loadPage(nextCursor)}>
              Load more
            </button>
          )}
          {loading && <p className="loading">Loading…</p>}
        </main>
      </div>
    </div>
  );
}

function EntryTable({ entries }: { entries: Entry[] }) {
  if (entries.length === 0) return null;
  return (
    <table className="entry-table">
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Title</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td className="date">{entry.snippet.issue_date ?? entry.created_at.slice(0, 10)}</td>
            <td>{entry.snippet.title || entry.id}</td>
            <td>
              <span className={`state state-${entry.state}`}>{entry.state}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
