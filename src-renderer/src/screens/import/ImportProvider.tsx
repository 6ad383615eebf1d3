import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { importFiles, newImportedFile, type ImportedFile } from './importer.ts';
import { ImportPanel } from './ImportPanel.tsx';
import './import.css';

interface ImportApi {
  /** opens the file picker */
  pickFiles(): void;
  importFiles(files: File[]): void;
}

const ImportContext = createContext<ImportApi>({ pickFiles: () => {}, importFiles: () => {} });
export const useImport = (): ImportApi => useContext(ImportContext);

export interface ImportRun {
  files: ImportedFile[];
  done: number;
  total: number;
  phase: string;
  running: boolean;
}

/**
 * Import from anywhere: files dropped on any part of the window, or picked with
 * the Import button (or `i`). Progress and per-file results show in a panel that
 * stays until dismissed, so the user can keep working meanwhile.
 */
export function ImportProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [run, setRun] = useState<ImportRun>();
  const [dragging, setDragging] = useState(false);
  const controller = useRef<AbortController>(undefined);
  const nextKey = useRef(1);

  const start = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setRun({ files: files.map((f) => newImportedFile(nextKey.current++, f)), done: 0, total: files.length, phase: 'Starting…', running: true });
      importFiles(api, files, {
        signal: abort.signal,
        update: (index, change) =>
          setRun((r) => (r && !abort.signal.aborted ? { ...r, files: r.files.map((f, i) => (i === index ? change(f) : f)) } : r)),
        progress: (done, total, phase) => setRun((r) => (r && !abort.signal.aborted ? { ...r, done, total, phase } : r)),
      })
        .catch((err: unknown) => {
          if ((err as Error)?.name === 'AbortError') return;
          setRun((r) => (r ? { ...r, phase: `Import stopped: ${(err as Error).message}` } : r));
        })
        .finally(() => {
          setRun((r) => (r && controller.current === abort ? { ...r, running: false } : r));
        });
    },
    [api],
  );

  // Drops anywhere on the window. Only drags carrying files count (not text or links).
  useEffect(() => {
    let depth = 0;
    const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      setDragging(true);
    };
    const onOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      // Never let the browser open (and so render) a dropped file.
      event.preventDefault();
      depth = 0;
      setDragging(false);
      start(Array.from(event.dataTransfer?.files ?? []));
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [start]);

  const value = useMemo<ImportApi>(() => ({ pickFiles: () => input.current?.click(), importFiles: start }), [start]);

  return (
    <ImportContext.Provider value={value}>
      {children}
      <input
        ref={input}
        id="import-files"
        type="file"
        multiple
        hidden
        aria-label="Import files"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          start(files);
        }}
      />
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div>
            Drop to import
            <p>GOBL JSON becomes entries; PDFs, images and XML become drafts with the file attached.</p>
          </div>
        </div>
      )}
      {run && (
        <ImportPanel
          run={run}
          onStop={() => {
            controller.current?.abort();
            setRun((r) => (r ? { ...r, running: false, phase: 'Stopped' } : r));
          }}
          onClose={() => setRun(undefined)}
          onFileChange={(key, change) => setRun((r) => (r ? { ...r, files: r.files.map((f) => (f.key === key ? change(f) : f)) } : r))}
        />
      )}
    </ImportContext.Provider>
  );
}
