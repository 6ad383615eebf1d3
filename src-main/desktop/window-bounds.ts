export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where to reopen the window: the saved bounds if most of the window would be on
 * one of today's displays (a monitor may have been unplugged since), else centred
 * on the first display. Pure, so it is tested without Electron.
 */
export function restoreBounds(saved: Rect | undefined, displays: Rect[], fallback: { width: number; height: number }): Rect {
  const primary = displays[0] ?? { x: 0, y: 0, width: fallback.width, height: fallback.height };
  const centred = (w: number, h: number): Rect => {
    const width = Math.min(w, primary.width);
    const height = Math.min(h, primary.height);
    return {
      x: primary.x + Math.round((primary.width - width) / 2),
      y: primary.y + Math.round((primary.height - height) / 2),
      width,
      height,
    };
  };
  if (!saved) return centred(fallback.width, fallback.height);
  const visible = Math.max(0, ...displays.map((d) => overlap(saved, d)));
  if (visible >= 0.5 * saved.width * saved.height) return saved;
  return centred(saved.width, saved.height);
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
