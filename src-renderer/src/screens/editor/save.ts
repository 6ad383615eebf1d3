// Saving from the editor: a draft (unnumbered, kept even with faults), an issued invoice
// (numbered from a series, signed), or a completed scan (the draft becomes the built invoice).
import { v5 as uuidv5 } from 'uuid';
import type { ApiClient } from '../../api/client.ts';
import { ApiClientError } from '../../api/errors.ts';
import type { Entry, Series } from '../../api/types.ts';
import type { Json } from '../entry/gobl.ts';

/** Namespace of the series entries the editor takes (fixed: changing it would renumber a retried issue). */
const EDITOR_NUMBERING_NAMESPACE = '3b0f8a52-6c1e-5d07-9e4a-2f7c1d9b8e61';

/**
 * The series entry an editor's issue takes is named by the silo entry and the series, as
 * `sequence.enumerate` names its own by job and step: a retry (a lost answer, a second click)
 * asks for the same id and gets the same number back, never a second one.
 */
export const numberingEntryId = (entryId: string, seriesId: string): string => uuidv5(`editor/${entryId}/${seriesId}`, EDITOR_NUMBERING_NAMESPACE);

/**
 * The document's series and code for an issued code, as `sequence.enumerate` writes them:
 * GOBL reads a number as `series-code`, so a code that already starts with the series code
 * (`FV-2026-00001` from series `FV`) keeps only the rest as its code.
 */
export function seriesAndCode(seriesCode: string, issued: string): { series?: string; code: string } {
  if (!seriesCode) return { code: issued };
  const lead = `${seriesCode}-`;
  return issued.length > lead.length && issued.startsWith(lead) ? { series: seriesCode, code: issued.slice(lead.length) } : { series: seriesCode, code: issued };
}

export interface SaveTarget {
  entryId: string;
  /** the entry is stored already (a saved draft, a correction): changes are PATCHes */
  exists: boolean;
  /** the version the editor loaded or last saved: sent as If-Match, so a change made elsewhere is a 412, not overwritten */
  version?: string;
}

/** Stores under the editor's id, or replaces the stored document. */
async function store(api: ApiClient, target: SaveTarget, doc: Json, options: { sign?: boolean; allowInvalid?: boolean; state?: string }): Promise<Entry> {
  const body = { data: doc, ...(options.sign ? { sign: true } : {}), ...(options.allowInvalid ? { allow_invalid: true } : {}), ...(options.state ? { state: options.state } : {}) };
  if (!target.exists) {
    try {
      return await api.putEntry({ params: { id: target.entryId }, body });
    } catch (error) {
      // Stored meanwhile (an earlier save whose answer was lost): change it instead.
      if (!(error instanceof ApiClientError && error.key === 'conflict')) throw error;
    }
  }
  const headers = target.version !== undefined ? { 'if-match': `"${target.version}"` } : {};
  return api.patchEntry({ params: { id: target.entryId }, headers, body: { content_type: 'application/json', ...body } });
}

/** A draft: unnumbered, unsigned, kept with its faults (flagged invalid) so nothing typed is lost. */
export const saveDraft = (api: ApiClient, target: SaveTarget, doc: Json): Promise<Entry> => store(api, target, doc, { allowInvalid: true });

/**
 * Issues the invoice: GOBL must find nothing wrong first (no number is taken for a document
 * that cannot be issued), then the series' next number, then the numbered document is stored
 * and signed.
 */
export async function issueInvoice(api: ApiClient, target: SaveTarget, doc: Json, series: Series | undefined): Promise<Entry> {
  let numbered = doc;
  if (series) {
    await api.buildGobl({ body: { data: doc } });
    const issued = await api.putSeriesEntry({
      params: { series_id: series.id, id: numberingEntryId(target.entryId, series.id) },
      body: { meta: { silo_entry_id: target.entryId } },
    });
    const { series: seriesCode, code } = seriesAndCode(series.code, issued.code);
    numbered = { ...doc, code };
    if (seriesCode) numbered.series = seriesCode;
    else delete numbered.series;
  }
  return store(api, target, numbered, { sign: true });
}

/** A scan completed into the invoice it shows: the draft entry now holds the built document (its files stay). */
export const completeScan = (api: ApiClient, target: SaveTarget, doc: Json, allowInvalid: boolean): Promise<Entry> =>
  store(api, { ...target, exists: true }, doc, { allowInvalid, state: 'received' });
