import { letOthersIn } from './let-others-in.ts';

/**
 * Long work done in pieces of any size (the parts of one large file, or many small files):
 * others are let in whenever `perTurn` units of work (bytes, characters) have been done since
 * they last were, however the pieces fall.
 */
export class TurnBudget {
  readonly perTurn: number;
  #spent = 0;

  constructor(perTurn: number) {
    this.perTurn = perTurn;
  }

  async spend(units: number): Promise<void> {
    this.#spent += units;
    if (this.#spent < this.perTurn) return;
    this.#spent = 0;
    await letOthersIn();
  }
}
