import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Attachment } from '../../api/types.ts';
import { formatBytes } from '../../format/count.ts';
import { saveBlob } from '../../ui/download.ts';
import { EmptyState, Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { JsonView } from '../../ui/JsonView.tsx';
import { PlainText, XmlView } from '../../ui/XmlView.tsx';
import { MAX_TEXT_VIEW_BYTES, viewKind, type ViewKind } from './kind.ts';
import { PdfViewer } from './PdfViewer.tsx';
import { useAttachmentBlob } from './useAttachmentFile.ts';

/**
 * Shows one attachment. Its bytes are fetched with the API client (never by URL,
 * which would need the token in it) and shown through blob: URLs or as text.
 * Nothing in an attachment is ever run: HTML and SVG are shown as source, or
 * previewed in a sandboxed frame that allows no scripts.
 */
export function AttachmentViewer({ attachment }: { attachment: Attachment }) {
  const kind = viewKind(attachment.mime, attachment.name);
  const file = useAttachmentBlob(attachment);

  return (
    <div className="attachment-viewer">
      <div className="viewer-head">
        <div className="viewer-title">
          <h3 className="ellipsis">{attachment.name}</h3>
          <p className="muted">
            {attachment.mime} · {formatBytes(attachment.size)}
            {attachment.desc && ` · ${attachment.desc}`}
          </p>
        </div>
        <button type="button" className="btn" disabled={!file.data} onClick={() => file.data && saveBlob(file.data, attachment.name)}>
          <Icon name="download" /> Download
        </button>
      </div>
      {file.error && <ErrorNotice error={file.error} onRetry={() => void file.refetch()} />}
      {!file.data && !file.error && <Loading label={`Fetching ${attachment.name}…`} />}
      {file.data && <ViewerBody blob={file.data} kind={kind} attachment={attachment} />}
    </div>
  );
}

function ViewerBody({ blob, kind, attachment }: { blob: Blob; kind: ViewKind; attachment: Attachment }) {
  if (kind === 'other' || ((kind === 'text' || kind === 'json' || kind === 'xml' || kind === 'html' || kind === 'svg') && blob.size > MAX_TEXT_VIEW_BYTES)) {
    return (
      <EmptyState icon="file" title="No preview for this file" actions={<button type="button" className="btn btn-primary" onClick={() => saveBlob(blob, attachment.name)}>Download {attachment.name}</button>}>
        {kind === 'other' ? `Files of type ${attachment.mime} are offered for download only.` : 'This file is too large to show as text.'}
      </EmptyState>
    );
  }
  switch (kind) {
    case 'pdf':
      return <BytesOf blob={blob}>{(bytes) => <PdfViewer bytes={bytes} name={attachment.name} />}</BytesOf>;
    case 'image':
      return <ImageView blob={blob} mime={attachment.mime} name={attachment.name} />;
    default:
      return <TextOf blob={blob}>{(text) => <SourceView text={text} kind={kind} name={attachment.name} />}</TextOf>;
  }
}

function BytesOf({ blob, children }: { blob: Blob; children(bytes: Uint8Array): ReactNode }) {
  const [bytes, setBytes] = useState<Uint8Array>();
  useEffect(() => {
    let current = true;
    void blob.arrayBuffer().then((buffer) => current && setBytes(new Uint8Array(buffer)));
    return () => {
      current = false;
    };
  }, [blob]);
  return bytes ? children(bytes) : <Loading />;
}

function TextOf({ blob, children }: { blob: Blob; children(text: string): ReactNode }) {
  const [text, setText] = useState<string>();
  useEffect(() => {
    let current = true;
    void blob.text().then((t) => current && setText(t));
    return () => {
      current = false;
    };
  }, [blob]);
  return text === undefined ? <Loading /> : children(text);
}

/** A blob: URL for the bytes under a type of our choosing, revoked when no longer shown. */
function useBlobUrl(blob: Blob, type: string): string | undefined {
  const url = useMemo(() => URL.createObjectURL(new Blob([blob], { type })), [blob, type]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return url;
}

function ImageView({ blob, mime, name }: { blob: Blob; mime: string; name: string }) {
  const url = useBlobUrl(blob, mime);
  return (
    <div className="image-view">
      <img src={url} alt={`Attachment ${name}`} />
    </div>
  );
}

function SourceView({ text, kind, name }: { text: string; kind: ViewKind; name: string }) {
  const [preview, setPreview] = useState(false);
  const json = useMemo(() => {
    if (kind !== 'json') return undefined;
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  }, [kind, text]);

  if (kind === 'json') return json ? <JsonView value={json.value} label={name} /> : <PlainText text={text} label={name} note="This JSON could not be read; it is shown as stored." />;
  if (kind === 'xml') return <XmlView text={text} label={name} />;
  if (kind === 'html' || kind === 'svg') {
    return (
      <div className="source-view">
        <div className="viewer-toolbar">
          <button type="button" className="btn btn-sm" aria-pressed={preview} onClick={() => setPreview(!preview)}>
            {preview ? 'Show source' : 'Preview (scripts off)'}
          </button>
          <span className="muted">{kind === 'html' ? 'HTML' : 'SVG'} is shown as source; the preview runs no scripts and loads nothing.</span>
        </div>
        {preview ? <SandboxedPreview text={text} type={kind === 'html' ? 'text/html' : 'image/svg+xml'} name={name} /> : kind === 'svg' ? <XmlView text={text} label={name} /> : <PlainText text={text} label={name} />}
      </div>
    );
  }
  return <PlainText text={text} label={name} />;
}

/**
 * An empty `sandbox` allows nothing: no scripts, no forms, no navigation, and a
 * unique origin, so the document can read neither our storage nor the API.
 */
function SandboxedPreview({ text, type, name }: { text: string; type: string; name: string }) {
  const blob = useMemo(() => new Blob([text]), [text]);
  const url = useBlobUrl(blob, type);
  return <iframe className="sandboxed-preview" sandbox="" src={url} title={`Preview of ${name}`} referrerPolicy="no-referrer" />;
}
