import { AsyncLocalStorage } from 'node:async_hooks';

/** What both engines keep of one transaction or savepoint under way. */
export interface TxFrame<F> {
  readonly db: unknown;
  readonly origin: string;
  readonly depth: number;
  readonly parent: F | undefined;
  /** false once it has ended: work it scheduled and that runs later is outside it */
  open: boolean;
}

/**
 * The transaction a call belongs to follows its async flow (engine.ts): a write path
 * needs no second handle, and two requests at once never share one by accident.
 */
export class TxFrames<F extends TxFrame<F>> {
  readonly #storage = new AsyncLocalStorage<F>();

  run<T>(frame: F, fn: () => Promise<T>): Promise<T> {
    return this.#storage.run(frame, fn);
  }

  /** the innermost frame of the caller's flow, of whichever database (the parent of a new one) */
  get current(): F | undefined {
    return this.#storage.getStore();
  }

  /** The innermost transaction of `db` still under way in the caller's flow. */
  innermostOf(db: unknown): F | undefined {
    let frame = this.#storage.getStore();
    while (frame && (frame.db !== db || !frame.open)) frame = frame.parent;
    return frame;
  }
}
