import { useEffect, useRef, type ReactNode } from 'react';

interface PopoverProps {
  /** the button's text (and the panel's name) */
  label: string;
  icon?: ReactNode;
  children: ReactNode;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/**
 * A button that shows a panel under it (a native <details> disclosure): Esc or a
 * click elsewhere closes it, and Esc gives the focus back to the button.
 */
export function Popover({ label, icon, children, open, onOpenChange }: PopoverProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onOpenChange(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      onOpenChange(false);
      ref.current?.querySelector<HTMLElement>('summary')?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    ref.current?.addEventListener('keydown', onKey);
    const details = ref.current;
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      details?.removeEventListener('keydown', onKey);
    };
  }, [open, onOpenChange]);

  return (
    <details
      ref={ref}
      className="popover"
      open={open}
      onToggle={(event) => {
        const now = (event.currentTarget as HTMLDetailsElement).open;
        if (now !== open) onOpenChange(now);
      }}
    >
      <summary className="btn btn-sm">
        {icon}
        {label}
      </summary>
      <div className="popover-panel" role="group" aria-label={label}>
        {children}
      </div>
    </details>
  );
}
