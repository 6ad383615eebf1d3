// Benchmark entries made from the GOBL fixtures. The fixtures share one head.uuid,
// often one doc.uuid and one code, so every copy gets fresh uuids and a code of its
// own (a real company's numbers are unique; copies sharing "SAMPLE-001" would make
// every lookup by code match thousands). Each copy of a credit-note fixture (one in
// fourteen) names an earlier invoice in preceding[] (uuid, code, series, date), and
// the credited invoices are "hubs" of three to five credit notes each, so `related`
// has real work: three or more entries found both ways, by uuid and by code. Only the
// fixtures' own credit notes are used: they carry the extensions their regimes ask
// of a correction, which a converted invoice would lack.
import { v7 as uuidv7 } from 'uuid';
import { INVOICE_SCHEMA } from '../../src-main/core/gobl/index.ts';

export interface BenchEntry {
  id: string;
  docUuid: string;
  data: Record<string, any>;
}

interface InvoiceRef {
  id: string;
  docUuid: string;
  code?: string;
  series?: string;
  issueDate?: string;
  /** credit notes still to point at it */
  wanted: number;
}

/** Small seeded PRNG, so every run builds the same shape of data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fixture's code with its trailing digits replaced by n (never narrower than they were). */
export function uniqueCode(code: unknown, n: number): string {
  const given = typeof code === 'string' && code !== '' ? code : '1';
  const match = /^(.*?)(\d*)$/.exec(given)!;
  const width = Math.max(match[2].length, 1);
  return `${match[1]}${String(n).padStart(width, '0')}`;
}

export class EntryFactory {
  readonly #fixtures: ReadonlyArray<{ file: string; envelope: any }>;
  readonly #rand: () => number;
  /** invoices waiting for credit notes (each a hub of 3–5) */
  readonly #open: InvoiceRef[] = [];
  #count = 0;
  /** entry id of each credited invoice → how many credit notes point at it */
  readonly credited = new Map<string, number>();
  /** fixture supplier names → how many copies carry them */
  readonly suppliers = new Map<string, number>();

  constructor(fixtures: ReadonlyArray<{ file: string; envelope: any }>, options: { seed?: number } = {}) {
    if (fixtures.length === 0) throw new Error('no fixtures');
    this.#fixtures = fixtures;
    this.#rand = mulberry32(options.seed ?? 20_000);
  }

  get count(): number {
    return this.#count;
  }

  /** Invoices with at least `n` credit notes so far. */
  hubs(n = 3): string[] {
    return [...this.credited].filter(([, k]) => k >= n).map(([id]) => id);
  }

  next(): BenchEntry {
    const i = this.#count++;
    const envelope = structuredClone(this.#fixtures[i % this.#fixtures.length].envelope);
    const id = uuidv7();
    const docUuid = uuidv7();
    envelope.head.uuid = id;
    delete envelope.head.dig;
    const doc = envelope.doc;
    doc.uuid = docUuid;
    if (typeof doc.code === 'string') doc.code = uniqueCode(doc.code, i + 1);

    const supplier = doc.supplier?.name;
    if (typeof supplier === 'string') this.suppliers.set(supplier, (this.suppliers.get(supplier) ?? 0) + 1);

    if (doc.$schema === INVOICE_SCHEMA) {
      const credit = doc.type === 'credit-note';
      if (credit && this.#open.length > 0) {
        const at = Math.floor(this.#rand() * Math.min(this.#open.length, 50));
        const target = this.#open[at];
        const preceding: any[] = Array.isArray(doc.preceding) && doc.preceding.length > 0 ? doc.preceding : [{}];
        preceding[0] = {
          ...preceding[0],
          uuid: target.docUuid,
          code: target.code ?? 'BENCH-1',
          ...(target.series ? { series: target.series } : {}),
          ...(target.issueDate ? { issue_date: target.issueDate } : {}),
        };
        if (!target.series) delete preceding[0].series;
        doc.preceding = preceding;
        this.credited.set(target.id, (this.credited.get(target.id) ?? 0) + 1);
        if (--target.wanted <= 0) this.#open.splice(at, 1);
      } else if (!credit && this.#open.length < 200 && this.#rand() < 0.05) {
        this.#open.push({
          id,
          docUuid,
          code: typeof doc.code === 'string' ? doc.code : undefined,
          series: typeof doc.series === 'string' ? doc.series : undefined,
          issueDate: typeof doc.issue_date === 'string' ? doc.issue_date : undefined,
          wanted: 3 + Math.floor(this.#rand() * 3),
        });
      }
    }
    return { id, docUuid, data: envelope };
  }
}
