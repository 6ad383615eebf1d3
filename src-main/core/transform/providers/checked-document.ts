import type { EngineFault } from '../../gobl/engine/index.ts';
import { runOffLoop } from '../../gobl/engine-thread/index.ts';
import type { Envelope } from '../../silo/document.ts';

/*
 * GOBL's check of an envelope (schemas, rules, every figure) costs about 0.4 ms. The steps
 * of a job that run back to back are handed the same parsed envelope while the entry's
 * document is unchanged (step-context.ts), so gobl.validate and silo.close, one after the
 * other, check it once; a document whose entry keeps the engine's verdict on it
 * (silo/check-mark.ts) is not checked at all. The object is the key: steps never change what entry() hands
 * them in place (they copy before changing), and an envelope changed by a step is parsed
 * anew from what was stored, as a new object.
 */
const found = new WeakMap<object, EngineFault[]>();

/** What GOBL finds in `envelope` as it stands (checkDocument; a large one off the event loop), found once per envelope object. */
export async function documentCheck(envelope: Envelope): Promise<EngineFault[]> {
  let faults = found.get(envelope);
  if (!faults) {
    ({ outcome: faults } = await runOffLoop({ op: 'check', data: envelope }));
    found.set(envelope, faults);
  }
  return faults;
}

/** What GOBL found in `envelope` as it stands, known without checking it (a verdict the entry keeps: check-mark.ts). */
export function knownCheck(envelope: Envelope, faults: EngineFault[]): void {
  found.set(envelope, faults);
}

/** What GOBL found in `envelope` when a step checked this very object, if one did. */
export const checkedBefore = (envelope: Envelope): EngineFault[] | undefined => found.get(envelope);
