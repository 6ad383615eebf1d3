import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import PDFDocument from 'pdfkit';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope, loadEnvelopes } from '../fixtures/gobl/load.ts';
import { docsScreenshotTarget, e2eToken, FILES_DIR, SCREENS_DIR } from './paths.ts';

const require = createRequire(import.meta.url);

export { FILES_DIR, SCREENS_DIR };

export const auth = (token = e2eToken()) => ({ authorization: `Bearer ${token}` });

/**
 * A company of its own for one test, so that what the test counts and sees does
 * not depend on the other tests sharing the server. Answers its owner token.
 */
export async function newCompany(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.post('/access/v1/companies', { headers: auth(), data: { name } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).owner_token as string;
}

/** Opens the UI with a token, as `serve`'s `#token=` link does, and waits for the shell. */
export async function openApp(page: Page, token = e2eToken(), route = ''): Promise<void> {
  await page.goto(`/#token=${token}`);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect.poll(() => page.url()).not.toContain('token=');
  if (route) await page.evaluate((hash) => (window.location.hash = hash), route);
}

/** A screenshot of a main screen, for README and review. */
export async function saveScreen(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const path = join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Copies a screenshot into docs/ for README, only under `npm run docs:screenshots` (tests leave tracked files alone). */
export function publishScreenshot(path: string, docsName: string): void {
  const target = docsScreenshotTarget(docsName);
  if (!target) return;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(path, target);
}

/** Fails with the list of serious and critical axe violations on the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('\n  ')}`).join('\n');
  expect(report, `serious or critical accessibility violations on ${what}`).toBe('');
}

/** A fixture envelope with a head.uuid of its own (the fixtures all share one). */
export function freshEnvelope(file: string): any {
  const envelope = loadEnvelope(file);
  envelope.head.uuid = uuidv7(); // GOBL takes v1, v6 or v7 head ids
  return envelope;
}

/** Writes JSON to a file under FILES_DIR and answers its path. */
export function writeJsonFile(name: string, value: unknown): string {
  mkdirSync(FILES_DIR, { recursive: true });
  const path = join(FILES_DIR, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

export function writeFile(name: string, content: string | Uint8Array): string {
  mkdirSync(FILES_DIR, { recursive: true });
  const path = join(FILES_DIR, name);
  writeFileSync(path, content);
  return path;
}

/** A one-page PDF with the given lines of text, in DejaVu Sans (embedded, so it renders the same everywhere). */
export async function makePdf(lines: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: lines[0] } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolveDone) => doc.on('end', () => resolveDone(Buffer.concat(chunks))));
  doc.font(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')).fontSize(22);
  for (const line of lines) doc.text(line).moveDown(0.5);
  doc.end();
  return done;
}

/** Stores documents through the API (fast set-up for tests about something else); answers the new ids. */
export async function importDocuments(request: APIRequestContext, token: string, docs: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < docs.length; i += 500) {
    const res = await request.post('/silo/v1/import', {
      headers: auth(token),
      data: { entries: docs.slice(i, i + 500).map((data) => ({ data, allow_invalid: true })) },
    });
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.failed, JSON.stringify(body.results.filter((r: any) => r.status === 'error').slice(0, 2))).toBe(0);
    ids.push(...body.results.map((r: any) => r.id));
  }
  return ids;
}

/** Every fixture envelope, `copies` times over, each with a fresh head.uuid. */
export function manyEnvelopes(copies: number): any[] {
  const all: any[] = [];
  for (let c = 0; c < copies; c++) {
    for (const { envelope } of loadEnvelopes()) {
      envelope.head.uuid = uuidv7(); // GOBL takes v1, v6 or v7 head ids
      all.push(envelope);
    }
  }
  return all;
}

export async function api<T = any>(request: APIRequestContext, token: string, method: 'get' | 'post' | 'put' | 'patch', path: string, data?: unknown): Promise<T> {
  const res = await request[method](path, { headers: auth(token), ...(data !== undefined ? { data } : {}) });
  expect(res.ok(), `${method.toUpperCase()} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The entry grid's rows (only those rendered: the list is virtualized). */
export const gridRows = (page: Page) => page.getByRole('grid', { name: 'Entries' }).locator('[role="rowgroup"].grid-body [role="row"][aria-selected]');
