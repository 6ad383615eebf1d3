import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon.tsx';

/** What an empty screen shows: what is missing and what to do about it. */
export function EmptyState({ icon, title, children, actions }: { icon?: IconName; title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="empty-state">
      {icon && <Icon name={icon} className="empty-icon" />}
      <h2>{title}</h2>
      {children && <p>{children}</p>}
      {actions && <div className="actions">{actions}</div>}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-line" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}
