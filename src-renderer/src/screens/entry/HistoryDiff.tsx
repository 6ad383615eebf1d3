import { useState } from 'react';
import type { AnswerOf } from '../../api/client.ts';
import { pathLabel, valueText } from './HistoryLabels.ts';

type Change = AnswerOf<'diffEntryVersions'>['changes'][number];

/** How many changes show before "Show all": a first version lists every field of its document. */
const SHOWN = 60;

/**
 * What changed between two versions, one row per JSON path: the path as a person reads
 * it (the JSON path itself below it), what it was and what it became. Money figures are
 * in the document's currency and the user's locale.
 */
export function HistoryDiff({ changes, truncated }: { changes: Change[]; truncated?: boolean }) {
  const [all, setAll] = useState(false);
  if (changes.length === 0) return <p className="muted">Nothing changed in what history keeps.</p>;
  const shown = all ? changes : changes.slice(0, SHOWN);
  return (
    <>
      <table className="data-table history-diff">
        <caption className="visually-hidden">Changes</caption>
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((c) => (
            <tr key={c.path} className={`change-${c.kind}`}>
              <th scope="row">
                <span>{pathLabel(c.path)}</span>
                {c.path.startsWith('$') && <code className="history-path">{c.path}</code>}
              </th>
              <td className={c.currency ? 'num history-before' : 'history-before'}>
                {c.kind === 'added' ? <span className="muted">—</span> : <del>{valueText(c.before, c.currency)}</del>}
              </td>
              <td className={c.currency ? 'num history-after' : 'history-after'}>
                {c.kind === 'removed' ? <span className="muted">(removed)</span> : <ins>{valueText(c.after, c.currency)}</ins>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!all && changes.length > SHOWN && (
        <button type="button" className="btn btn-sm load-more" onClick={() => setAll(true)}>
          Show all {changes.length} changes
        </button>
      )}
      {truncated && <p className="muted">Only the first changes are listed.</p>}
    </>
  );
}
