import type { Fault } from '../../api/types.ts';
import { formatDecimal, formatPercent } from '../../format/money.ts';
import { Icon } from '../../ui/Icon.tsx';

/** A stated or calculated figure in the user's locale: amounts exactly as written, percents as percents. */
export function formatFigure(value: string): string {
  return value.trim().endsWith('%') ? formatPercent(value) : formatDecimal(value);
}

/** One fault: its code, where it is (every JSON path), what is wrong and, for a figure, what it says against what GOBL calculates. */
export function FaultItem({ fault }: { fault: Fault }) {
  const figure = fault.stated !== undefined || fault.calculated !== undefined;
  return (
    <li className="fault">
      <code className="fault-code">{fault.code}</code>{' '}
      {fault.paths.map((path) => (
        <code key={path} className="fault-path">
          {path}
        </code>
      ))}{' '}
      {figure ? (
        <span className="fault-figures">
          stated <strong>{fault.stated !== undefined ? formatFigure(fault.stated) : 'nothing'}</strong>
          {' · '}
          calculated <strong>{fault.calculated !== undefined ? formatFigure(fault.calculated) : 'nothing'}</strong>
        </span>
      ) : (
        fault.message
      )}{' '}
      <span className="muted">({fault.provider})</span>
    </li>
  );
}

/** What is wrong with the document (or what a workflow step reported), with the JSON paths of each. */
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
            <FaultItem key={i} fault={fault} />
          ))}
        </ul>
      </div>
    </section>
  );
}
