import { validationError } from '../../api/errors.ts';
import { trustedJwksRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { findTrustedJwks, removeTrustedJwks, saveTrustedJwks, trustedJwksView } from '../../silo/trusted-jwks.ts';
import { uuidRef, type RecordKind } from './kind.ts';

type TrustedJwksRecord = SyncRecordOf['trusted_jwks'];


/**
 * A signer the company trusts, so a document it signed verifies on every instance
 * of the company, not only where the owner added it. Written through the same path
 * as the API (silo/trusted-jwks.ts), which refuses anyone but an owner: a laptop
 * syncing with a user token cannot make the remote trust a key. The keys are public
 * and the feed serves them to every peer of the company: a laptop syncing with a
 * user token needs them to check the signed documents it pulls.
 */
export const trustedJwksKind: RecordKind<TrustedJwksRecord, string> = {
  kind: 'trusted_jwks',
  schema: trustedJwksRecord,
  refOf: uuidRef,
  async read(ctx, id) {
    const row = await findTrustedJwks(ctx.service.db, ctx.caller.companyKey, id);
    if (!row) return undefined;
    const { name, keys, created_at } = trustedJwksView(row);
    return { id, name, keys, created_at };
  },
  content: (r) => ({ name: r.name, keys: r.keys }),
  async apply(ctx, id, record) {
    if (record === null) {
      await removeTrustedJwks(ctx, id);
      return;
    }
    if (record.id !== id) throw validationError('record id must equal the id in the path', { '$.record.id': `must equal ${id}` });
    await saveTrustedJwks(ctx, id, { name: record.name, keys: record.keys }, new Date(record.created_at).toISOString());
  },
};
