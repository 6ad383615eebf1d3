import type { Operations } from '../../../src-main/core/api/contract/index.ts';
import type { ClientInput, ClientOutput } from './client.ts';

/** The shapes the UI works with, named once from the operation contracts: answers as parsed (z.output), requests as sent (z.input). */
type Out<K extends keyof Operations> = ClientOutput<Operations[K]>;
type In<K extends keyof Operations> = ClientInput<Operations[K]>;

export type Entry = Out<'getEntry'>;
export type EntryPage = Out<'listEntries'>;
export type SearchPage = Out<'searchEntries'>;
export type Folder = Out<'listFolders'>['list'][number];
export type Attachment = Entry['attachments'][number];
export type Fault = Entry['faults'][number];
export type MetaRecord = Entry['meta'][number];
export type ImportAnswer = Out<'importEntries'>;
export type ImportResult = ImportAnswer['results'][number];

export type Workflow = Out<'getWorkflow'>;
export type Step = Workflow['steps'][number];
export type Route = Step['next'][number];
export type Provider = Out<'listProviders'>['list'][number];
export type Job = Out<'getJob'>;
export type Intent = Job['intents'][number];
export type IntentEvent = Intent['events'][number];

export type Series = Out<'getSeries'>;
export type SeriesEntry = Out<'getSeriesEntry'>;
export type Verification = Out<'verifySeries'>;

export type Session = Out<'getSession'>;
export type Company = Out<'listCompanies'>['list'][number];
export type LocalApi = Out<'getLocalApi'>;

/** A change of an entry (PATCH): its document, folder, state, tags. */
export type EntryPatch = NonNullable<In<'patchEntry'>['body']>;
/** One item of a bulk import. */
export type ImportEntry = In<'importEntries'>['body']['entries'][number];
/** What an export holds: entries by id, or everything a folder and filters match. */
export type ExportSelection = NonNullable<In<'exportZip'>['body']>;
/** How a sync conflict is settled: keep one side, or (a key clash) rename one. */
export type ConflictResolution = NonNullable<In<'resolveSyncConflict'>['body']>;
