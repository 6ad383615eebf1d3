import { randomBytes } from 'node:crypto';

/**
 * A value that is already JSON text (a stored document), put into an answer as it
 * is. The sync feed's page is a hundred documents: parsing each only for
 * JSON.stringify to write it back was half the page's time and most of its garbage
 * (the p99 and the longest event-loop block at a million entries).
 *
 * Only `writeJson` splices the text in; anything else that serialises one (an
 * output check, a test's JSON.stringify) gets the parsed value, so it can never be
 * written wrong, only slower.
 */
export class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    if (!spliced) return JSON.parse(this.text);
    spliced.push(this.text);
    return MARKER;
  }
}

// A string no answer holds by chance: JSON.stringify writes the NUL as `\u0000`,
// and the rest is random per process, so no client can send it to be replaced.
const MARKER = `\u0000${randomBytes(18).toString('base64url')}`;
const WRITTEN_MARKER = JSON.stringify(MARKER);

// The texts met while writeJson's JSON.stringify runs (synchronously, so one at a time).
let spliced: string[] | undefined;

/** JSON.stringify(value), with each JsonText written as its own text. */
export function writeJson(value: unknown): string {
  const texts: string[] = [];
  spliced = texts;
  let json: string;
  try {
    json = JSON.stringify(value);
  } finally {
    spliced = undefined;
  }
  if (texts.length === 0) return json;
  const parts = json.split(WRITTEN_MARKER);
  // One part more than texts, or the marker turned up where it should not: written the slow way.
  if (parts.length !== texts.length + 1) return JSON.stringify(value);
  let out = parts[0];
  for (let i = 0; i < texts.length; i++) out += texts[i] + parts[i + 1];
  return out;
}
