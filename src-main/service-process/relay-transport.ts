import type { Transport } from '../core/api/client/client.ts';
import { ApiClientError } from '../core/api/client/errors.ts';
import type { IpcAnswer } from '../core/api/client/ipc-answer.ts';
import type { RelayCaller, RelayInput } from './relay.ts';

/** Anything that relays a call to the service process (the shell's ServiceSupervisor, a RelayClient). */
export interface Relay {
  call(name: string, input: RelayInput, caller: RelayCaller): Promise<IpcAnswer>;
}

/**
 * The relay as a transport of the typed client, for main-side code (and tests)
 * that call the service process as `caller`: `createClient(relayTransport(…))`.
 * An error answer is thrown as the ApiClientError it describes.
 */
export function relayTransport(relay: Relay, caller: RelayCaller): Transport {
  return {
    async call(name, input) {
      const answer = await relay.call(name, input, caller);
      if (answer.ok) return answer.data;
      throw ApiClientError.fromBody(answer.error);
    },
  };
}
