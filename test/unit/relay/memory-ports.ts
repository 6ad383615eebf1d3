import type { RelayPort } from '../../../src-main/service-process/relay.ts';

/**
 * Two connected ends in one process, for tests: a message is cloned as a real
 * port clones it (structuredClone: a function throws, bytes stay bytes) and
 * arrives on a later turn, as across a process boundary.
 */
export function memoryPortPair(): [RelayPort, RelayPort] {
  const listeners: [Array<(m: unknown) => void>, Array<(m: unknown) => void>] = [[], []];
  const end = (me: 0 | 1): RelayPort => ({
    postMessage(message) {
      const copy = structuredClone(message);
      setImmediate(() => {
        for (const listener of listeners[1 - me]) listener(copy);
      });
    },
    onMessage: (listener) => void listeners[me].push(listener),
  });
  return [end(0), end(1)];
}
