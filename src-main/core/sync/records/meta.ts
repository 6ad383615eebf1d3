import { validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { metaRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import type { MetaRow } from '../../silo/entry-view.ts';
import { deleteMeta, putMeta } from '../../silo/meta.ts';
import type { RecordKind } from './kind.ts';

type MetaRecord = SyncRecordOf['meta'];

/** A meta record is one entry's, from one source, under one key. */
export interface MetaRef {
  entryId: string;
  src: string;
  key: string;
}

const KEY = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';
const ID = new RegExp(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(${KEY}):(${KEY})$`);

export const metaKind: RecordKind<MetaRecord, MetaRef> = {
  kind: 'meta',
  schema: metaRecord,
  // Sync names it as the API shows it: `entry-id:src:key`.
  refOf(id) {
    const m = ID.exec(id);
    return m ? { entryId: m[1], src: m[2], key: m[3] } : undefined;
  },
  parentOf: (ref) => ({ kind: 'entry', id: ref.entryId }),
  entryOf: (ref) => ref.entryId,
  async read(ctx, ref) {
    const row = await findRow(ctx, ref);
    return row ? metaRecordOf(row) : undefined;
  },
  content: (r) => ({ ref: r.ref, value: r.value, shared: r.shared, link_scope: r.link_scope, link_url: r.link_url }),
  async apply(ctx, ref, record) {
    const { entryId, src, key } = ref;
    if (record === null) {
      if (await findRow(ctx, ref)) await deleteMeta(ctx, entryId, key, src);
      return;
    }
    if (record.entry_id !== entryId || record.src !== src || record.key !== key) {
      throw validationError('record entry_id, src and key must match the id in the path', { '$.record.key': `must be ${entryId}:${src}:${key}` });
    }
    await putMeta(ctx, entryId, key, {
      src,
      ref: record.ref,
      value: record.value,
      shared: record.shared,
      link_scope: record.link_scope,
      link_url: record.link_url,
    });
  },
};

async function findRow(ctx: Ctx, ref: MetaRef): Promise<MetaRow | undefined> {
  const { db } = ctx.service;
  return await db.first(
    db.q
      .selectFrom('entry_meta')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('entry_id', '=', ref.entryId)
      .where('key', '=', ref.key)
      .where('src', '=', ref.src),
  );
}

function metaRecordOf(row: MetaRow): MetaRecord {
  return {
    entry_id: row.entry_id,
    src: row.src,
    key: row.key,
    ref: row.ref,
    value: JSON.parse(row.value) as MetaRecord['value'],
    shared: row.shared === 1,
    link_scope: row.link_scope,
    link_url: row.link_url,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
