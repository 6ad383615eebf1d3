import { useMemo, type ReactNode } from 'react';
import './code.css';

/**
 * XML pretty-printed and highlighted. DOMParser reads it as inert data: no script
 * runs, no external entity or resource is fetched. Unreadable XML is shown as is.
 */
export function XmlView({ text, label = 'XML' }: { text: string; label?: string }) {
  const parsed = useMemo(() => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    return doc.getElementsByTagName('parsererror').length > 0 ? undefined : doc;
  }, [text]);

  if (!parsed) return <PlainText text={text} label={label} note="This XML could not be read; it is shown as stored." />;
  return (
    <div className="code-view">
      <div className="code-body" role="group" aria-label={label} tabIndex={0}>
        {Array.from(parsed.childNodes).map((node, i) => (
          <XmlNode key={i} node={node} />
        ))}
      </div>
    </div>
  );
}

function XmlNode({ node }: { node: Node }): ReactNode {
  switch (node.nodeType) {
    case Node.ELEMENT_NODE:
      return <XmlElement element={node as Element} />;
    case Node.TEXT_NODE: {
      const text = node.textContent?.trim();
      return text ? <div className="code-line t-text">{text}</div> : null;
    }
    case Node.CDATA_SECTION_NODE:
      return (
        <div className="code-line">
          <span className="t-punct">{'<![CDATA['}</span>
          <span className="t-text">{node.textContent}</span>
          <span className="t-punct">{']]>'}</span>
        </div>
      );
    case Node.COMMENT_NODE:
      return <div className="code-line t-comment">{`<!--${node.textContent ?? ''}-->`}</div>;
    case Node.PROCESSING_INSTRUCTION_NODE: {
      const pi = node as ProcessingInstruction;
      return <div className="code-line t-punct">{`<?${pi.target} ${pi.data}?>`}</div>;
    }
    default:
      return null;
  }
}

function XmlElement({ element }: { element: Element }) {
  const children = Array.from(element.childNodes).filter((n) => n.nodeType !== Node.TEXT_NODE || n.textContent?.trim());
  const attrs = Array.from(element.attributes).map((a) => (
    <span key={a.name}>
      {' '}
      <span className="t-attr">{a.name}</span>
      <span className="t-punct">=</span>
      <span className="t-string">&quot;{a.value}&quot;</span>
    </span>
  ));
  const open = (
    <>
      <span className="t-punct">&lt;</span>
      <span className="t-tag">{element.tagName}</span>
      {attrs}
    </>
  );
  const close = (
    <>
      <span className="t-punct">&lt;/</span>
      <span className="t-tag">{element.tagName}</span>
      <span className="t-punct">&gt;</span>
    </>
  );
  if (children.length === 0) {
    return (
      <div className="code-line">
        {open}
        <span className="t-punct"> /&gt;</span>
      </div>
    );
  }
  // Short text content stays on the tag's line, as people write it by hand.
  if (children.length === 1 && children[0].nodeType === Node.TEXT_NODE && (children[0].textContent ?? '').trim().length <= 80) {
    return (
      <div className="code-line">
        {open}
        <span className="t-punct">&gt;</span>
        <span className="t-text">{children[0].textContent!.trim()}</span>
        {close}
      </div>
    );
  }
  return (
    <div>
      <div className="code-line">
        {open}
        <span className="t-punct">&gt;</span>
      </div>
      <div className="code-children">
        {children.map((child, i) => (
          <XmlNode key={i} node={child} />
        ))}
      </div>
      <div className="code-line">{close}</div>
    </div>
  );
}

/** Text exactly as stored, in a scrollable monospace block. */
export function PlainText({ text, label = 'Text', note }: { text: string; label?: string; note?: string }) {
  return (
    <div className="code-view">
      {note && <p className="code-note">{note}</p>}
      <pre className="code-body plain-text" role="group" aria-label={label} tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}
