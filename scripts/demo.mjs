#!/usr/bin/env node
// `npm run demo`: checks fixtures/repos/demo-shop, a small shop back end with right and wrong
// code side by side, and prints what it finds. Runs right after `npm ci`, so it builds first
// when dist/ is missing or older than the sources. Exits 0 when the check ran, findings or not:
// the findings are the demo. `npm run demo -- --eslint` shows the ESLint plugin alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { isStale } from './build-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const demo = 'fixtures/repos/demo-shop';
const entry = join(root, 'dist/src/index.js');
const bin = join(root, 'dist/src/cli/bin.js');

function buildIfStale() {
  if (!isStale(root, entry)) return;
  console.error('Building the plugin (tsc -p tsconfig.build.json)…');
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // tsc still emits on type errors; only a missing output is fatal here.
  if (build.status !== 0 && !existsSync(entry)) {
    console.error('The build failed; run `npm ci` first.');
    process.exit(build.status ?? 2);
  }
}

/** The repository-wide checker: the text report with the handler inventory. */
function runChecker() {
  const run = spawnSync(process.execPath, [bin, demo], { cwd: root, stdio: 'inherit' });
  // 0 clean, 1 findings (expected here), 2 usage or internal error.
  process.exit(run.status === 0 || run.status === 1 ? 0 : (run.status ?? 2));
}

/** The ESLint plugin alone: recommended + strict over the demo's files, stylish output. */
async function runPlugin() {
  const { ESLint } = await import('eslint');
  const parser = await import('@typescript-eslint/parser');
  const { default: plugin } = await import(pathToFileURL(entry).href);
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser } },
      plugin.configs.recommended,
      plugin.configs.strict,
    ],
  });
  const results = await eslint.lintFiles([`${demo}/**/*.ts`]);
  const formatter = await eslint.loadFormatter('stylish');
  const count = results.reduce((sum, result) => sum + result.messages.length, 0);
  console.log(`eslint-plugin-idempotency (recommended + strict) on ${relative(root, join(root, demo))}:`);
  console.log(formatter.format(results) || '\nNo findings.\n');
  console.log(
    `${count} finding(s) in ${results.filter((result) => result.messages.length > 0).length} of ${results.length} files.`,
  );
}

buildIfStale();
if (existsSync(bin) && !process.argv.includes('--eslint')) runChecker();
else await runPlugin();
