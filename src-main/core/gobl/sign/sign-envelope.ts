// Signs an envelope as GOBL's Envelope.Sign does: a compact JWS, header {"alg":"ES256","kid":…}
// (go-jose writes the protected header with sorted keys and nothing else), over the signing
// payload of the head, appended to `sigs`. ES256 only, as GOBL.
import type { KeyObject } from 'node:crypto';
import { signCompactEs256 } from '../../keys/jws.ts';
import { BuildError } from '../engine/types.ts';
import type { EngineFault, Node } from '../engine/types.ts';
import { signingFaults } from './can-sign.ts';
import { signingPayload } from './payload.ts';
import type { SigningPayload } from './payload.ts';

/** A key given directly, or a signer such as InstanceKeys (its `sign` writes the same JWS form). */
export type EnvelopeSigner =
  | { kid: string; privateKey: KeyObject }
  | { kid: string; sign: (payload: object) => string };

export interface SignOptions {
  /** The signing time (`iat`); GOBL uses the current time. */
  now?: Date;
  /** The signer's GOBL Net address, a `gobl:` URI. */
  iss?: string;
  /** The audience the signature is bound to. */
  aud?: string;
  /** The signer's assertion, e.g. `registered` or `verified`. */
  scope?: string;
  /** The document's schema and rule faults: GOBL validates the whole envelope before keeping a signature. */
  validate?: (envelope: Node) => EngineFault[];
  /** The document's digest, when the caller worked it out from this very document (it is not worked out again). */
  docDigest?: { alg: string; val: string };
}

function compactJws(key: EnvelopeSigner, payload: SigningPayload): string {
  if ('privateKey' in key) {
    if (key.privateKey.asymmetricKeyType !== 'ec' || key.privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new BuildError([{ code: 'signing-key', message: 'GOBL signs with ES256: the key must be a P-256 EC private key', paths: ['$'] }]);
    }
    return signCompactEs256(key.privateKey, key.kid, payload);
  }
  return key.sign(payload);
}

/** The envelope with one more signature; throws BuildError when GOBL would refuse to sign it. */
export function signEnvelope(envelope: Node, key: EnvelopeSigner, options: SignOptions = {}): Node {
  if (!key.kid) throw new BuildError([{ code: 'signing-key', message: 'a signing key needs a kid', paths: ['$'] }]);
  const faults = signingFaults(envelope, options.docDigest);
  if (faults.length === 0 && options.validate) faults.push(...options.validate(envelope));
  if (faults.length > 0) throw new BuildError(faults);
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const payload = signingPayload(envelope.head, { iat, iss: options.iss, aud: options.aud, scope: options.scope });
  const sigs = Array.isArray(envelope.sigs) ? envelope.sigs : [];
  return { $schema: envelope.$schema, head: envelope.head, doc: envelope.doc, sigs: [...sigs, compactJws(key, payload)] };
}
