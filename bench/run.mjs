#!/usr/bin/env node
// `npm run bench`: side-by-side cost of the plugin and of `idempotency-check`, as ratios
// measured in one run (machines are shared and noisy; absolute times are not comparable
// across runs, ratios are). Each measurement is a real process (eslint, tsc,
// idempotency-check) timed whole, with its peak memory; each runs ROUNDS times, interleaved,
// and the median time is kept.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { BENCH_PACKAGES, CACHE_DIR, describeCorpus, ensurePackages, listCodeFiles } from './corpus.mjs';
import { generateService } from './generate-service.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    units: { type: 'string', default: '30' },
    only: { type: 'string' },
    // A local repository folder (an application's sources) measured beside the built-in corpora.
    corpus: { type: 'string', multiple: true, default: [] },
    // Measure only the --corpus folders.
    'corpus-only': { type: 'boolean', default: false },
  },
});
const REAL_CORPORA = values.corpus.map((folder) => resolve(folder));
for (const folder of REAL_CORPORA) if (!existsSync(folder)) throw new Error(`--corpus ${folder}: no such folder`);
if (values['corpus-only'] && REAL_CORPORA.length === 0) throw new Error('--corpus-only needs at least one --corpus');
const ROUNDS = Number(values.rounds);
const UNITS = Number(values.units);
const repo = fileURLToPath(new URL('..', import.meta.url));
const nodeModules = join(repo, 'node_modules');
const work = join(CACHE_DIR, '..', 'bench-work');
const log = (message) => console.error(`[bench] ${message}`);

if (!existsSync(join(repo, 'dist/src/index.js')))
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repo, stdio: 'inherit' });

// 1. The real-code corpus, copied into one folder so every tool sees the same files. Published
// packages keep most of their code in `dist/` or `build/`, which idempotency-check skips as build
// output; those folders are renamed in the copy so that it scans every file the others do.
const corpus = join(work, 'corpus-v2');
const neutral = (path) =>
  path
    .split(sep)
    .map((part) => (/^(?:dist|build|out|coverage)$/.test(part) ? `${part}-code` : part))
    .join(sep);
const builtin = !values['corpus-only'];
if (builtin && !existsSync(join(corpus, '.complete'))) {
  rmSync(corpus, { recursive: true, force: true });
  for (const file of listCodeFiles(ensurePackages(BENCH_PACKAGES, log))) {
    const target = join(corpus, neutral(relative(CACHE_DIR, file)));
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(file, target);
  }
  writeFileSync(join(corpus, '.complete'), '');
}
const corpusFiles = builtin ? listCodeFiles([corpus]) : [];

// 1b. A real typed project: rxjs's TypeScript sources with a tsconfig of its own (strict, as
// rxjs builds them). Most of its files hold no consumer code, as in most repositories.
const typedRepo = join(work, 'rxjs-typed');
if (builtin && !existsSync(join(typedRepo, '.complete'))) {
  rmSync(typedRepo, { recursive: true, force: true });
  const [rxjs] = ensurePackages(['rxjs@7.8.2'], log);
  for (const file of listCodeFiles([join(rxjs, 'src')])) {
    const target = join(typedRepo, 'src', relative(join(rxjs, 'src'), file));
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(file, target);
  }
  writeFileSync(
    join(typedRepo, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noImplicitReturns: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['esnext', 'dom'],
        types: [],
        rootDir: 'src',
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['src'],
    }),
  );
  writeFileSync(join(typedRepo, '.complete'), '');
}

// 2. The generated consumer-heavy service at 1× and 10×.
const small = builtin ? generateService(join(work, 'service-1x'), UNITS, nodeModules) : join(work, 'service-1x');
const large = builtin ? generateService(join(work, 'service-10x'), UNITS * 10, nodeModules) : join(work, 'service-10x');

