// Envelope signatures in GOBL's form: sign (ES256 compact JWS over head uuid + digest) and verify.
export { canSign, documentReadyToSign, signingFaults } from './can-sign.ts';
export { signEnvelope } from './sign-envelope.ts';
export type { EnvelopeSigner, SignOptions } from './sign-envelope.ts';
export { verifyEnvelopeSigs } from './verify.ts';
export type { SigCheck, SigProblem, SigsReport, VerifyingJwk } from './verify.ts';
export { payloadMatchesHead, signingPayload } from './payload.ts';
export type { SigningPayload } from './payload.ts';
