/** Where bytes of unstated length start: the buffer doubles as it fills. */
const FIRST_CAPACITY = 64 * 1024;

/**
 * Bytes that come in chunks, copied into one buffer as they come. Concatenating them at the
 * end is one block (40 ms for 67 MB, most of it the faults of the new buffer's pages); here
 * that falls to the chunks. Sized to `expected` when the length is known, taken only once
 * bytes come, so a stated length costs nothing until then.
 */
export class GrowingBuffer {
  readonly #expected: number | undefined;
  #buffer: Buffer | undefined;
  #size = 0;

  constructor(expected?: number) {
    this.#expected = expected !== undefined && Number.isFinite(expected) && expected > 0 ? expected : undefined;
  }

  get size(): number {
    return this.#size;
  }

  append(chunk: Uint8Array): void {
    const needed = this.#size + chunk.byteLength;
    if (!this.#buffer || this.#buffer.byteLength < needed) {
      const first = !this.#buffer && this.#expected !== undefined && this.#expected >= needed;
      const grown = Buffer.allocUnsafe(first ? this.#expected! : Math.max(needed, (this.#buffer?.byteLength ?? FIRST_CAPACITY / 2) * 2));
      this.#buffer?.copy(grown, 0, 0, this.#size);
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.#size);
    this.#size = needed;
  }

  bytes(): Buffer {
    return this.#buffer ? this.#buffer.subarray(0, this.#size) : Buffer.alloc(0);
  }
}
