import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { closedObject, folder, queryInt, state, tag, uuid } from './common.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2024-12-31');

/** The most entries one export takes by id (a selection); a folder or a filter has no such cap. */
export const MAX_EXPORT_IDS = 50_000;

/**
 * Which entries an export holds: the ids of a selection, or everything matching a folder and
 * filters (everything of the company when nothing is given). Ids and filters narrow together.
 */
const selectionShape = {
  ids: z.array(uuid).min(1).max(MAX_EXPORT_IDS, `at most ${MAX_EXPORT_IDS} entries by id; export a folder for more`).optional(),
  folder: folder.optional(),
  state: state.optional(),
  tag: tag.optional(),
  /** the document's issue date range, inclusive (YYYY-MM-DD) */
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
};

const csvOptions = {
  /** one row per document, or one per tax rate of each document (base, percent and amount of that rate) */
  rows: z.enum(['document', 'tax-rate']).default('document'),
  /** the field separator: `;` for spreadsheets in locales that write decimals with a comma */
  delimiter: z.enum([',', ';', '\t']).default(','),
  /** the decimal mark of amounts */
  decimal: z.enum(['.', ',']).default('.'),
  /** start with a UTF-8 byte order mark, so spreadsheets read accents right */
  bom: z.boolean().default(true),
};

const backupSettings = z.object({
  /** the folder backups are written to (absolute; outside the data folder); empty: not set */
  folder: z.string(),
  /** take one every N hours while the app runs */
  every_hours: z.number().int(),
  /** how many backups to keep; older ones are deleted after each new one */
  keep: z.number().int(),
  enabled: z.boolean(),
});

const backupRecord = z.object({
  name: z.string(),
  path: z.string(),
  created_at: z.string(),
  bytes: z.number().int(),
  files: z.number().int(),
  entries: z.number().int(),
});

const backupStatus = z.object({
  settings: backupSettings,
  running: z.boolean(),
  /** when the scheduler takes the next one (absent when off or unset) */
  next_at: z.string().optional(),
  /** the last attempt, successful or not */
  last: z
    .object({
      at: z.string(),
      ok: z.boolean(),
      name: z.string().optional(),
      error: z.string().optional(),
      /** attachments the database names that were gone from files/ when copied (purged meanwhile) */
      missing_files: z.number().int().optional(),
    })
    .optional(),
  /** the backups in the folder, newest first */
  backups: z.array(backupRecord),
});

export const exportOperations = {
  exportZip: defineOperation({
    method: 'POST',
    path: '/silo/v1/exports/zip',
    summary: 'A ZIP of the selected entries: each envelope with its attachments, and an index.csv of the documents',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: closedObject(selectionShape),
    output: 'binary',
  }),
  exportCsv: defineOperation({
    method: 'POST',
    path: '/silo/v1/exports/csv',
    summary: 'A CSV of the selected documents for spreadsheets and accounting software (RFC 4180; credit notes negative)',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: closedObject({ ...selectionShape, ...csvOptions }),
    output: 'binary',
  }),
  getBackup: defineOperation({
    method: 'GET',
    path: '/utils/v1/backup',
    summary: "The data folder's scheduled backup: settings, the last run and the backups kept (the install's owner only)",
    area: 'utils',
    access: ['owner'],
    output: backupStatus,
  }),
  putBackupSettings: defineOperation({
    method: 'PUT',
    path: '/utils/v1/backup',
    summary: 'Set where, how often and how many backups of the data folder are taken (the install\'s owner only)',
    area: 'utils',
    access: ['owner'],
    body: closedObject({
      folder: z.string().max(1024),
      every_hours: queryInt(1, 24 * 30),
      keep: queryInt(1, 365),
      enabled: z.boolean(),
    }),
    output: backupStatus,
  }),
  runBackup: defineOperation({
    method: 'POST',
    path: '/utils/v1/backup/run',
    summary: 'Take a backup of the data folder now; answers once it is complete (the install\'s owner only)',
    area: 'utils',
    access: ['owner'],
    output: backupStatus,
  }),
};
