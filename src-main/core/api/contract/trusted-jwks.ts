import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { label, uuid } from './common.ts';

const b64url = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{43}$/, `must be the 32-byte ${what} coordinate, base64url`);

/**
 * A public P-256 key as a JWKS lists it (GOBL signs ES256 only). Other members a
 * JWKS may carry (`key_ops`, `x5c`…) are dropped; private key material is refused,
 * so a key pasted by mistake is never stored.
 */
export const trustedJwk = z
  .looseObject({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: b64url('x'),
    y: b64url('y'),
    kid: z.string().min(1).max(200).optional(),
    alg: z.literal('ES256').optional(),
    use: z.literal('sig').optional(),
    valid_from: z.iso.datetime({ offset: true }).optional(),
    valid_until: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((jwk) => !('d' in jwk), { message: 'is a private key (it has d): send the public key only', path: ['d'] })
  .transform(({ kty, crv, x, y, kid, alg, use, valid_from, valid_until }) => ({
    kty, crv, x, y,
    ...(kid !== undefined ? { kid } : {}),
    ...(alg !== undefined ? { alg } : {}),
    ...(use !== undefined ? { use } : {}),
    ...(valid_from !== undefined ? { valid_from } : {}),
    ...(valid_until !== undefined ? { valid_until } : {}),
  }));

export const MAX_TRUSTED_KEYS = 50;

const trustedJwksSchema = z.object({
  id: z.string(),
  name: z.string(),
  keys: z.array(z.object({ kty: z.string(), crv: z.string(), x: z.string(), y: z.string(), kid: z.string().optional() }).loose()),
  created_at: z.string(),
  updated_at: z.string(),
});

const params = z.object({ id: uuid });

/** Signers whose GOBL signatures a company accepts on documents, beside its own instances' keys. */
export const trustedJwksOperations = {
  listTrustedJwks: defineOperation({
    method: 'GET',
    path: '/silo/v1/trusted-jwks',
    summary: "The JWKS this company trusts for envelope signatures (beside this instance's and its paired instances' keys)",
    area: 'silo',
    access: ['owner'],
    output: z.object({ list: z.array(trustedJwksSchema) }),
  }),
  putTrustedJwks: defineOperation({
    method: 'PUT',
    path: '/silo/v1/trusted-jwks/{id}',
    summary: 'Trust a signer: documents signed with one of these public keys are accepted as signed (replaces the set under this id)',
    area: 'silo',
    access: ['owner'],
    params,
    body: z.strictObject({
      name: label(200),
      keys: z.array(trustedJwk).min(1, 'must list at least one key').max(MAX_TRUSTED_KEYS, `at most ${MAX_TRUSTED_KEYS} keys`),
    }),
    output: trustedJwksSchema,
  }),
  deleteTrustedJwks: defineOperation({
    method: 'DELETE',
    path: '/silo/v1/trusted-jwks/{id}',
    summary: 'Stop trusting a signer for new documents (documents already stored stay as they are)',
    area: 'silo',
    access: ['owner'],
    params,
    output: z.object({ id: z.string(), deleted: z.boolean() }),
  }),
};
