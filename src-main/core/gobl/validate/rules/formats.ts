// String formats GOBL checks through third-party validators (govalidator's IsURL and IsEmail,
// google/uuid's Parse). These follow the same acceptance rules in simplified regexes.

// govalidator: optional ftp/tcp/udp/ws(s)/http(s) scheme, optional user info, a host that is an
// IP, localhost or a dotted domain, optional port, then any path/query/fragment.
const URL_RE =
  /^((ftp|tcp|udp|wss?|https?):\/\/)?(\S+(:\S*)?@)?((\d{1,3}\.){3}\d{1,3}|\[[0-9a-fA-F:.]+\]|localhost|([\p{L}\p{N}_]([\p{L}\p{N}_-]*[\p{L}\p{N}_])?\.)+[\p{L}\p{N}-]{2,63}\.?)(:\d{1,5})?([/?#]\S*)?$/u;

export function isUrl(value: string): boolean {
  // Code points are never more than UTF-16 units: only a long text needs counting.
  if (value.length <= 3 || (value.length >= 2083 && [...value].length >= 2083) || value.startsWith('.')) return false;
  return URL_RE.test(value);
}

const EMAIL_RE = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@([\p{L}\p{N}]([\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}]([\p{L}\p{N}-]*[\p{L}\p{N}])?\.?$/u;

export function isEmail(value: string): boolean {
  return EMAIL_RE.test(value);
}

const UUID_FORMS = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i,
  /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^[0-9a-f]{32}$/i,
];

// The form nearly every UUID has, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex digits of
// either case (the first of UUID_FORMS), read without a regular expression: every document
// has several.
function isPlainUuid(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) {
      return false;
    }
  }
  return true;
}

/** The forms google/uuid's Parse accepts. */
export function isValidUuid(value: string): boolean {
  return isPlainUuid(value) || UUID_FORMS.some((re) => re.test(value));
}

/** The version nibble of a parsed UUID (in the plain form, the digit after the second dash). */
export function uuidVersion(value: string): number {
  if (isPlainUuid(value)) return Number.parseInt(value[14], 16);
  const hex = value.replace(/^urn:uuid:|[{}-]/gi, '');
  return Number.parseInt(hex[12], 16);
}
