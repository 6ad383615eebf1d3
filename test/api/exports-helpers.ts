import { unzipSync, strFromU8 } from 'fflate';
import type { TestServer } from './harness.ts';

/** A binary answer of the API as bytes (the harness reads bodies as text). */
export async function download(t: TestServer, path: string, body: unknown, token = t.token): Promise<{ status: number; bytes: Uint8Array; headers: Headers; json?: any }> {
  const res = await fetch(t.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  let json: any;
  if (!res.ok) json = JSON.parse(new TextDecoder().decode(bytes));
  return { status: res.status, bytes, headers: res.headers, json };
}

/** RFC 4180 records (quoted fields, doubled quotes, CRLF) of a CSV text, without a BOM. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\r' && src[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) throw new Error('the last record is not CRLF-terminated');
  return rows;
}

/** The CSV as objects by header. */
export function csvObjects(text: string, delimiter = ','): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text, delimiter);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

export function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

export const textOf = (bytes: Uint8Array): string => strFromU8(bytes);

/** The number of files a ZIP's end-of-central-directory record counts (without unpacking it). */
export function zipFileCount(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) return view.getUint16(i + 10, true);
  }
  throw new Error('no end of central directory');
}
