import type { Selectable } from 'kysely';
import type { AttachmentsTable, EntriesTable, EntryMetaTable } from '../db/tables.ts';
import type { Store } from '../db/store.ts';
import { parseFaults } from '../gobl/fault.ts';

export type EntryRow = Selectable<EntriesTable>;
export type AttachmentRow = Selectable<AttachmentsTable>;
export type MetaRow = Selectable<EntryMetaTable>;

export const attachmentUrl = (entryId: string, id: string) => `/silo/v1/entries/${entryId}/files/${id}`;

export function attachmentView(row: AttachmentRow) {
  return {
    id: row.id,
    entry_id: row.entry_id,
    created_at: row.created_at,
    desc: row.desc,
    hash: row.hash,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
    mime: row.mime,
    name: row.name,
    size: row.size,
    stored: true,
    url: attachmentUrl(row.entry_id, row.id),
  };
}

export function metaView(row: MetaRow) {
  return {
    id: `${row.entry_id}:${row.src}:${row.key}`,
    entry_id: row.entry_id,
    key: row.key,
    src: row.src,
    ref: row.ref,
    value: JSON.parse(row.value) as unknown,
    shared: row.shared === 1,
    link_scope: row.link_scope,
    link_url: row.link_url,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type EntryView = ReturnType<typeof entryView>;

export function entryView(
  row: EntryRow,
  attachments: AttachmentRow[],
  meta: MetaRow[],
  withData: boolean,
  context?: string,
  /** the envelope when already parsed (a fresh write), so it is not parsed back */
  data?: Record<string, unknown>,
) {
  return {
    id: row.id,
    ...(row.key !== null ? { key: row.key } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
    attachments: attachments.map(attachmentView),
    context: context ?? row.context,
    ...(withData || data ? { data: data ?? (JSON.parse(row.data) as Record<string, unknown>) } : {}),
    digest: { alg: row.digest_alg, val: row.digest_val },
    doc_schema: row.doc_schema,
    env_schema: row.env_schema,
    draft: row.draft === 1,
    invalid: row.invalid === 1,
    signed: row.signed === 1,
    faults: [...parseFaults(row.faults), ...parseFaults(row.step_faults)],
    folder: row.folder,
    meta: meta.map(metaView),
    snippet: JSON.parse(row.snippet) as Record<string, string>,
    state: row.state,
    tags: JSON.parse(row.tags) as string[],
  };
}

/** Builds views for a page of rows with two batched look-ups instead of two per row. */
export function entryViews(store: Store, rows: EntryRow[], withData = false, contexts?: Map<string, string>): EntryView[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const attachments = groupBy(
    store.all(store.q.selectFrom('attachments').selectAll().where('entry_id', 'in', ids).orderBy('created_at')),
  );
  const meta = groupBy(
    store.all(store.q.selectFrom('entry_meta').selectAll().where('entry_id', 'in', ids).orderBy('key')),
  );
  return rows.map((r) => entryView(r, attachments.get(r.id) ?? [], meta.get(r.id) ?? [], withData, contexts?.get(r.id)));
}

function groupBy<R extends { entry_id: string }>(rows: R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const list = out.get(r.entry_id);
    if (list) list.push(r);
    else out.set(r.entry_id, [r]);
  }
  return out;
}
