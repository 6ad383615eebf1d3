export interface Summary {
  n: number;
  median: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function summarize(values: readonly number[]): Summary {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    median: median(s),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1),
  };
}

/** The lowest and highest of repeated figures: how far apart the runs were. */
export function spreadOf(values: readonly number[]): [number, number] {
  return [Math.min(...values), Math.max(...values)];
}

/** Runs `round` `runs` times; the median of what they measure, and their spread. */
export async function repeated(runs: number, round: (i: number) => Promise<number> | number): Promise<{ median: number; spread: [number, number]; values: number[] }> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await round(i));
  return { median: median(values), spread: spreadOf(values), values };
}

/** Peak resident set size of the whole process (all threads) so far, in bytes. */
export const maxRssBytes = (): number => process.resourceUsage().maxRSS * 1024;

/** Samples RSS on a timer while async work runs (the loop must not be blocked for this to see anything). */
export function rssSampler(intervalMs = 25): { peak(): number; stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return peak;
    },
  };
}

export const MB = 1024 * 1024;
