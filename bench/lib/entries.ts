// Benchmark entries made from the GOBL fixtures. The fixtures share one
// head.uuid and often one doc.uuid, so every copy gets fresh ones; about one
// invoice in ten becomes a credit note whose preceding[0].uuid is the doc.uuid
// of an earlier copy, so `related` has something to find.
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

export class EntryFactory {
  readonly #fixtures: ReadonlyArray<{ file: string; envelope: any }>;
  readonly #rand: () => number;
  readonly #creditShare: number;
  /** recent plain invoices a credit note may point at (a ring of the last 1,000) */
  readonly #recent: InvoiceRef[] = [];
  #count = 0;
  /** entry id of each credited invoice → how many credit notes point at it */
  readonly credited = new Map<string, number>();
  /** fixture supplier names → how many copies carry them */
  readonly suppliers = new Map<string, number>();

  constructor(fixtures: ReadonlyArray<{ file: string; envelope: any }>, options: { seed?: number; creditShare?: number } = {}) {
    if (fixtures.length === 0) throw new Error('no fixtures');
    this.#fixtures = fixtures;
    this.#rand = mulberry32(options.seed ?? 20_000);
    this.#creditShare = options.creditShare ?? 0.1;
  }

  get count(): number {
    return this.#count;
  }

  next(): BenchEntry {
    const i = this.#count++;
    const envelope = structuredClone(this.#fixtures[i % this.#fixtures.length].envelope);
    const id = uuidv7();
    const docUuid = uuidv7();
    envelope.head.uuid = id;
    const doc = envelope.doc;
    doc.uuid = docUuid;

    const supplier = doc.supplier?.name;
    if (typeof supplier === 'string') this.suppliers.set(supplier, (this.suppliers.get(supplier) ?? 0) + 1);

    if (doc.$schema === INVOICE_SCHEMA) {
      const credit = doc.type === 'credit-note' || this.#rand() < this.#creditShare;
      if (credit && this.#recent.length > 0) {
        const target = this.#recent[Math.floor(this.#rand() * this.#recent.length)];
        doc.type = 'credit-note';
        const preceding: any[] = Array.isArray(doc.preceding) && doc.preceding.length > 0 ? doc.preceding : [{}];
        preceding[0] = {
          ...preceding[0],
          uuid: target.docUuid,
          code: preceding[0].code ?? target.code ?? 'BENCH-1',
          ...(preceding[0].series === undefined && target.series ? { series: target.series } : {}),
          ...(preceding[0].issue_date === undefined && target.issueDate ? { issue_date: target.issueDate } : {}),
        };
        doc.preceding = preceding;
        this.credited.set(target.id, (this.credited.get(target.id) ?? 0) + 1);
      } else if (!credit) {
        const ref: InvoiceRef = {
          id,
          docUuid,
          code: typeof doc.code === 'string' ? doc.code : undefined,
          series: typeof doc.series === 'string' ? doc.series : undefined,
          issueDate: typeof doc.issue_date === 'string' ? doc.issue_date : undefined,
        };
        if (this.#recent.length < 1000) this.#recent.push(ref);
        else this.#recent[i % 1000] = ref;
      }
    }
    return { id, docUuid, data: envelope };
  }
}
