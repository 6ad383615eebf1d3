// Builds GOBL's example inputs and shows, per example, where the result differs from GOBL's own
// output. A development aid for the engine (the committed test is test/unit/gobl/build-examples.test.ts).
//   node scripts/gobl-examples.ts [DIR with in/ and out/] [name filter] [--paths]
import { readdirSync, readFileSync } from 'node:fs';
import { canonicalJson } from '../src-main/core/gobl/canonical.ts';
import { buildEnvelope } from '../src-main/core/gobl/engine/build.ts';
import { marshalGo } from '../src-main/core/gobl/shape/marshal.ts';
import { parseAsGoblYaml, parseJsonText } from '../src-main/core/gobl/shape/parse.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dir = args[0] ?? 'test/fixtures/gobl/examples';
const filter = args[1] ?? '';
const showValues = !process.argv.includes('--paths');

type Diff = { path: string; want: unknown; got: unknown };

function diff(want: unknown, got: unknown, path: string, out: Diff[]): void {
  if (canonicalJson(want ?? null) === canonicalJson(got ?? null)) return;
  const wObj = typeof want === 'object' && want !== null;
  const gObj = typeof got === 'object' && got !== null;
  if (wObj && gObj && Array.isArray(want) === Array.isArray(got)) {
    const keys = new Set([...Object.keys(want as object), ...Object.keys(got as object)]);
    for (const k of keys) diff((want as any)[k], (got as any)[k], Array.isArray(want) ? `${path}[${k}]` : `${path}.${k}`, out);
    return;
  }
  out.push({ path, want, got });
}

let same = 0;
let sameBytes = 0;
let total = 0;
const failures: string[] = [];
for (const file of readdirSync(`${dir}/in`).sort()) {
  if (!file.endsWith('.json') || !file.includes(filter)) continue;
  total++;
  const input = parseJsonText(readFileSync(`${dir}/in/${file}`, 'utf8'));
  const expectedText = readFileSync(`${dir}/out/${file}`, 'utf8');
  const expected = JSON.parse(expectedText);
  let got: any;
  try {
    got = buildEnvelope(input, { headUuid: expected.head?.uuid, now: new Date('2026-01-01T12:00:00Z') }).envelope;
  } catch (error) {
    failures.push(`${file}: THROWS ${(error as Error).message.slice(0, 300)}`);
    continue;
  }
  const diffs: Diff[] = [];
  diff(expected.doc, got.doc, '$', diffs);
  if (diffs.length === 0 && expected.head?.dig?.val === got.head?.dig?.val) {
    same++;
    // Bytes as GOBL's example runner reads its inputs (through YAML: floats, sorted keys).
    const asRunner = buildEnvelope(parseAsGoblYaml(readFileSync(`${dir}/in/${file}`, 'utf8')), { headUuid: expected.head?.uuid, now: new Date('2026-01-01T12:00:00Z') }).envelope;
    if (marshalGo(asRunner) === expectedText) sameBytes++;
    else failures.push(`${file}: same doc and digest, other bytes`);
    continue;
  }
  const lines = diffs.slice(0, 25).map((d) => showValues ? `  ${d.path}: want ${JSON.stringify(d.want)?.slice(0, 120)} got ${JSON.stringify(d.got)?.slice(0, 120)}` : `  ${d.path}`);
  if (diffs.length > 25) lines.push(`  … ${diffs.length - 25} more`);
  failures.push(`${file}: ${diffs.length} differences\n${lines.join('\n')}`);
}
console.log(failures.join('\n'));
console.log(`\n${same}/${total} examples build to GOBL's doc and digest; ${sameBytes} to the same bytes`);
