import { useEffect, useEffectEvent } from 'react';

/** Whether a key press belongs to a text field (shortcuts must not steal typing). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}

/** A modal dialog is open: it owns the keyboard (and Esc). */
export const dialogOpen = (): boolean => document.querySelector('dialog[open]') !== null;

/**
 * Listens for single-key shortcuts on the whole window while `active`, ignoring
 * keys typed into fields, keys with Ctrl/Cmd/Alt, and everything while a dialog is open.
 */
export function useShortcuts(active: boolean, handlers: Record<string, (event: KeyboardEvent) => void>): void {
  // The handlers of the latest render, read when a key is pressed (not a dependency: the listener stays).
  const handle = useEffectEvent((event: KeyboardEvent) => handlers[event.key]?.(event));
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (dialogOpen()) return;
      if (event.key !== 'Escape' && isTyping(event.target)) return;
      handle(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}
