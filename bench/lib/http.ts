// The one HTTP client of the benchmarks: global fetch (undici), which keeps
// connections alive by default. The service and the bare server are fetched the
// same way, so a comparison between them is fair.

export interface Timed {
  ms: number;
  status: number;
  bytes: number;
  text: string;
}

export async function timedFetch(url: string, init?: RequestInit): Promise<Timed> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const ms = performance.now() - t0;
  return { ms, status: res.status, bytes: Buffer.byteLength(text), text };
}

/** GET that must answer 200; returns the parsed JSON. */
export async function getJson<T = any>(url: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Runs task(0..count-1) on `concurrency` clients, each taking the next index when done. */
export async function runPool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const client = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, client));
}
