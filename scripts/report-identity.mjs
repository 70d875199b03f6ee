#!/usr/bin/env node
// Records, or checks against a recording, what users see from both faces on every fixture
// repository: `idempotency-check --format json` with and without --types, and the ESLint
// plugin's messages with `configs.all`. A refactor that must not change behaviour runs
// `record <dir>` before and `check <dir>` after; any difference is printed and exits 1.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'dist/src/cli/bin.js');
const repos = join(root, 'fixtures/repos');

const [mode, dir] = process.argv.slice(2);
if ((mode !== 'record' && mode !== 'check') || !dir) {
  console.error('usage: node scripts/report-identity.mjs record|check <dir>');
  process.exit(2);
}

function checker(repo, extra) {
  const run = spawnSync(process.execPath, [bin, join(repos, repo), '--format', 'json', ...extra], {
    cwd: root,
    encoding: 'utf8',
  });
  return `exit ${run.status}\n${run.stdout}${run.stderr}`;
}

async function plugin(repo) {
  const { ESLint } = await import('eslint');
  const parser = await import('@typescript-eslint/parser');
  const { default: idempotency } = await import(pathToFileURL(join(root, 'dist/src/index.js')).href);
  const eslint = new ESLint({
    cwd: join(repos, repo),
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.{ts,js,mjs,cjs}'], languageOptions: { parser } }, idempotency.configs.all],
  });
  const results = await eslint.lintFiles(['.']);
  return results
    .map((result) => ({
      file: result.filePath.slice(join(repos, repo).length + 1),
      messages: result.messages.map(({ ruleId, line, column, message, fix, suggestions }) => ({
        ruleId,
        line,
        column,
        message,
        fix,
        suggestions,
      })),
    }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

const outputs = {};
for (const repo of readdirSync(repos).sort()) {
  outputs[`${repo}.syntax.txt`] = checker(repo, []);
  outputs[`${repo}.types.txt`] = checker(repo, ['--types']);
  outputs[`${repo}.eslint.json`] = `${JSON.stringify(await plugin(repo), null, 2)}\n`;
}

if (mode === 'record') {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(dir, name), text);
  console.log(`recorded ${Object.keys(outputs).length} outputs in ${dir}`);
} else {
  let different = 0;
  for (const [name, text] of Object.entries(outputs)) {
    let before;
    try {
      before = readFileSync(join(dir, name), 'utf8');
    } catch {
      before = undefined;
    }
    if (before === text) continue;
    different++;
    writeFileSync(join(dir, `${name}.now`), text);
    console.log(`differs: ${name} (now in ${name}.now)`);
  }
  console.log(different === 0 ? `all ${Object.keys(outputs).length} outputs identical` : `${different} differ`);
  process.exit(different === 0 ? 0 : 1);
}
