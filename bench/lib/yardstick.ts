// The same-bytes yardstick: plain node:http over raw better-sqlite3, doing the work the
// service does for the reads the benchmarks time, and nothing else: the Host check,
// the bearer token's look-up (SHA-256, then the tokens table, cached as the service
// caches it), the same SQL (rows, then their attachments and meta), the same cursor
// HMAC, and byte-identical JSON. What the service takes beyond this is what its
// framework, validation and layering cost. The SQL of related and search is the
// service's own (relatedQuery, searchQuery), so both sides always run the same
// statements with the same values (they read what they need through the service's own
// SQLite adapter over this connection, as they do in the service), and a row
// becomes JSON through the service's own view function (entry-view.ts) and writer
// (writeJson: a stored document goes in as its text), so the bytes stay the same while
// the API's shape evolves.
import Database from 'better-sqlite3';
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { entryView, VIEW_COLUMNS } from '../../src-main/core/silo/entry-view.ts';
import { JsonText, writeJson } from '../../src-main/core/api/json-text.ts';
import { documentText } from '../../src-main/core/silo/packed-document.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { withStablePlans } from '../../src-main/core/db/stable-plans.ts';
import { relatedQuery } from '../../src-main/core/silo/list.ts';
import { searchQuery } from '../../src-main/core/silo/search.ts';
import type { CompanyKey } from '../../src-main/core/access/company-key.ts';

type Row = Record<string, any>;

interface Caller {
  /** what the rows are stored under */
  companyKey: CompanyKey;
  /** the company's public id: its search token is made of it */
  companyId: string;
}

class NotFound extends Error {}

export interface Yardstick {
  url: string;
  close(): Promise<void>;
}