// 3. ESLint configs: the same parser, with no rules and with `configs.all`, syntax and typed.
const pluginUrl = new URL('../dist/src/index.js', import.meta.url).href;
const parserUrl = new URL('../node_modules/@typescript-eslint/parser/dist/index.js', import.meta.url).href;
function writeEslintConfig(folder, name, { rules, typed, jsx = false }) {
  const file = join(folder, name);
  writeFileSync(
    file,
    `import parser from ${JSON.stringify(parserUrl)};
import plugin from ${JSON.stringify(pluginUrl)};
export default [
  { ignores: ['**/node_modules/**'] },
  {
    files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
    languageOptions: { parser, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: ${jsx} }${typed ? ', projectService: true, tsconfigRootDir: import.meta.dirname' : ''} } },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { idempotency: plugin },
    rules: ${rules ? 'plugin.configs.all.rules' : '{}'},
  },
];
`,
  );
  return file;
}
// oxlint with the plugin as a JS plugin and every rule on (its own categories off), for the
// same files as `eslint all`.
function writeOxlintConfig(folder) {
  const file = join(folder, 'oxlintrc.all.json');
  const rules = Object.fromEntries(Object.keys(pluginRules).map((name) => [`idempotency/${name}`, 'error']));
  writeFileSync(
    file,
    JSON.stringify({ categories: { correctness: 'off' }, jsPlugins: [fileURLToPath(pluginUrl)], rules }, null, 2),
  );
  return file;
}
const { rules: pluginRules } = (await import(pluginUrl)).default;
if (builtin) {
  writeOxlintConfig(corpus);
  for (const folder of [corpus, small, large]) {
    writeEslintConfig(folder, 'eslint.none.mjs', { rules: false, typed: false });
    writeEslintConfig(folder, 'eslint.all.mjs', { rules: true, typed: false });
  }
  writeEslintConfig(small, 'eslint.typed-none.mjs', { rules: false, typed: true });
  writeEslintConfig(small, 'eslint.typed-all.mjs', { rules: true, typed: true });
}

const eslintBin = join(nodeModules, 'eslint/bin/eslint.js');
const oxlintBin = join(nodeModules, 'oxlint/bin/oxlint');
const oxlint = (folder, config) => ({ cwd: folder, args: [oxlintBin, '-c', config, '--format', 'json', '.'] });
const tscBin = join(nodeModules, 'typescript/bin/tsc');
const checkBin = join(repo, 'dist/src/cli/bin.js');
const rusage = join(repo, 'bench/rusage.cjs');
const eslint = (folder, config) => ({
  cwd: folder,
  args: [eslintBin, '--config', config, '--format', 'json', '--no-warn-ignored', '.'],
});
// `--timing` prints the slowest files on stderr: the bench lists them for each corpus.
const check = (folder, ...flags) => ({
  cwd: folder,
  args: [checkBin, '.', '--format', 'json', '--timing', ...flags],
});

const builtinTasks = {
  'eslint none (corpus)': eslint(corpus, 'eslint.none.mjs'),
  'eslint all (corpus)': eslint(corpus, 'eslint.all.mjs'),
  'oxlint all (corpus)': oxlint(corpus, 'oxlintrc.all.json'),
  'ts.createSourceFile (corpus)': { cwd: corpus, args: [join(repo, 'bench/parse-only.mjs'), corpus] },
  'idempotency-check (corpus)': check(corpus),
  'eslint all (service 1x)': eslint(small, 'eslint.all.mjs'),
  'eslint all (service 10x)': eslint(large, 'eslint.all.mjs'),
  'idempotency-check (service 1x)': check(small),
  'idempotency-check (service 10x)': check(large),
  'eslint typed none (service 1x)': eslint(small, 'eslint.typed-none.mjs'),
  'eslint typed all (service 1x)': eslint(small, 'eslint.typed-all.mjs'),
  'tsc --noEmit (service 10x)': { cwd: large, args: [tscBin, '--noEmit', '-p', 'tsconfig.json'] },
  'idempotency-check --types (service 10x)': check(large, '--types'),
  // rxjs 7's sources have a few errors under TypeScript 6 (exit 2); tsc still checks every file.
  'tsc --noEmit (rxjs src)': { cwd: typedRepo, args: [tscBin, '--noEmit', '-p', 'tsconfig.json'], maxStatus: 2 },
  'idempotency-check --types (rxjs src)': check(typedRepo, '--types'),
};

// Each --corpus folder: the four measurements of the syntax-mode targets. The ESLint configs live
// outside the folder (it is someone's repository) and lint it from its own root.
const realTasks = {};
const realNames = [];
for (const folder of REAL_CORPORA) {
  const name = basename(folder);
  realNames.push(name);
  const configs = join(work, `eslint-${name}`);
  mkdirSync(configs, { recursive: true });
  const none = writeEslintConfig(configs, 'eslint.none.mjs', { rules: false, typed: false, jsx: true });
  const all = writeEslintConfig(configs, 'eslint.all.mjs', { rules: true, typed: false, jsx: true });
  Object.assign(realTasks, {
    [`eslint none (${name})`]: eslint(folder, none),
    [`eslint all (${name})`]: eslint(folder, all),
    [`oxlint all (${name})`]: oxlint(folder, writeOxlintConfig(configs)),
    [`ts.createSourceFile (${name})`]: { cwd: folder, args: [join(repo, 'bench/parse-only.mjs'), folder] },
    // Exit 2 (nothing could be analysed, or a usage error) fails the measurement like a crash.
    [`idempotency-check (${name})`]: check(folder),
  });
}
const tasks = { ...(values['corpus-only'] ? {} : builtinTasks), ...realTasks };

