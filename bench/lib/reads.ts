// Reads timed side by side: each request goes to the service and to the same-bytes
// yardstick in turn (alternating which goes first), on one keep-alive client, so both
// see the same machine at the same moment. Before timing, the two answers are
// compared byte for byte: a ratio between different answers would mean nothing.
import { timedFetch } from './http.ts';
import type { Aim, Figure } from './report.ts';
import { median, spreadOf, summarize } from './stats.ts';

export interface ReadCase {
  name: string;
  /** path and query of request i */
  path: (i: number) => string;
  /** how many different requests path(i) cycles through (all are checked for same bytes, up to 20) */
  variants?: number;
  /** the yardstick answers it too (folders and tags have no yardstick) */
  yardstick?: boolean;
  aim?: Aim;
  /** an aim on p99 against the yardstick's p99 (related and search at a million entries) */
  p99Aim?: Aim;
}

export interface ReadTiming {
  http: number[];
  yardstick: number[];
  bytes: number;
  sameBytes: boolean | undefined;
  roundMedians: number[];
  roundRatios: number[];
}

export interface ReadPlan {
  runs: number;
  reps: number;
  warmup: number;
  /** per case and run: stop early (after min reps) past this */
  budgetMs: number;
  minReps: number;
}

async function get(url: string, headers: Record<string, string>) {
  const r = await timedFetch(url, { headers });
  if (r.status !== 200) throw new Error(`GET ${url} → ${r.status}: ${r.text.slice(0, 300)}`);
  return r;
}

/** Whether the service and the yardstick answer every variant of the case with the same bytes. */
async function sameBytes(c: ReadCase, apiUrl: string, yardstickUrl: string, headers: Record<string, string>): Promise<{ same: boolean; first?: string }> {
  for (let i = 0; i < Math.min(c.variants ?? 1, 20); i++) {
    const [a, b] = [await get(apiUrl + c.path(i), headers), await get(yardstickUrl + c.path(i), headers)];
    if (a.text !== b.text) {
      let at = 0;
      while (at < a.text.length && a.text[at] === b.text[at]) at++;
      return { same: false, first: `${c.path(i)} differs at byte ${at}: service …${a.text.slice(Math.max(0, at - 40), at + 60)}… yardstick …${b.text.slice(Math.max(0, at - 40), at + 60)}…` };
    }
  }
  return { same: true };
}

export async function timeRead(c: ReadCase, apiUrl: string, yardstickUrl: string | undefined, headers: Record<string, string>, plan: ReadPlan): Promise<ReadTiming & { difference?: string }> {
  const useYardstick = c.yardstick !== false && yardstickUrl !== undefined;
  const check: { same: boolean | undefined; first?: string } = useYardstick ? await sameBytes(c, apiUrl, yardstickUrl!, headers) : { same: undefined };
  const http: number[] = [];
  const yard: number[] = [];
  const roundMedians: number[] = [];
  const roundRatios: number[] = [];
  let bytes = 0;
  for (let run = 0; run < plan.runs; run++) {
    const h: number[] = [];
    const y: number[] = [];
    const started = performance.now();
    for (let i = 0; i < plan.warmup + plan.reps; i++) {
      const timed = i >= plan.warmup;
      const path = c.path(i);
      const order = useYardstick ? ((i + run) % 2 === 0 ? ['api', 'yard'] : ['yard', 'api']) : ['api'];
      for (const side of order) {
        const r = await get((side === 'api' ? apiUrl : yardstickUrl!) + path, headers);
        if (side === 'api') bytes = r.bytes;
        if (timed) (side === 'api' ? h : y).push(r.ms);
      }
      if (timed && h.length >= plan.minReps && performance.now() - started > plan.budgetMs) break;
    }
    http.push(...h);
    yard.push(...y);
    roundMedians.push(median(h));
    if (useYardstick) roundRatios.push(median(h) / median(y));
  }
  return { http, yardstick: yard, bytes, sameBytes: check.same, roundMedians, roundRatios, difference: check.first };
}

/** The figures of a timed case: the service's latency with its ratio to the yardstick, and the yardstick's. */
export function readFigures(c: ReadCase, t: ReadTiming, group: string): Figure[] {
  const h = summarize(t.http);
  const figures: Figure[] = [];
  if (t.yardstick.length > 0) {
    const y = summarize(t.yardstick);
    // Different bytes: no ratio is honest, so none is claimed.
    const ratio = t.sameBytes ? h.median / y.median : NaN;
    figures.push(
      {
        group,
        name: `${c.name}${t.sameBytes ? '' : ' (NOT the same bytes)'}`,
        value: h.median,
        unit: 'ms',
        p99: h.p99,
        spread: spreadOf(t.roundMedians),
        ratio,
        ratioOf: 'yardstick',
        p99Ratio: t.sameBytes ? h.p99 / y.p99 : NaN,
        aim: c.aim,
        detail: { http: h, yardstick: y, response_bytes: t.bytes, same_bytes: t.sameBytes, round_ratios: t.roundRatios },
      },
      { group, name: `  yardstick`, value: y.median, unit: 'ms', p99: y.p99 },
    );
    if (c.p99Aim) {
      figures.push({
        group,
        name: `  p99 against the yardstick's p99`,
        value: h.p99,
        unit: 'ms',
        ratio: t.sameBytes ? h.p99 / y.p99 : NaN,
        ratioOf: 'yardstick p99',
        aim: { ...c.p99Aim, on: 'ratio' },
      });
    }
  } else {
    figures.push({ group, name: c.name, value: h.median, unit: 'ms', p99: h.p99, spread: spreadOf(t.roundMedians), aim: c.aim, detail: { http: h, response_bytes: t.bytes } });
  }
  return figures;
}
