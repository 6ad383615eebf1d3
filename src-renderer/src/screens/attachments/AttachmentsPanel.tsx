import { useRef, useState, type ChangeEvent } from 'react';
import type { Attachment, Entry } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { formatBytes } from '../../format/count.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { attachmentIdFor, fileBytes, MAX_ATTACHMENT_BYTES, sha256Hex, toBase64 } from '../import/read-file.ts';
import { AttachmentViewer } from './AttachmentViewer.tsx';
import { mimeForFile, viewKind } from './kind.ts';
import './attachments.css';

const KIND_ICONS: Record<string, IconName> = { pdf: 'file', image: 'image', json: 'code', xml: 'code', svg: 'image', html: 'code', text: 'file', other: 'file' };

interface AttachmentsPanelProps {
  entry: Entry;
  fileId?: string;
  onSelect(id: string): void;
}

/** The entry's files: a list to pick from, the chosen one shown beside it, and a way to attach more. */
export function AttachmentsPanel({ entry, fileId, onSelect }: AttachmentsPanelProps) {
  const api = useApi();
  const notify = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<unknown>();
  const current: Attachment | undefined = entry.attachments.find((a) => a.id === fileId) ?? entry.attachments[0];

  async function attach(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    setUploading(true);
    setError(undefined);
    const taken = new Set(entry.attachments.map((a) => a.id));
    try {
      let last: string | undefined;
      for (const file of files) {
        if (file.size > MAX_ATTACHMENT_BYTES) throw new Error(`${file.name} is larger than the 50 MiB an attachment may be`);
        const bytes = await fileBytes(file);
        const id = attachmentIdFor(file.name, taken);
        taken.add(id);
        await api.putAttachment({
          params: { entry_id: entry.id, id },
          body: { name: file.name, mime: mimeForFile(file), hash: await sha256Hex(bytes), data: toBase64(bytes) },
        });
        last = id;
      }
      notify(files.length === 1 ? `Attached ${files[0].name}` : `Attached ${files.length} files`, { kind: 'success' });
      if (last) onSelect(last);
    } catch (err) {
      setError(err);
    } finally {
      setUploading(false);
    }
  }

  const picker = (
    <>
      <input ref={input} type="file" multiple hidden onChange={attach} aria-label="Attach files" />
      <button type="button" className="btn btn-sm" disabled={uploading} onClick={() => input.current?.click()}>
        <Icon name="plus" /> {uploading ? 'Attaching…' : 'Attach files'}
      </button>
    </>
  );

  if (entry.attachments.length === 0) {
    return (
      <>
        <EmptyState icon="file" title="No files" actions={picker}>
          Attach the PDF, scan or XML that goes with this document. A PDF workflow step can also render one.
        </EmptyState>
        <ErrorNotice error={error} />
      </>
    );
  }

  return (
    <div className="attachments-panel">
      <div className="attachment-list">
        <ul aria-label="Files">
          {entry.attachments.map((a) => (
            <li key={a.id}>
              <button type="button" aria-current={a.id === current?.id ? 'true' : undefined} onClick={() => onSelect(a.id)}>
                <Icon name={KIND_ICONS[viewKind(a.mime, a.name)]} />
                <span className="attachment-name">
                  <span className="ellipsis">{a.name}</span>
                  <span className="muted">{formatBytes(a.size)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
        {picker}
        <ErrorNotice error={error} />
      </div>
      {current && <AttachmentViewer key={current.id} attachment={current} />}
    </div>
  );
}
