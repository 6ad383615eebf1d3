import { useCallback, useState } from 'react';

export interface Selection {
  ids: ReadonlySet<string>;
  /** "every entry matching the filters", not only the loaded ones */
  allMatching: boolean;
  has(id: string): boolean;
  /** a plain click: this one only */
  only(id: string): void;
  /** Ctrl/Cmd-click, Space, x: add or remove one */
  toggle(id: string): void;
  /** Shift-click: everything from the last clicked row to this one */
  extendTo(id: string, order: readonly string[]): void;
  selectAll(order: readonly string[]): void;
  setAllMatching(on: boolean): void;
  clear(): void;
}

/** Which entries are selected, with the anchor a Shift-click extends from. */
export function useSelection(): Selection {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string>();
  const [allMatching, setAllMatchingState] = useState(false);

  const only = useCallback((id: string) => {
    setIds(new Set([id]));
    setAnchor(id);
    setAllMatchingState(false);
  }, []);

  const toggle = useCallback((id: string) => {
    setIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    setAnchor(id);
    setAllMatchingState(false);
  }, []);

  const extendTo = useCallback(
    (id: string, order: readonly string[]) => {
      const from = anchor ? order.indexOf(anchor) : -1;
      const to = order.indexOf(id);
      if (to < 0) return;
      if (from < 0) {
        setIds(new Set([id]));
        setAnchor(id);
        return;
      }
      const [lo, hi] = from < to ? [from, to] : [to, from];
      setIds((current) => new Set([...current, ...order.slice(lo, hi + 1)]));
      setAllMatchingState(false);
    },
    [anchor],
  );

  const selectAll = useCallback((order: readonly string[]) => {
    setIds(new Set(order));
    setAllMatchingState(false);
  }, []);

  const clear = useCallback(() => {
    setIds(new Set());
    setAnchor(undefined);
    setAllMatchingState(false);
  }, []);

  return {
    ids,
    allMatching,
    has: (id) => ids.has(id),
    only,
    toggle,
    extendTo,
    selectAll,
    setAllMatching: setAllMatchingState,
    clear,
  };
}
