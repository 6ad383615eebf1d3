import type { Fault } from '../../api/types.ts';
import { Icon } from '../../ui/Icon.tsx';

/** What is wrong with the document (or what a workflow step reported), with the JSON path of each. */
export function FaultList({ faults }: { faults: Fault[] }) {
  if (faults.length === 0) return null;
  return (
    <section className="notice notice-warning entry-faults" aria-label="Faults">
      <Icon name="alert" />
      <div className="notice-body">
        <strong>
          {faults.length === 1 ? '1 fault' : `${faults.length} faults`} in this document
        </strong>
        <ul>
          {faults.map((fault, i) => (
            <li key={i}>
              {fault.path && <code className="fault-path">{fault.path}</code>} {fault.message} <span className="muted">({fault.code}, {fault.provider})</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
