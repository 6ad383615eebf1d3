import type { Ctx } from '../api/handler.ts';
import { signEnvelope } from '../gobl/sign/index.ts';
import { storeAttachment } from '../silo/attachments.ts';
import { standingVerdict } from '../silo/check-mark.ts';
import { digestOfRow } from '../silo/stored-schema.ts';
import { deriveCheckedDocument, deriveDocument, isSigned, storedDocument, toEnvelope, type DerivedDocument, type Envelope } from '../silo/document.ts';
import { requireEntryRow } from '../silo/entries.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import { writeEntryChange } from '../silo/patch.ts';
import { sameSignatures, sigsCheckFor } from '../silo/signatures.ts';
import type { StepContext } from './provider.ts';
import { checkedBefore, knownCheck } from './providers/checked-document.ts';
import { documentText, sameStored, type StoredDocument } from '../silo/packed-document.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';

/**
 * The entry's envelope as the steps of one job read it, parsed once while its stored text
 * stays the same: the runner hands one of these to every step it runs back to back
 * (runner.ts), so a job of three steps parses the document once, not at every step, and
 * GOBL's check of it is found once (checked-document.ts). Whatever wrote the entry in
 * between, a changed text is parsed anew.
 */
export class EntryReads {
  #data: StoredDocument | undefined;
  #envelope: Envelope | undefined;
  #digest: { alg: string; val: string } | undefined;

  /** The envelope of `row`'s stored document; a large one's text is parsed a piece at a time (4.4 MB: 40-60 ms in one JSON.parse). */
  async envelopeOf(row: EntryRow): Promise<Envelope> {
    if (sameStored(this.#data, row.data) && this.#envelope) return this.#envelope;
    const envelope = (await parseStoredJson(documentText(row.data, row.id))) as Envelope;
    this.#envelope = envelope;
    this.#data = row.data;
    this.#digest = digestOfRow(row);
    const verdict = standingVerdict(row);
    if (verdict) knownCheck(envelope, verdict);
    return envelope;
  }

  /**
   * The envelope the job's steps last read or wrote, while its stored text is known; undefined
   * after a write of another document. Within a round nothing else writes the entry between
   * its steps on SQLite; on PostgreSQL another request may have, so it is a hint, not a read.
   */
  get lastEnvelope(): Envelope | undefined {
    return this.#envelope;
  }

  /** The stored document `envelope` was parsed from, if it is the one handed out (not a copy a step made). */
  storedOf(envelope: Envelope): StoredDocument | undefined {
    return this.#envelope === envelope ? this.#data : undefined;
  }

  /** The stored digest of `envelope`'s document, if it is the one handed out. */
  digestOf(envelope: Envelope): { alg: string; val: string } | undefined {
    return this.#envelope === envelope ? this.#digest : undefined;
  }

  /** After a write that stored `envelope` as `data`: an envelope parsed from text, and so plain JSON, is kept, with its digest. */
  wrote(data: StoredDocument, envelope: Envelope | undefined, digest: { alg: string; val: string }): void {
    this.#data = envelope ? data : undefined;
    this.#envelope = envelope;
    this.#digest = envelope ? digest : undefined;
  }
}

/** An envelope this context signed (seal), with the stored text it was made from. */
type Sealed = { from: StoredDocument };

/** The silo as a step sees it: reads of its job's entry, and writes for `apply`. */
export function makeStepContext(
  ctx: Ctx,
  job: StepContext['job'],
  step: StepContext['step'],
  attempt: number,
  signal: AbortSignal,
  reads: EntryReads = new EntryReads(),
): StepContext {
  const entryId = job.silo_entry_id;
  const sealed = new WeakMap<Envelope, Sealed>();

  /**
   * The document to write for `next`. An envelope this context sealed from the stored one,
   * unsigned and found clean by GOBL, is taken as PATCH with `sign` takes the instance's own
   * signature (admit.ts): the signature as made, the document's digest and its faults
   * (none) as found; anything else is checked like a PATCH.
   */
  const documentFor = async (row: EntryRow, next: Envelope): Promise<DerivedDocument> => {
    const seal = sealed.get(next);
    if (seal && sameStored(seal.from, row.data)) {
      return deriveDocument(next, digestOfRow(row), []);
    }
    const { envelope } = toEnvelope(entryId, next as Record<string, unknown>);
    // A step (silo.modify's patch) can no more seal a document with a signature nobody checked than PATCH can.
    if (!sameSignatures(await reads.envelopeOf(row), envelope)) await sigsCheckFor(ctx, '$.envelope')(envelope);
    return deriveCheckedDocument(envelope);
  };

  return {
    service: ctx.service,
    owner: ctx.caller,
    job,
    step,
    attempt,
    signal,
    async entry() {
      const row = await requireEntryRow(ctx, entryId);
      return {
        envelope: await reads.envelopeOf(row),
        state: row.state,
        folder: row.folder,
        tags: JSON.parse(row.tags) as string[],
        signed: row.signed === 1,
        version: row.version,
      };
    },
    async updateEntry(changes) {
      const row = await requireEntryRow(ctx, entryId);
      // A new document is checked by GOBL; a change of state, folder or tags keeps what the
      // stored one was found to be (checking it again would rebuild it for nothing).
      const current = changes.envelope ? undefined : await reads.envelopeOf(row);
      const doc = current === undefined ? await documentFor(row, changes.envelope!) : storedDocument(row, current);
      const written = await writeEntryChange(ctx, row, doc, { state: changes.state, folder: changes.folder, tags: changes.tags });
      // Only labels changed: the parsed envelope still is the stored document.
      reads.wrote(written.data, current, doc.digest);
    },
    async attach(file) {
      const id = file.id ?? (file.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 128) || 'file');
      const row = await storeAttachment(ctx, entryId, { id, name: file.name, mime: file.mime, desc: file.desc }, file.content);
      return { id: row.id, hash: row.hash, size: row.size };
    },
    seal(envelope) {
      const { keys } = ctx.service;
      // Only the stored envelope as handed out, unsigned and found clean (its head's digest is its document's), may skip the checks.
      const from = reads.storedOf(envelope);
      const clean = from !== undefined && !isSigned(envelope) && checkedBefore(envelope)?.length === 0;
      const signer = { kid: keys.kid, sign: (payload: object) => keys.sign(payload) };
      const signed = signEnvelope(envelope, signer, { docDigest: clean ? reads.digestOf(envelope) : undefined }) as Envelope;
      if (clean) sealed.set(signed, { from });
      return signed;
    },
  };
}
