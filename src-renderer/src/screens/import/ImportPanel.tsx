import { useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { notifyChanged } from '../../app/changes.ts';
import { entryHref } from '../../app/routes.ts';
import { formatBytes, formatCount, plural } from '../../format/count.ts';
import { errorMessage } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { importAsCopy, type ImportedFile } from './importer.ts';
import type { ImportRun } from './ImportProvider.tsx';

interface ImportPanelProps {
  run: ImportRun;
  onStop(): void;
  onClose(): void;
  onFileChange(key: number, change: (f: ImportedFile) => ImportedFile): void;
}

/** The import's progress bar and, for every file, what happened to it. */
export function ImportPanel({ run, onStop, onClose, onFileChange }: ImportPanelProps) {
  const files = run.files;
  const created = files.reduce((n, f) => n + f.created.length + f.duplicates.length, 0);
  const existing = files.reduce((n, f) => n + f.existing.length, 0);
  const failed = files.reduce((n, f) => n + f.errors.length, 0);
  const duplicates = files.reduce((n, f) => n + f.duplicates.length, 0);

  return (
    <section className="import-panel card" aria-labelledby="import-title">
      <header className="card-header">
        <h2 id="import-title">{run.running ? 'Importing…' : 'Import finished'}</h2>
        {run.running ? (
          <button type="button" className="btn btn-sm" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button type="button" className="icon-btn" aria-label="Close the import results" onClick={onClose}>
            <Icon name="x" />
          </button>
        )}
      </header>
      <div className="import-progress">
        <progress aria-label="Import progress" max={Math.max(run.total, 1)} value={run.running ? run.done : Math.max(run.total, 1)} />
        <p className="muted" role="status">
          {run.running
            ? run.phase
            : [
                plural(created, 'entry', 'entries') + ' added',
                existing ? `${formatCount(existing)} already there` : '',
                duplicates ? `${formatCount(duplicates)} duplicate${duplicates === 1 ? '' : 's'}` : '',
                failed ? `${formatCount(failed)} failed` : '',
              ]
                .filter(Boolean)
                .join(' · ')}
        </p>
      </div>
      <ul className="import-files" aria-label="Imported files">
        {files.map((file) => (
          <FileRow key={file.key} file={file} onChange={(change) => onFileChange(file.key, change)} />
        ))}
      </ul>
    </section>
  );
}

function FileRow({ file, onChange }: { file: ImportedFile; onChange(change: (f: ImportedFile) => ImportedFile): void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const tone = file.errors.length ? 'bad' : file.duplicates.length ? 'warn' : file.phase === 'done' ? 'good' : 'busy';
  const single = file.documents <= 1;

  async function copy(index: number) {
    const error = file.errors[index];
    if (!error?.data) return;
    setBusy(true);
    try {
      const result = await importAsCopy(api, error.data);
      onChange((f) => {
        const errors = f.errors.filter((_, i) => i !== index);
        if (result.status === 'error') return { ...f, errors: [...errors, { message: result.error?.message ?? 'not stored' }] };
        if (result.duplicate_of) return { ...f, errors, duplicates: [...f.duplicates, { id: result.id, of: result.duplicate_of }] };
        return { ...f, errors, created: [...f.created, result.id!] };
      });
      notifyChanged('entries', 'folders');
    } catch (err) {
      onChange((f) => ({ ...f, errors: f.errors.map((e, i) => (i === index ? { ...e, message: errorMessage(err), data: undefined } : e)) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`import-file tone-${tone}`} data-file={file.name}>
      <div className="import-file-head">
        <Icon name={file.errors.length ? 'alert' : file.phase === 'done' ? 'check' : 'file'} />
        <span className="ellipsis import-file-name" title={file.name}>
          {file.name}
        </span>
        <span className="muted nowrap">{formatBytes(file.size)}</span>
      </div>
      <div className="import-file-body">
        {file.phase !== 'done' && <span className="muted">{file.phase === 'waiting' ? 'Waiting' : 'Working…'}</span>}
        {!single && file.phase === 'done' && <span className="muted">{plural(file.documents, 'document', 'documents')}: </span>}
        {file.created.length > 0 &&
          (single ? (
            <span>
              Imported · <a href={entryHref(file.created[0])}>Open</a>
            </span>
          ) : (
            <span>{formatCount(file.created.length)} imported</span>
          ))}
        {file.existing.length > 0 &&
          (single ? (
            <span>
              Already imported · <a href={entryHref(file.existing[0])}>Open</a>
            </span>
          ) : (
            <span>{formatCount(file.existing.length)} already imported</span>
          ))}
        {file.duplicates.map((d, i) => (
          <span key={i} className="import-warning" role="note">
            <Icon name="alert" /> This document is already stored: <a href={entryHref(d.of)}>see the earlier entry</a>
            {d.id && (
              <>
                {' '}
                · <a href={entryHref(d.id)}>the new copy</a>
              </>
            )}
          </span>
        ))}
        {file.errors.map((e, i) => (
          <span key={i} className="import-error">
            {errorMessage(new Error(e.message))}
            {e.fields && (
              <ul>
                {Object.entries(e.fields)
                  .slice(0, 4)
                  .map(([path, message]) => (
                    <li key={path}>
                      <code>{path}</code> {message}
                    </li>
                  ))}
              </ul>
            )}
            {e.data && (
              <button type="button" className="btn btn-sm" disabled={busy} onClick={() => copy(i)}>
                Import as a new copy
              </button>
            )}
          </span>
        ))}
      </div>
    </li>
  );
}
