import type { ReactNode } from 'react';
import { Field, type FieldControlProps } from '../../ui/Field.tsx';
import type { EditorFault } from './fault-fields.ts';

/** A labelled editor input with GOBL's faults for it beside it. */
export function EditorField({ label, faults, hint, className, children }: {
  label: ReactNode;
  faults?: EditorFault[];
  hint?: ReactNode;
  className?: string;
  children(control: FieldControlProps): ReactNode;
}) {
  const error = faults && faults.length > 0 ? [...new Set(faults.map((f) => f.message))].join('; ') : undefined;
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {children}
    </Field>
  );
}
