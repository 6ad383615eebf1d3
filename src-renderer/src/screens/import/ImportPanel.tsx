import { useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref } from '../../app/routes.ts';
import { formatBytes, formatCount, plural } from '../../format/count.ts';
import { errorMessage } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { importClashesAsCopies, importDuplicatesAsCopies, pendingClashes, pendingDuplicates, retryAttach, skipAllDuplicates } from './decisions.ts';
import type { ImportedFile } from './importer.ts';
import type { ImportRun } from './ImportProvider.tsx';
import { importSummary } from './summary.ts';

type FileChange = (key: number, change: (f: ImportedFile) => ImportedFile) => void;

interface ImportPanelProps {
  run: ImportRun;
  onStop(): void;
  onClose(): void;
  onFileChange: FileChange;
}

/** The import's progress bar, the decisions it waits for, and for every file what happened to it. */
export function ImportPanel({ run, onStop, onClose, onFileChange }: ImportPanelProps) {
  const files = run.files;
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
          {run.running ? run.phase : importSummary(files)}
        </p>
      </div>
      {!run.running && <Decisions files={files} onFileChange={onFileChange} />}
      <ul className="import-files" aria-label="Imported files">
        {files.map((file) => (
          <FileRow key={file.key} file={file} onFileChange={onFileChange} />
        ))}
      </ul>
    </section>
  );
}

/**
 * One decision for every document the company holds already ("skip all" or "import all
 * as new copies"), and one for every envelope whose id belongs to another document.
 */
function Decisions({ files, onFileChange }: { files: ImportedFile[]; onFileChange: FileChange }) {
  const api = useApi();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const duplicates = pendingDuplicates(files);
  const clashes = pendingClashes(files);
  if (duplicates.length === 0 && clashes.length < 2 && !error) return null;

  async function act(label: string, work: () => Promise<void>) {
    setBusy(label);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div className="import-decisions" role="group" aria-label="Decide for all">
      {duplicates.length > 0 && (
        <div className="import-decision tone-warn">
          <p>
            <Icon name="alert" /> {duplicates.length === 1 ? 'One document is' : `${formatCount(duplicates.length)} documents are`} already stored (the same
            document, or the same file under another name). Nothing was stored for {duplicates.length === 1 ? 'it' : 'them'}.
          </p>
          <div className="decision-actions">
            <button type="button" className="btn btn-sm" disabled={!!busy} onClick={() => skipAllDuplicates(files, onFileChange)}>
              Skip all duplicates
            </button>
            <button
              type="button"
              className="btn btn-sm"
              disabled={!!busy}
              onClick={() => void act('copies', () => importDuplicatesAsCopies(api, files, onFileChange))}
            >
              {busy === 'copies' ? 'Importing…' : `Import all ${formatCount(duplicates.length)} as new copies`}
            </button>
          </div>
        </div>
      )}
      {clashes.length >= 2 && (
        <div className="import-decision tone-warn">
          <p>
            <Icon name="alert" /> {plural(clashes.length, 'envelope has', 'envelopes have')} an id another document already uses.
          </p>
          <div className="decision-actions">
            <button type="button" className="btn btn-sm" disabled={!!busy} onClick={() => void act('clashes', () => importClashesAsCopies(api, files, onFileChange))}>
              {busy === 'clashes' ? 'Importing…' : `Import all ${formatCount(clashes.length)} as new copies`}
            </button>
          </div>
        </div>
      )}
      {error && <p className="import-error">{error}</p>}
    </div>
  );
}

function FileRow({ file, onFileChange }: { file: ImportedFile; onFileChange: FileChange }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const waiting = file.duplicates.some((d) => !d.skipped) || file.clashes.length > 0;
  const tone = file.errors.length ? 'bad' : waiting ? 'warn' : file.phase === 'done' ? 'good' : 'busy';
  const single = file.documents <= 1;

  async function run(work: () => Promise<void>) {
    setBusy(true);
    try {
      await work();
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
        {file.copies.map((c) => (
          <span key={c.id}>
            Imported as a new copy · <a href={entryHref(c.id)}>Open</a>
            {c.of && (
              <>
                {' '}
                · <a href={entryHref(c.of)}>the earlier entry</a>
              </>
            )}
          </span>
        ))}
        {file.duplicates.map((d, i) => (
          <span key={i} className="import-warning" role="note">
            <Icon name="alert" /> {d.skipped ? 'Skipped: ' : ''}
            {d.by === 'file' ? 'The same file is already stored' : 'This document is already stored'}: <a href={entryHref(d.of)}>see the earlier entry</a>
          </span>
        ))}
        {file.clashes.map((c, i) => (
          <span key={i} className="import-error">
            {errorMessage(new Error(c.message))}{' '}
            <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void run(() => importClashesAsCopies(api, [file], onFileChange, c.item))}>
              Import as a new copy
            </button>
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
            {e.retry && (
              <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void run(() => retryAttach(api, file, i, onFileChange))}>
                Try attaching again
              </button>
            )}
          </span>
        ))}
      </div>
    </li>
  );
}
