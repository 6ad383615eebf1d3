import { hashBytes } from '../../files/hashed-bytes.ts';
import { z } from 'zod';
import { docTypeOf } from '../../gobl/index.ts';
import { renderInvoicePdf } from '../../pdf/invoice-pdf.ts';
import { isLocaleTag } from '../../pdf/locale.ts';
import { defineProvider } from '../provider.ts';
import { documentFileName } from './document-file-name.ts';

const PDF_ID = 'pdf';
const PDF_MIME = 'application/pdf';
const PDF_DESC = 'Invoice PDF';

const pdfConfig = z
  .object({
    locale: z
      .string()
      .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/, 'must be a language tag like es, el-GR or en-IN')
      .refine(isLocaleTag, 'must be a valid BCP 47 language tag')
      .optional(),
  })
  .strict();

type PdfConfig = z.infer<typeof pdfConfig>;

/**
 * Renders the entry's invoice as a PDF and attaches it as `pdf`. The render is
 * deterministic, so a retried or repeated step attaches the very same bytes.
 */
export const pdfProvider = defineProvider<PdfConfig>({
  id: 'pdf',
  description: 'Renders the invoice as a PDF and attaches it to the entry',
  config: pdfConfig,
  timeoutMs: 60_000,
  run: async (ctx, config) => {
    const { envelope } = await ctx.entry();
    const type = docTypeOf(envelope.doc?.$schema);
    if (type !== 'bill/invoice') {
      return { status: 'KO', code: 'not-invoice', message: `only invoices are rendered, this is ${type ?? 'an unknown document'}` };
    }
    let bytes: Uint8Array;
    try {
      bytes = await renderInvoicePdf(envelope, { locale: config.locale });
    } catch (err) {
      // The same document would fail the same way again: no point retrying.
      return { status: 'KO', code: 'render-failed', message: err instanceof Error ? err.message : String(err) };
    }
    const name = documentFileName(envelope, 'pdf');
    // Attachments are immutable: a `pdf` from an earlier version of the document (or
    // another locale) cannot be replaced, and trying inside `apply` would only fail
    // the engine's transaction on every retry.
    const { db } = ctx.service;
    const existing = await db.first(
      db.q
        .selectFrom('attachments')
        .selectAll()
        .where('company_id', '=', ctx.owner.companyKey)
        .where('entry_id', '=', ctx.job.silo_entry_id)
        .where('id', '=', PDF_ID),
    );
    const content = hashBytes(bytes);
    const same = existing && existing.hash === content.hash && existing.name === name && existing.mime === PDF_MIME && existing.desc === PDF_DESC;
    if (existing && !same) {
      return {
        status: 'KO',
        code: 'pdf-exists',
        message: `the entry already has another PDF as attachment "${PDF_ID}"; the document or the locale changed since it was made`,
      };
    }
    return {
      status: 'OK',
      message: `rendered ${name} (${bytes.byteLength} bytes)`,
      apply: async () => {
        await ctx.attach({ id: PDF_ID, name, mime: PDF_MIME, content, desc: PDF_DESC });
      },
    };
  },
});
