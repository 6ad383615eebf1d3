import { letOthersIn } from './let-others-in.ts';

/**
 * How long work counted by a budget may hold the event loop, whatever its units say: a
 * thousand 8 KiB files of a sync push cost far more per byte (a hash, a buffer and a slice
 * each) than one large file, and 4 MiB of them held the loop for 26 ms.
 */
export const TURN_MS = 8;

/**
 * Long work done in pieces of any size (the parts of one large file, or many small files):
 * others are let in whenever `perTurn` units of work (bytes, characters) have been done since
 * they last were, or `turnMs` have passed, however the pieces fall.
 */
export class TurnBudget {
  readonly perTurn: number;
  readonly #turnMs: number;
  #spent = 0;
  #since = performance.now();

  constructor(perTurn: number, turnMs = TURN_MS) {
    this.perTurn = perTurn;
    this.#turnMs = turnMs;
  }

  async spend(units: number): Promise<void> {
    this.#spent += units;
    if (this.#spent < this.perTurn && performance.now() - this.#since < this.#turnMs) return;
    this.#spent = 0;
    await letOthersIn();
    this.#since = performance.now();
  }
}
