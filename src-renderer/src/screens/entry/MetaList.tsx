import type { MetaRecord } from '../../api/types.ts';
import { formatDateTime } from '../../format/date.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';

/** The entry's meta records: values other systems and workflow steps keep beside the document. */
export function MetaList({ meta }: { meta: MetaRecord[] }) {
  if (meta.length === 0) return <EmptyState title="No meta records">Tools and workflow steps keep references here (an external id, a registration stamp).</EmptyState>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">Meta records</caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Source</th>
          <th scope="col">Value</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {meta.map((m) => (
          <tr key={m.id}>
            <td className="mono">{m.key}</td>
            <td>{m.src}</td>
            <td>
              <code className="meta-value">{typeof m.value === 'string' ? m.value : JSON.stringify(m.value)}</code>
              {m.ref && <span className="muted"> ref {m.ref}</span>}
              {m.link_url && (
                <>
                  {' '}
                  <a href={m.link_url} target="_blank" rel="noreferrer noopener">
                    link
                  </a>
                </>
              )}
            </td>
            <td className="nowrap">{formatDateTime(m.updated_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
