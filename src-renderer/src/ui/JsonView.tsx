import { createContext, useContext, useState } from 'react';
import { useToast } from './Toasts.tsx';
import './code.css';

interface JsonViewProps {
  value: unknown;
  /** levels shown open at first */
  expandDepth?: number;
  label?: string;
}

const DepthContext = createContext(2);

/**
 * JSON pretty-printed and highlighted, every object and array foldable. Folded
 * branches are not rendered at all, so a large document stays light.
 */
export function JsonView({ value, expandDepth = 3, label = 'JSON' }: JsonViewProps) {
  const notify = useToast();
  const [depth, setDepth] = useState(expandDepth);
  // A new key remounts the tree so "expand all"/"collapse all" resets every branch.
  const [generation, setGeneration] = useState(0);

  const setAll = (next: number) => {
    setDepth(next);
    setGeneration((g) => g + 1);
  };

  return (
    <div className="code-view">
      <div className="code-toolbar">
        <button type="button" className="btn btn-sm" onClick={() => setAll(Number.POSITIVE_INFINITY)}>
          Expand all
        </button>
        <button type="button" className="btn btn-sm" onClick={() => setAll(1)}>
          Collapse all
        </button>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            navigator.clipboard.writeText(JSON.stringify(value, null, 2)).then(
              () => notify('Copied the JSON'),
              () => notify('The clipboard is not available here', { kind: 'error' }),
            )
          }
        >
          Copy
        </button>
      </div>
      <div className="code-body json-view" role="group" aria-label={label} tabIndex={0}>
        <DepthContext.Provider value={depth}>
          <JsonNode key={generation} value={value} depth={0} last />
        </DepthContext.Provider>
      </div>
    </div>
  );
}

interface NodeProps {
  name?: string | number;
  value: unknown;
  depth: number;
  last: boolean;
}

function JsonNode({ name, value, depth, last }: NodeProps) {
  const expandDepth = useContext(DepthContext);
  const [open, setOpen] = useState(depth < expandDepth);
  const comma = last ? null : <span className="t-punct">,</span>;
  const key =
    name === undefined ? null : typeof name === 'number' ? null : (
      <>
        <span className="t-key">{JSON.stringify(name)}</span>
        <span className="t-punct">: </span>
      </>
    );

  if (value === null || typeof value !== 'object') {
    return (
      <div className="code-line">
        {key}
        <Primitive value={value} />
        {comma}
      </div>
    );
  }

  const isArray = Array.isArray(value);
  const items: Array<[string | number, unknown]> = isArray ? value.map((v, i) => [i, v]) : Object.entries(value as object);
  const [openMark, closeMark] = isArray ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) {
    return (
      <div className="code-line">
        {key}
        <span className="t-punct">{openMark + closeMark}</span>
        {comma}
      </div>
    );
  }

  const what = isArray ? `${items.length} ${items.length === 1 ? 'item' : 'items'}` : `${items.length} ${items.length === 1 ? 'key' : 'keys'}`;
  return (
    <div className="json-node">
      <div className="code-line">
        <button
          type="button"
          className="fold"
          aria-expanded={open}
          aria-label={`${open ? 'Fold' : 'Unfold'} ${typeof name === 'string' ? name : name !== undefined ? `item ${name}` : 'document'}`}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
        {key}
        <span className="t-punct">{openMark}</span>
        {!open && (
          <>
            {/* a mouse shortcut; the fold button is the keyboard's way in */}
            <span className="folded" onClick={() => setOpen(true)}>
              {what}
            </span>
            <span className="t-punct">{closeMark}</span>
            {comma}
          </>
        )}
      </div>
      {open && (
        <>
          <div className="code-children">
            {items.map(([k, v], i) => (
              <JsonNode key={k} name={k} value={v} depth={depth + 1} last={i === items.length - 1} />
            ))}
          </div>
          <div className="code-line">
            <span className="t-punct">{closeMark}</span>
            {comma}
          </div>
        </>
      )}
    </div>
  );
}

function Primitive({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="t-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="t-number">{String(value)}</span>;
  return <span className="t-literal">{String(value)}</span>;
}
