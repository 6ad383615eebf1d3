// Refreshes the README's images in docs/ (tests alone never write there):
//   npm run docs:screenshots
// Runs the e2e tests that take them with SILODESK_DOCS_SCREENSHOTS=1, which makes
// publishScreenshot (test/e2e/helpers.ts) copy their screenshots into docs/.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DOCS_SCREENSHOTS_ENV } from '../test/e2e/paths.ts';

/** The tests that publish a screenshot, and the image each one writes. */
const SHOTS = [
  { file: 'test/e2e/entries.e2e.ts', test: 'pages through every entry', image: 'docs/screenshot-entries.png' },
  { file: 'test/e2e/editor.e2e.ts', test: 'a new invoice calculates as it is typed', image: 'docs/screenshot-editor.png' },
  { file: 'test/e2e/history.e2e.ts', test: 'the history tab lists every version', image: 'docs/screenshot-history.png' },
];

const run = (args: string[], env: NodeJS.ProcessEnv = process.env) => {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run(['scripts/ensure-browser.ts']);
run(['scripts/web-build.ts']);
const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
for (const shot of SHOTS) {
  run([cli, 'test', shot.file, '-g', shot.test], { ...process.env, [DOCS_SCREENSHOTS_ENV]: '1' });
  console.log(`docs: wrote ${shot.image}`);
}
