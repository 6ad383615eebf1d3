import { useMemo, useState } from 'react';
import type { AnswerOf } from '../../api/client.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref } from '../../app/routes.ts';
import { useSession } from '../../app/SessionContext.tsx';
import { cursorPages, rowsOf, usePages } from '../../data/queries.ts';
import { formatBytes } from '../../format/count.ts';
import { formatDateTime, formatDay } from '../../format/date.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { EmptyState, Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { docKind } from '../entries/doc-kind.ts';
import { RetentionForm } from './RetentionForm.tsx';
import { viaLabel } from './via.ts';
import './trash.css';

type TrashItem = AnswerOf<'listTrash'>['list'][number];
type KindFilter = '' | 'entry' | 'file';

const KINDS: Array<{ value: KindFilter; label: string }> = [
  { value: '', label: 'All' },
  { value: 'entry', label: 'Entries' },
  { value: 'file', label: 'Files' },
];

/** What an item is called in the list: the document's kind and number, or the file's name on its document. */
function itemTitle(item: TrashItem): string {
  const doc = `${docKind(item.doc_schema, undefined)} ${item.number ?? ''}`.trim();
  if (item.kind === 'file') return item.name ?? item.file_id ?? 'File';
  return item.number ? doc : item.title || doc;
}

/**
 * The trash: entries and files moved there, who moved them and when they go for
 * good. Each can be restored; the owner can purge one now, empty the trash, and say
 * how long it keeps things.
 */
export function TrashScreen() {
  const api = useApi();
  const toast = useToast();
  const { session } = useSession();
  const owner = session?.caller.kind === 'owner';
  const [kind, setKind] = useState<KindFilter>('');
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [emptying, setEmptying] = useState(false);
  const pages = usePages(cursorPages('listTrash', { query: { kind: kind || undefined, limit: 50 } }), { keepShown: true });
  const items = useMemo(() => (pages.data ? rowsOf(pages.data) : undefined), [pages.data]);
  const retention = pages.data?.pages[0]?.retention_days;

  const act = async (id: string, run: () => Promise<unknown>, done: string) => {
    setBusy(id);
    setError(undefined);
    try {
      await run();
      toast(done, { kind: 'success' });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(undefined);
      void pages.refetch();
    }
  };
  const restore = (item: TrashItem) =>
    act(
      item.id,
      () => (item.kind === 'entry'
        ? api.restoreEntry({ params: { id: item.entry_id } })
        : api.restoreAttachment({ params: { entry_id: item.entry_id, id: item.file_id! } })),
      `${itemTitle(item)} restored`,
    );
  const purge = (item: TrashItem) => act(item.id, () => api.purgeTrash({ body: { items: [{ kind: item.kind, id: item.id }] } }), `${itemTitle(item)} deleted for good`);

  return (
    <section className="screen" aria-label="Trash">
      <div className="screen-scroll">
        <div className="page trash-page">
          <div className="page-header">
            <div>
              <h1>Trash</h1>
              <p>
                Entries and files moved here are out of every list, search and export, and can be restored.
                {retention !== undefined && <> They are deleted for good after {retention} {retention === 1 ? 'day' : 'days'}.</>}
              </p>
            </div>
            {owner && (
              <button type="button" className="btn btn-danger" disabled={!items?.length || !!busy} onClick={() => setEmptying(true)}>
                <Icon name="trash" /> Empty trash…
              </button>
            )}
          </div>
          <div className="trash-toolbar">
            <div className="segmented" role="radiogroup" aria-label="Show">
              {KINDS.map((k) => (
                <label key={k.value} className={kind === k.value ? 'is-on' : undefined}>
                  <input type="radio" name="trash-kind" value={k.value} checked={kind === k.value} onChange={() => setKind(k.value)} />
                  {k.label}
                </label>
              ))}
            </div>
            {owner && retention !== undefined && <RetentionForm days={retention} onSaved={() => void pages.refetch()} />}
          </div>
          <ErrorNotice error={error ?? pages.error} onRetry={pages.error ? () => void pages.refetch() : undefined} />
          {!items ? (
            <Loading label="Opening the trash…" />
          ) : items.length === 0 ? (
            <EmptyState icon="trash" title={kind ? 'Nothing of this kind in the trash' : 'The trash is empty'}>
              Move an entry here from its page (“Move to trash”); it stays restorable until the retention ends.
            </EmptyState>
          ) : (
            <table className="data-table trash-table">
              <caption className="visually-hidden">In the trash</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Moved to the trash</th>
                  <th scope="col">By</th>
                  <th scope="col">Deleted for good</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <div className="trash-item">
                        <Icon name={item.kind === 'entry' ? 'file' : 'image'} />
                        <div>
                          <strong className="ellipsis">{itemTitle(item)}</strong>
                          <span className="muted small">
                            {item.kind === 'entry'
                              ? [item.title && item.number ? item.title.replace(/^[^—]*—\s*/, '') : '', item.folder, item.files ? `${item.files} ${item.files === 1 ? 'file' : 'files'}` : '']
                                  .filter(Boolean)
                                  .join(' · ')
                              : <>
                                  {formatBytes(item.size)} · on <a href={entryHref(item.entry_id, 'files')}>{item.number ?? item.title ?? 'its entry'}</a>
                                </>}
                          </span>
                        </div>
                      </div>
                    </td>
                    <td className="nowrap">{formatDateTime(item.trashed_at)}</td>
                    <td>
                      <span className="ellipsis">{item.trashed_by.name || '—'}</span>
                      <span className="muted small"> {viaLabel(item.trashed_by.via)}</span>
                    </td>
                    <td className="nowrap">{formatDay(item.purge_at.slice(0, 10))}</td>
                    <td className="trash-actions">
                      <button type="button" className="btn btn-sm" disabled={!!busy} onClick={() => void restore(item)} aria-label={`Restore ${itemTitle(item)}`}>
                        <Icon name="refresh" /> Restore
                      </button>
                      {owner && (
                        <button type="button" className="btn btn-sm btn-ghost" disabled={!!busy} onClick={() => void purge(item)} aria-label={`Delete ${itemTitle(item)} for good`}>
                          Delete now
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {pages.hasNextPage && (
            <button type="button" className="btn load-more" disabled={pages.isFetching} onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}>
              Load more
            </button>
          )}
        </div>
      </div>
      <Dialog
        open={emptying}
        title="Empty the trash?"
        onClose={() => setEmptying(false)}
        footer={
          <>
            <button type="button" className="btn" onClick={() => setEmptying(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setEmptying(false);
                void act('all', () => api.purgeTrash({ body: {} }), 'The trash is empty');
              }}
            >
              Delete everything for good
            </button>
          </>
        }
      >
        <p>Everything in the trash is deleted for good, here and on every instance this company syncs with. It cannot be undone.</p>
      </Dialog>
    </section>
  );
}
