// org: each type's own cleaning. Free-text fields go through cbc.NormalizeString, zero UUIDs
// are dropped, and a few fields get a stricter code cleaning.
import type { Node, NormRule } from '../engine/types.ts';
import { isEmail, isUrl } from '../validate/rules/formats.ts';
import {
  goTrimSpace,
  normalizeAlphanumericalCode,
  normalizeString,
  normalizeStrictCode,
  normalizeStringFields,
  normalizeUpperCode,
  normalizeUuidField,
} from './strings.ts';

// Types whose normaliser is only "drop a zero UUID and clean these text fields".
const TEXT_FIELDS: Array<[type: string, uuid: boolean, fields: string[]]> = [
  ['org.Party', true, ['label', 'name', 'alias']],
  ['org.Person', true, ['label', 'role']],
  ['org.Item', false, ['name', 'description']],
  ['org.DocumentRef', true, ['reason', 'url']],
  ['org.Email', true, ['label', 'addr']],
  ['org.Endpoint', true, ['label']],
  ['org.Identity', true, ['label', 'description']],
  ['org.Name', true, ['alias', 'prefix', 'given', 'middle', 'surname', 'surname2', 'suffix']],
  ['org.Note', true, ['text']],
  ['org.Registration', true, ['label', 'office', 'book', 'volume', 'sheet', 'section', 'page', 'entry', 'other']],
  ['org.Website', true, ['label', 'title', 'url']],
  ['org.Attachment', true, ['name', 'description', 'url', 'mime']],
];

function textRule(type: string, uuid: boolean, fields: string[]): NormRule {
  return {
    type,
    apply: (node) => {
      if (uuid) normalizeUuidField(node);
      normalizeStringFields(node, fields);
    },
  };
}

export function normalizeAddress(address: Node): void {
  normalizeUuidField(address);
  normalizeStringFields(address, ['po_box', 'num', 'floor', 'block', 'door', 'street', 'street_extra', 'locality', 'region']);
  if (typeof address.state === 'string') address.state = normalizeAlphanumericalCode(address.state);
}

export function normalizeTelephone(phone: Node): void {
  normalizeUuidField(phone);
  normalizeStringFields(phone, ['label']);
  if (typeof phone.num === 'string') phone.num = goTrimSpace(phone.num);
}

/**
 * An inbox code that is an e-mail address or a URL moves to `email` / `url`; the scheme is
 * upper-cased and the code strictly cleaned; a Peppol code written `0208:0123…` is split into
 * scheme and code when no scheme is given.
 */
export function normalizeInbox(inbox: Node): void {
  normalizeUuidField(inbox);
  const code = typeof inbox.code === 'string' ? inbox.code : '';
  if (code !== '' && isEmail(code)) {
    inbox.email = code;
    inbox.code = '';
  } else if (code !== '' && isUrl(code)) {
    inbox.url = code;
    inbox.code = '';
  }
  if (typeof inbox.label === 'string') inbox.label = normalizeString(inbox.label);
  if (typeof inbox.scheme === 'string') inbox.scheme = normalizeUpperCode(inbox.scheme);
  if (typeof inbox.code === 'string') inbox.code = normalizeStrictCode(inbox.code);
  if (inbox.key === 'peppol' && !inbox.scheme) {
    const strict = typeof inbox.code === 'string' ? inbox.code : '';
    // Go indexes bytes: the fifth byte must be the colon.
    if (Buffer.byteLength(strict) >= 5 && Buffer.from(strict)[4] === 0x3a) {
      const bytes = Buffer.from(strict);
      inbox.scheme = bytes.subarray(0, 4).toString();
      inbox.code = bytes.subarray(5).toString();
    }
  }
  for (const field of ['code', 'scheme']) if (inbox[field] === '') delete inbox[field];
}

export const orgNormRules: NormRule[] = [
  ...TEXT_FIELDS.map(([type, uuid, fields]) => textRule(type, uuid, fields)),
  { type: 'org.Address', apply: normalizeAddress },
  { type: 'org.Telephone', apply: normalizeTelephone },
  { type: 'org.Inbox', apply: normalizeInbox },
];