// `--only <regex>`: run the matching measurements only (ratios whose two sides did not run are left out).
if (values.only !== undefined) {
  const only = new RegExp(values.only);
  for (const name of Object.keys(tasks)) if (!only.test(name)) delete tasks[name];
  if (Object.keys(tasks).length === 0) throw new Error(`--only ${values.only} matches no measurement`);
}

const results = Object.fromEntries(
  Object.keys(tasks).map((name) => [name, { ms: [], cpuMs: [], maxRssKb: 0, status: undefined }]),
);
const rusageFile = join(work, 'rusage.jsonl');
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, task] of Object.entries(tasks)) {
    log(`round ${round}/${ROUNDS}: ${name}`);
    rmSync(rusageFile, { force: true });
    const run = spawnSync(process.execPath, ['--require', rusage, ...task.args], {
      cwd: task.cwd,
      env: { ...process.env, BENCH_RUSAGE_FILE: rusageFile, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 28,
    });
    // eslint and idempotency-check exit 1 when they find something; more than that is a failure.
    if (run.status === null || run.status > (task.maxStatus ?? 1))
      throw new Error(`${name} failed (${run.status}): ${run.stderr.toString().slice(0, 2000)}`);
    // The first line is the measured process itself; children (none expected) come after.
    const measured = JSON.parse(readFileSync(rusageFile, 'utf8').split('\n')[0]);
    results[name].ms.push(measured.ms);
    results[name].cpuMs.push(measured.cpuMs);
    results[name].maxRssKb = Math.max(results[name].maxRssKb, measured.maxRssKb);
    // `--timing`'s block: its heading and the indented rows under it.
    const stderrLines = run.stderr.toString().split('\n');
    const heading = stderrLines.findIndex((line) => line.startsWith('idempotency-check: rules ran over'));
    if (heading >= 0) {
      const rows = stderrLines.slice(heading + 1);
      const end = rows.findIndex((line) => !line.startsWith(' '));
      results[name].slowest = [stderrLines[heading], ...rows.slice(0, end < 0 ? rows.length : end)].join('\n');
    }
  }
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const time = (name) => median(results[name].ms);
const cpu = (name) => median(results[name].cpuMs);
const rss = (name) => results[name].maxRssKb / 1024;
const fmt = (n, digits = 2) => n.toFixed(digits);

const lines = [];
if (builtin) {
  lines.push(`corpus: ${describeCorpus(corpusFiles, corpus)} (${BENCH_PACKAGES.join(', ')})`);
  lines.push(
    `generated service: 1x = ${listCodeFiles([join(small, 'src')]).length} files, 10x = ${listCodeFiles([join(large, 'src')]).length} files`,
  );
  lines.push(
    `typed project: rxjs@7.8.2 src, ${listCodeFiles([join(typedRepo, 'src')]).length} TypeScript files, its own strict tsconfig`,
  );
}
REAL_CORPORA.forEach((folder, index) =>
  lines.push(`corpus ${realNames[index]}: ${folder}, ${listCodeFiles([folder]).length} code files`),
);
lines.push(
  `rounds: ${ROUNDS} (median time, peak memory); node ${process.version}; ${(await import('node:os')).cpus().length} cores`,
);
lines.push('');
lines.push('| measurement | median wall s | median CPU s | peak MB |');
lines.push('| --- | ---: | ---: | ---: |');
for (const name of Object.keys(tasks))
  lines.push(`| ${name} | ${fmt(time(name) / 1000)} | ${fmt(cpu(name) / 1000)} | ${fmt(rss(name), 0)} |`);
lines.push('');
// Each time ratio on wall time (the target's measure) and, beside it, on CPU time. A ratio is the
// median of the rounds' own ratios: the two sides of a round ran one after the other, so the
// load other tenants put on the machine mostly cancels out; the range shows what is left of it.
const pairedRatio = (over, under, key) => results[over][key].map((value, round) => value / results[under][key][round]);
const timeRatio = (label, over, under, target, limit, atLeast = false) => {
  if (!results[over] || !results[under]) return;
  const walls = pairedRatio(over, under, 'ms');
  const wall = median(walls);
  const cpuRatio = median(pairedRatio(over, under, 'cpuMs'));
  const range = walls.length > 1 ? ` (${fmt(Math.min(...walls))}–${fmt(Math.max(...walls))})` : '';
  const ok = limit === undefined ? '' : (atLeast ? wall >= limit : wall <= limit) ? 'met' : 'MISSED';
  lines.push(`| ${label} | ${fmt(wall)}${range} | ${fmt(cpuRatio)} | ${target} | ${ok} |`);
};
const memoryRatio = (label, over, under) => {
  if (!results[over] || !results[under]) return;
  const value = rss(over) / rss(under);
  lines.push(`| ${label} | ${fmt(value)} | | ≤ 1.0 | ${value <= 1 ? 'met' : 'MISSED'} |`);
};
lines.push('| ratio | wall (range over rounds) | CPU | target | |');
lines.push('| --- | ---: | ---: | --- | --- |');
for (const name of realNames) {
  timeRatio(`ESLint \`all\` / no rules (${name})`, `eslint all (${name})`, `eslint none (${name})`, '≤ 1.05', 1.05);
  timeRatio(`oxlint / ESLint, both with every rule (${name})`, `oxlint all (${name})`, `eslint all (${name})`, '—');
  timeRatio(
    `idempotency-check / ts.createSourceFile pass (${name})`,
    `idempotency-check (${name})`,
    `ts.createSourceFile (${name})`,
    '≤ 1.5',
    1.5,
  );
  timeRatio(
    `ESLint \`all\` / idempotency-check, speed-up (${name})`,
    `eslint all (${name})`,
    `idempotency-check (${name})`,
    '≥ 5',
    5,
    true,
  );
}
timeRatio('ESLint `all` / no rules, syntax (corpus)', 'eslint all (corpus)', 'eslint none (corpus)', '≤ 1.10', 1.1);
timeRatio('oxlint / ESLint, both with every rule (corpus)', 'oxlint all (corpus)', 'eslint all (corpus)', '—');
timeRatio(
  'ESLint `all` / no rules, typed (service 1×)',
  'eslint typed all (service 1x)',
  'eslint typed none (service 1x)',
  '≤ 1.10',
  1.1,
);
timeRatio(
  'idempotency-check / ts.createSourceFile pass (corpus)',
  'idempotency-check (corpus)',
  'ts.createSourceFile (corpus)',
  '≤ 3',
  3,
);
timeRatio(
  'ESLint `all` / idempotency-check, speed-up (corpus)',
  'eslint all (corpus)',
  'idempotency-check (corpus)',
  '≥ 3',
  3,
  true,
);
timeRatio(
  'idempotency-check --types / tsc --noEmit (service 10×)',
  'idempotency-check --types (service 10x)',
  'tsc --noEmit (service 10x)',
  '≤ 0.5',
  0.5,
);
memoryRatio(
  'peak memory, --types / tsc --noEmit (service 10×)',
  'idempotency-check --types (service 10x)',
  'tsc --noEmit (service 10x)',
);
timeRatio(
  'idempotency-check --types / tsc --noEmit (rxjs src)',
  'idempotency-check --types (rxjs src)',
  'tsc --noEmit (rxjs src)',
  '≤ 0.5',
  0.5,
);
memoryRatio(
  'peak memory, --types / tsc --noEmit (rxjs src)',
  'idempotency-check --types (rxjs src)',
  'tsc --noEmit (rxjs src)',
);
timeRatio('ESLint `all`, 10× / 1× files', 'eslint all (service 10x)', 'eslint all (service 1x)', '≤ 11', 11);
timeRatio(
  'idempotency-check, 10× / 1× files',
  'idempotency-check (service 10x)',
  'idempotency-check (service 1x)',
  '≤ 11',
  11,
);
// The slowest files of each checker run (its last round): where a budget would bite first.
const slowest = Object.entries(results).filter(([, result]) => result.slowest !== undefined);
if (slowest.length > 0) {
  lines.push('', 'Slowest files (the last round of each idempotency-check run, `--timing`):', '');
  for (const [name, result] of slowest)
    lines.push(`${name}:`, result.slowest.replace(/^idempotency-check: /, '  '), '');
}
console.log(lines.join('\n'));
