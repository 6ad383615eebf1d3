import { conflict, notFound } from '../api/errors.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { metaView, type MetaRow } from './entry-view.ts';
import { requireEntryRow } from './entries.ts';

/** A meta record as PUT takes it: the contract's body, parsed (defaults filled in). */
export type PutMetaInput = ParsedInput<Operations['putMeta']>['body'];

// Every statement names the company: an entry id is only unique within its company (issue 12).
export async function putMeta(ctx: Ctx, entryId: string, key: string, input: PutMetaInput) {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const at = nowIso();
  const row = await db.tx(async () => {
    // In the write's transaction, so the entry cannot go between the look-up and the write.
    await requireEntryRow(ctx, entryId);
    const values = {
      ref: input.ref,
      value: JSON.stringify(input.value),
      shared: input.shared ? 1 : 0,
      link_scope: input.link_scope,
      link_url: input.link_url,
      updated_at: at,
    };
    await db.run(
      db.q
        .insertInto('entry_meta')
        .values({ company_id: company, entry_id: entryId, key, src: input.src, created_at: at, ...values })
        .onConflict((oc) => oc.columns(['company_id', 'entry_id', 'key', 'src']).doUpdateSet(values)),
    );
    await db.run(
      db.q
        .updateTable('entries')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: at }))
        .where('company_id', '=', company)
        .where('id', '=', entryId),
    );
    return (await db.first(
      db.q
        .selectFrom('entry_meta')
        .selectAll()
        .where('company_id', '=', company)
        .where('entry_id', '=', entryId)
        .where('key', '=', key)
        .where('src', '=', input.src),
    ))!;
  }, { origin: db.origin ?? LOCAL });
  return metaView(row);
}

/** Meta records with this key; without `src`, the key must name exactly one. */
async function findMeta(ctx: Ctx, entryId: string, key: string, src: string | undefined): Promise<MetaRow[]> {
  const { db } = ctx.service;
  await requireEntryRow(ctx, entryId);
  let q = db.q.selectFrom('entry_meta').selectAll().where('company_id', '=', ctx.caller.companyKey).where('entry_id', '=', entryId).where('key', '=', key);
  if (src !== undefined) q = q.where('src', '=', src);
  const rows = await db.all(q);
  if (rows.length === 0) throw notFound(`meta ${key} of entry ${entryId}`);
  if (rows.length > 1) {
    throw conflict(`meta ${key} exists from several sources (${rows.map((r) => r.src).join(', ')}); pass ?src=`);
  }
  return rows;
}

export async function getMeta(ctx: Ctx, entryId: string, key: string, src?: string) {
  return metaView((await findMeta(ctx, entryId, key, src))[0]);
}

export function deleteMeta(ctx: Ctx, entryId: string, key: string, src?: string): Promise<{ deleted: number }> {
  const { db } = ctx.service;
  return db.tx(async () => {
    // In the write's transaction, so the record cannot go between the look-up and the delete.
    const [row] = await findMeta(ctx, entryId, key, src);
    const { changes } = await db.run(
      db.q
        .deleteFrom('entry_meta')
        .where('company_id', '=', row.company_id)
        .where('entry_id', '=', entryId)
        .where('key', '=', key)
        .where('src', '=', row.src),
    );
    await db.run(
      db.q
        .updateTable('entries')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: nowIso() }))
        .where('company_id', '=', row.company_id)
        .where('id', '=', entryId),
    );
    return { deleted: changes };
  }, { origin: db.origin ?? LOCAL });
}
