import type { Selectable } from 'kysely';
import type { AttachmentsTable, IntentsTable, JobsTable } from '../db/tables.ts';
import type { Db } from '../db/engine.ts';
import { parseFaults } from '../gobl/fault.ts';
import { JsonText } from '../api/json-text.ts';
import { attachmentUrl } from '../silo/entry-view.ts';
import { documentText, type StoredDocument } from '../silo/packed-document.ts';

export type JobRow = Selectable<JobsTable>;
export type IntentRow = Selectable<IntentsTable>;

// Every job answered runs these (raw SQL: the statements stay prepared).
export const JOB_VIEW_SQL = {
  intents: 'SELECT * FROM intents WHERE company_id = ? AND job_id = ? ORDER BY seq',
  attachments: 'SELECT * FROM attachments WHERE company_id = ? AND entry_id = ? ORDER BY created_at',
  data: 'SELECT data FROM entries WHERE company_id = ? AND id = ?',
};

export interface IntentEvent {
  at: string;
  index: number;
  status: string;
  code?: string;
  message?: string;
}

/**
 * How a job's document goes into its view: parsed; as its stored text, for an adapter that
 * writes answers with writeJson (json-text.ts), so a job answered over HTTP does not parse
 * the document only for JSON.stringify to write it back; or not at all (a list of jobs).
 */
export type JobEnvelope = 'value' | 'text' | 'none';

/**
 * A job as the API shows it: its intents with their events, the faults raised,
 * and the document and files as the job left them (as they stand while it runs).
 */
export async function jobView(db: Db, row: JobRow, envelopeAs: JobEnvelope = 'value') {
  // Job and entry ids are unique only within a company: every look-up names the job's.
  const company = row.company_id;
  const intents = await db.sql<IntentRow>(JOB_VIEW_SQL.intents, [company, row.id]);
  const attachments = await db.sql<Selectable<AttachmentsTable>>(JOB_VIEW_SQL.attachments, [company, row.silo_entry_id]);
  let envelope: Record<string, unknown> | undefined;
  if (envelopeAs !== 'none') {
    const stored = row.envelope ?? (await db.sqlFirst<{ data: StoredDocument }>(JOB_VIEW_SQL.data, [company, row.silo_entry_id]))?.data;
    // The job keeps the entry's document as the entry row packed it, for that entry.
    if (stored) {
      const text = documentText(stored, row.silo_entry_id);
      envelope = (envelopeAs === 'text' ? new JsonText(text) : JSON.parse(text)) as Record<string, unknown>;
    }
  }
  return {
    id: row.id,
    ...(row.key !== null ? { key: row.key } : {}),
    workflow_id: row.workflow_id,
    workflow_version: String(row.workflow_version),
    silo_entry_id: row.silo_entry_id,
    status: row.status,
    tags: JSON.parse(row.tags) as string[],
    args: JSON.parse(row.args) as Record<string, unknown>,
    ...(envelope ? { envelope } : {}),
    attachments: attachments.map((a) => ({
      id: a.id,
      desc: a.desc,
      hash: a.hash,
      meta: JSON.parse(a.meta) as Record<string, unknown>,
      mime: a.mime,
      name: a.name,
      size: a.size,
      url: attachmentUrl(a.entry_id, a.id),
    })),
    faults: parseFaults(row.faults),
    intents: intents
      .filter((i) => i.events !== '[]')
      .map((i) => ({
        id: i.id,
        step_id: i.step_id,
        name: i.name,
        provider: i.provider,
        completed: i.completed === 1,
        events: JSON.parse(i.events) as IntentEvent[],
        created_at: i.created_at,
        updated_at: i.updated_at,
      })),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.completed_at ? { completed_at: row.completed_at } : {}),
  };
}

export type JobView = Awaited<ReturnType<typeof jobView>>;