export async function startYardstick(dbFile: string): Promise<Yardstick> {
  const db = new Database(dbFile, { readonly: true });
  // Every statement's text as the service prepares it (stable-plans.ts): the same SQL, not the same SQL planned again on every run.
  const prepare = (sql: string) => db.prepare(withStablePlans(sql));
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');
  // What relatedQuery and searchQuery read through (they take the data layer's Db); what they build runs raw here.
  const serviceDb = sqliteDb(db);
  const statements = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let stmt = statements.get(sql);
    if (!stmt) statements.set(sql, (stmt = prepare(sql)));
    return stmt;
  };
  const secretHex = (prepare(`SELECT value FROM settings WHERE key = 'cursor_secret'`).get() as { value: string }).value;
  const secret = Buffer.from(secretHex, 'hex');
  const key: KeyObject = createSecretKey(secret);

  const tokenByHash = prepare('SELECT t.company_id, c.uuid, t.hash, t.revoked_at FROM tokens t JOIN companies c ON c.id = t.company_id WHERE t.hash = ?');
  const tokens = new Map<string, Caller>();
  const authenticate = (header: string | undefined): Caller | undefined => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!match) return undefined;
    const hash = createHash('sha256').update(match[1]).digest('hex');
    const hit = tokens.get(hash);
    if (hit) return hit;
    const row = tokenByHash.get(hash) as { company_id: CompanyKey; uuid: string; hash: string; revoked_at: string | null } | undefined;
    if (!row || row.revoked_at || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return undefined;
    const caller = { companyKey: row.company_id, companyId: row.uuid };
    tokens.set(hash, caller);
    return caller;
  };

  const sign = (scope: string, payload: string) => createHmac('sha256', key).update(scope).update('\0').update(payload).digest('base64url').slice(0, 22);
  const encodeCursor = (scope: string, at: string, seq: number) => {
    const payload = Buffer.from(JSON.stringify([at, seq])).toString('base64url');
    return `${payload}.${sign(scope, payload)}`;
  };
  const decodeCursor = (scope: string, cursor: string): { at: string; seq: number } => {
    const [payload, mac] = cursor.split('.');
    const expected = Buffer.from(sign(scope, payload));
    const given = Buffer.from(mac ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad cursor');
    const [at, seq] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return { at, seq };
  };

  const attachmentsOf = prepare('SELECT * FROM attachments WHERE company_id = ? AND entry_id IN (SELECT value FROM json_each(?)) ORDER BY created_at');
  const metaOf = prepare('SELECT * FROM entry_meta WHERE company_id = ? AND entry_id IN (SELECT value FROM json_each(?)) ORDER BY key');
  // A page is one company's: one look-up each for its files and meta, as the service does.
  const views = (rows: Row[], withData: boolean, contexts?: Map<string, string>) => {
    if (rows.length === 0) return [];
    const ids = JSON.stringify(rows.map((r) => r.id));
    const files = group(attachmentsOf.all(rows[0].company_id, ids) as Row[]);
    const meta = group(metaOf.all(rows[0].company_id, ids) as Row[]);
    // An entry's document goes into the answer as the text stored, as the service writes it over HTTP.
    const data = (r: Row) => (withData ? (new JsonText(documentText(r.data, r.id)) as unknown as Record<string, unknown>) : undefined);
    return rows.map((r) => entryView(r as any, (files.get(r.id) ?? []) as any, (meta.get(r.id) ?? []) as any, contexts?.get(r.id), data(r)));
  };

  const listFirst = prepare(
    `SELECT ${VIEW_COLUMNS} FROM entries e WHERE e.company_id = ? AND e.trashed_at IS NULL ORDER BY e.created_at DESC, e.seq DESC LIMIT ?`,
  );
  const listAfter = prepare(
    `SELECT ${VIEW_COLUMNS} FROM entries e WHERE e.company_id = ? AND e.trashed_at IS NULL AND (e.created_at, e.seq) < (?, ?)
     ORDER BY e.created_at DESC, e.seq DESC LIMIT ?`,
  );
  const oneEntry = prepare('SELECT * FROM entries WHERE id = ? AND company_id = ?');
  const folderCounts = prepare('SELECT folder, count FROM entry_folder_counts WHERE company_id = ? AND count > 0 ORDER BY folder');

  const list = (c: Caller, q: URLSearchParams) => {
    const limit = Number(q.get('limit') ?? 20);
    const cursor = q.get('cursor') ?? undefined;
    const scope = JSON.stringify(['entries', c.companyKey, null, null, null, null, null, null, false, null, 'created_at']);
    let rows: Row[];
    if (cursor) {
      const pos = decodeCursor(scope, cursor);
      rows = listAfter.all(c.companyKey, pos.at, pos.seq, limit + 1) as Row[];
    } else {
      rows = listFirst.all(c.companyKey, limit + 1) as Row[];
    }
    return page(rows, limit, scope, cursor);
  };

  const page = (rows: Row[], limit: number, scope: string, cursor: string | undefined, contexts?: Map<string, string>) => {
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    return {
      list: views(rows, false, contexts),
      limit,
      ...(cursor ? { cursor } : {}),
      ...(more && last ? { next_cursor: encodeCursor(scope, last.created_at, last.seq) } : {}),
    };
  };

  const entry = (c: Caller, id: string) => {
    const row = oneEntry.get(id, c.companyKey) as Row | undefined;
    if (!row || row.trashed_at !== null) throw new NotFound();
    return views([row], true)[0];
  };

  const relatedOf = async (c: Caller, id: string, q: URLSearchParams) => {
    const limit = Number(q.get('limit') ?? 20);
    const query = await relatedQuery(serviceDb, c.companyKey, id, { limit: limit + 1, ascending: false });
    if (!query) throw new NotFound();
    const scope = JSON.stringify(['related', c.companyKey, id, undefined, undefined, false, undefined]);
    const rows = statement(query.sql).all(...query.params) as Row[];
    const contexts = new Map<string, string>();
    for (const r of rows) {
      contexts.set(r.id, String(r.related_context));
      delete r.related_context;
    }
    return page(rows, limit, scope, undefined, contexts);
  };

  const search = async (c: Caller, q: URLSearchParams) => {
    const text = q.get('q') ?? '';
    const limit = Number(q.get('limit') ?? 20);
    const offset = Number(q.get('offset') ?? 0);
    const plan = await searchQuery(serviceDb, c, { q: text, limit, offset });
    if (!plan) return { list: [], limit, offset, query: text };
    const rows = statement(plan.sql).all(...plan.params) as Row[];
    const more = rows.length > plan.ftsLimit;
    if (more) rows.pop();
    // As the handler answers it: the text as `query` (the hosted service's name), last.
    return { list: views([...plan.exactPart, ...rows], false), limit, offset, ...(more ? { next_offset: offset + limit } : {}), query: text };
  };

  let allowedHost = '';
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      const text = writeJson(body);
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      });
      res.end(text);
    };
    try {
      if ((req.headers.host ?? '').toLowerCase() !== allowedHost) return send(403, { key: 'forbidden' });
      const caller = authenticate(req.headers.authorization);
      if (!caller) return send(401, { key: 'unauthorized' });
      const url = req.url ?? '/';
      const at = url.indexOf('?');
      const path = at < 0 ? url : url.slice(0, at);
      const query = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
      const parts = path.split('/');
      // /silo/v1/entries[/{id}[/related]], /silo/v1/search, /silo/v1/folders
      if (path === '/silo/v1/entries') return send(200, list(caller, query));
      if (path === '/silo/v1/search') return send(200, await search(caller, query));
      if (path === '/silo/v1/folders') return send(200, { list: folderCounts.all(caller.companyKey) });
      if (parts.length === 5 && parts[3] === 'entries') return send(200, entry(caller, decodeURIComponent(parts[4])));
      if (parts.length === 6 && parts[3] === 'entries' && parts[5] === 'related') return send(200, await relatedOf(caller, decodeURIComponent(parts[4]), query));
      return send(404, { key: 'not-found' });
    } catch (err) {
      return send(err instanceof NotFound ? 404 : 500, { key: err instanceof NotFound ? 'not-found' : 'internal', message: String(err) });
    }
  };
  // answer sends every error it meets; one that escapes it (the response already half sent) ends the connection
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void answer(req, res).catch((err: unknown) => res.destroy(err as Error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHost = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        db.close();
      }),
  };
}

function group(rows: Row[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const list = out.get(r.entry_id);
    if (list) list.push(r);
    else out.set(r.entry_id, [r]);
  }
  return out;
}

