#!/usr/bin/env node
// Scores the plugin's rules on labelled snippet cases: single files of public repositories, each
// labelled at a line as a true instance of a rule (it must report there) or a hard negative (it
// must not). The cases live in realworld/cases/*.jsonl (format in realworld/README.md); the
// shared development set (../shared/realworld/dev-manifest.jsonl) can be scored beside them with
// --manifest. A case that needs other files of its repository (a header factory in another module)
// names them under "with"; such cases are scored by running idempotency-check (--cli) over a folder
// holding the case's file and those. The files themselves are other people's code: they stay outside the repository,
// under --files, brought there by --mirrors (bare git copies) or by hand. `scoreCases()` is pure:
// cases and lint messages in, counts out. Only Node built-ins and the ESLint the project has.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** How far (in lines) a report may sit from a case's line and still be that case. */
export const CASE_WINDOW = 3;
const RULE_PREFIX = 'idempotency/';
/**
 * The database libraries whose cases are read per library as well as per rule (issue 10's figures):
 * a case's library is the first word of its shape (`prisma-escape`, `mikroorm-…`).
 */
export const LIBRARIES = [
  'drizzle',
  'knex',
  'kysely',
  'mikroorm',
  'mongoose',
  'pgpromise',
  'prisma',
  'sequelize',
  'typeorm',
];

/** The database library a case is about, from its shape's first word, or undefined. */
export function libraryOf(shape) {
  const first = shape.split('-')[0];
  return LIBRARIES.includes(first) ? first : undefined;
}

export const USAGE =
  'Usage: node scripts/cases.mjs [--cases realworld/cases] [--manifest <dev-manifest.jsonl> ...] [--files /tmp/cases] ' +
  '[--mirrors /work/.mirror] [--plugin ./dist/src/index.js] [--cli ./dist/src/cli/bin.js] [--rule <name> ...] [--shape <name> ...] [--details] [--json]';

const KEYS = {
  repo: 'string',
  commit: 'commit',
  path: 'string',
  line: 'line',
  rule: 'string',
  verdict: 'boolean',
  shape: 'string',
  reason: 'string',
};
const REPO_PATTERN = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** A repository-relative POSIX path that stays inside the repository. */
function isRepoPath(path) {
  return (
    typeof path === 'string' &&
    path.trim() !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    posix.normalize(path) === path &&
    !path.startsWith('../') &&
    path !== '..'
  );
}

/** What is wrong with a case's optional `with`: the other files of its repository it needs. */
function withProblems(value, path) {
  if (!Array.isArray(value) || value.length === 0) return ['"with" must be a non-empty list of repository paths'];
  const problems = [];
  const seen = new Set();
  for (const [index, other] of value.entries()) {
    if (!isRepoPath(other)) problems.push(`"with[${index}]" must be a relative path inside the repository`);
    else if (other === path) problems.push(`"with[${index}]" is the case's own path`);
    else if (seen.has(other)) problems.push(`"with[${index}]" names ${other} twice`);
    seen.add(other);
  }
  return problems;
}

function keyProblem(key, kind, value) {
  if (value === undefined) return `"${key}" is missing`;
  const ok = {
    string: typeof value === 'string' && value.trim() !== '',
    commit: value === null || (typeof value === 'string' && /^[0-9a-f]{40}$/.test(value)),
    line: value === null || (Number.isInteger(value) && value >= 1),
    boolean: typeof value === 'boolean',
  }[kind];
  if (ok) return undefined;
  const expected = {
    string: 'a non-empty string',
    commit: '40 hex digits or null',
    line: 'a line number (1 or more) or null',
    boolean: 'true or false',
  }[kind];
  return `"${key}" must be ${expected}`;
}

/** What is wrong with one case, as messages (none when it is valid). */
export function caseProblems(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['a case must be a JSON object'];
  const problems = [];
  for (const [key, kind] of Object.entries(KEYS)) {
    const problem = keyProblem(key, kind, value[key]);
    if (problem) problems.push(problem);
  }
  for (const key of Object.keys(value)) if (!(key in KEYS) && key !== 'with') problems.push(`unknown key "${key}"`);
  if (value.with !== undefined) problems.push(...withProblems(value.with, value.path));
  if (typeof value.repo === 'string' && !REPO_PATTERN.test(value.repo)) problems.push('"repo" must be owner/name');
  if (value.verdict === true && value.line === null) problems.push('a positive case needs a line');
  if (typeof value.rule === 'string' && value.rule.startsWith(RULE_PREFIX))
    problems.push(`"rule" is the rule's name without "${RULE_PREFIX}"`);
  return problems;
}

/** Parses one cases file (JSON Lines). Returns the valid cases and one error per bad line. */
export function parseCases(text, file = '<cases>') {
  const cases = [];
  const errors = [];
  const seen = new Map();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push({ file, line, message: `not valid JSON (${error.message})` });
      return;
    }
    const problems = caseProblems(value);
    const key = [value.repo, value.commit, value.path, value.line, value.rule, ...(value.with ?? [])].join('\0');
    if (problems.length === 0 && seen.has(key)) problems.push(`the same case as line ${seen.get(key)}`);
    if (problems.length > 0) {
      for (const message of problems) errors.push({ file, line, message });
      return;
    }
    seen.set(key, line);
    cases.push({ ...value, source: `${file}:${line}` });
  });
  return { cases, errors };
}

/**
 * The shared development set's lines as cases: a positive for its rule at its line, and a
 * whole-file negative for each of `neg_rules`.
 */
export function manifestCases(text, file = '<manifest>') {
  const cases = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const entry = JSON.parse(raw);
    const base = { repo: entry.repo, commit: entry.commit ?? null, path: entry.path, reason: entry.note ?? '' };
    const source = `${file}:${index + 1}`;
    if (entry.rule === 'NEG') {
      for (const rule of entry.neg_rules ?? [])
        cases.push({ ...base, line: entry.line ?? null, rule, verdict: false, shape: 'dev-set', source });
    } else {
      cases.push({ ...base, line: entry.line, rule: entry.rule, verdict: true, shape: 'dev-set', source });
    }
  });
  return cases;
}

/** Where a case's file is kept under the files folder. */
export function caseFile(filesDir, entry) {
  return join(caseRoot(filesDir, entry), entry.path);
}

/**
 * The folder a case's files sit in, as their repository's root. A case `with` other files has a
 * folder of its own, named by a hash of its file set: the repository `idempotency-check` scans.
 */
export function caseRoot(filesDir, entry) {
  const root = join(filesDir, entry.repo.replace('/', '__'), entry.commit ?? 'HEAD');
  if (entry.with === undefined) return root;
  const files = [entry.path, ...entry.with].sort().join('\n');
  return join(root, 'with', createHash('sha256').update(files).digest('hex').slice(0, 12));
}

const COUNTS = ['found', 'missed', 'negatives', 'falsePositives', 'unreadable'];

/** The rows' counts added up per group (`keyOf`), each total named under `name`, in first-seen order. */
function totals(rows, keyOf, name) {
  const byKey = new Map();
  for (const row of rows) {
    const key = keyOf(row);
    const total = byKey.get(key) ?? { [name]: key, ...Object.fromEntries(COUNTS.map((count) => [count, 0])) };
    for (const count of COUNTS) total[count] += row[count];
    byKey.set(key, total);
  }
  return [...byKey.values()];
}

function near(line, target) {
  return target === null || Math.abs(line - target) <= CASE_WINDOW;
}

/**
 * Scores cases against lint messages. `messages` maps a case file (as `caseFile` names it) to the
 * messages ESLint gave it (`{ ruleId, line }`), or to undefined when the file could not be read or
 * parsed. Returns per rule and per shape: found and missed positives, hit and clean negatives, and
 * the list of misses and false positives.
 */
export function scoreCases(cases, messages, fileOf = (entry) => entry.path) {
  const groups = new Map();
  const group = (rule, shape) => {
    const key = `${rule}\0${shape}`;
    if (!groups.has(key))
      groups.set(key, { rule, shape, found: 0, missed: 0, negatives: 0, falsePositives: 0, unreadable: 0 });
    return groups.get(key);
  };
  const misses = [];
  const falsePositives = [];
  for (const entry of cases) {
    const counts = group(entry.rule, entry.shape);
    const fileMessages = messages.get(fileOf(entry));
    if (fileMessages === undefined) {
      counts.unreadable += 1;
      continue;
    }
    const hits = fileMessages.filter(
      (message) => message.ruleId === `${RULE_PREFIX}${entry.rule}` && near(message.line, entry.line),
    );
    if (entry.verdict) {
      if (hits.length > 0) counts.found += 1;
      else {
        counts.missed += 1;
        misses.push(entry);
      }
    } else {
      counts.negatives += 1;
      if (hits.length > 0) {
        counts.falsePositives += 1;
        falsePositives.push({ ...entry, reportedAt: hits.map((hit) => hit.line) });
      }
    }
  }
  const rows = [...groups.values()].sort((a, b) => a.rule.localeCompare(b.rule) || a.shape.localeCompare(b.shape));
  const rules = totals(rows, (row) => row.rule, 'rule');
  const libraries = totals(
    rows.filter((row) => libraryOf(row.shape) !== undefined),
    (row) => libraryOf(row.shape),
    'library',
  ).sort((a, b) => a.library.localeCompare(b.library));
  return { rows, rules, libraries, misses, falsePositives };
}

/** Table rows as lines, each column padded to its widest cell. */
function aligned(table) {
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  return table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
}

function percent(numerator, denominator) {
  return denominator === 0 ? '—' : `${((100 * numerator) / denominator).toFixed(1)} %`;
}

export function formatText(result, options = {}) {
  const lines = [];
  const header = ['rule', 'shape', 'recall', 'found', 'missed', 'neg. hit', 'unreadable'];
  const rowOf = (row, shape) => [
    row.rule,
    shape,
    percent(row.found, row.found + row.missed),
    String(row.found),
    String(row.missed),
    `${row.falsePositives}/${row.negatives}`,
    String(row.unreadable),
  ];
  const table = [header, ...result.rows.map((row) => rowOf(row, row.shape))];
  table.push(...result.rules.map((row) => rowOf(row, '(all)')));
  lines.push(...aligned(table));
  if (result.libraries.length > 0) {
    // Every rule's cases of one database library together: recall and hard negatives per library.
    const libraryTable = [
      ['library', 'recall', 'found', 'missed', 'neg. hit', 'unreadable'],
      ...result.libraries.map((row) => [row.library, ...rowOf(row, '').slice(2)]),
    ];
    lines.push('', ...aligned(libraryTable));
  }
  if (options.details) {
    for (const entry of result.misses)
      lines.push(`missed  ${entry.rule}  ${entry.repo} ${entry.path}:${entry.line}  (${entry.shape})  ${entry.reason}`);
    for (const entry of result.falsePositives)
      lines.push(
        `false   ${entry.rule}  ${entry.repo} ${entry.path}:${entry.reportedAt.join(',')}  (${entry.shape})  ${entry.reason}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

export function parseArgs(argv) {
  const options = {
    cases: join(ROOT, 'realworld/cases'),
    manifests: [],
    files: '/tmp/cases',
    mirrors: undefined,
    plugin: join(ROOT, 'dist/src/index.js'),
    cli: join(ROOT, 'dist/src/cli/bin.js'),
    rules: [],
    shapes: [],
    details: false,
    json: false,
  };
  const valued = {
    '--cases': 'cases',
    '--files': 'files',
    '--mirrors': 'mirrors',
    '--plugin': 'plugin',
    '--cli': 'cli',
  };
  const listed = { '--manifest': 'manifests', '--rule': 'rules', '--shape': 'shapes' };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--details') options.details = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--help' || arg === '-h') return { help: true };
    else if (arg in valued || arg in listed) {
      const value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) return { error: `${arg} needs a value` };
      index += 1;
      if (arg in valued) options[valued[arg]] = resolve(value);
      else options[listed[arg]].push(arg === '--manifest' ? resolve(value) : value);
    } else return { error: `unknown argument ${arg}` };
  }
  return { options };
}

function loadCases(options) {
  const cases = [];
  const errors = [];
  if (existsSync(options.cases))
    for (const name of readdirSync(options.cases)
      .filter((entry) => entry.endsWith('.jsonl'))
      .sort()) {
      const file = join(options.cases, name);
      const parsed = parseCases(readFileSync(file, 'utf8'), file);
      cases.push(...parsed.cases);
      errors.push(...parsed.errors);
    }
  for (const manifest of options.manifests) cases.push(...manifestCases(readFileSync(manifest, 'utf8'), manifest));
  const wanted = (entry) =>
    (options.rules.length === 0 || options.rules.includes(entry.rule)) &&
    (options.shapes.length === 0 || options.shapes.includes(entry.shape));
  return { cases: cases.filter(wanted), errors };
}

/**
 * Brings a case's files into its folder when they are not there yet: its own file and, for a case
 * `with` others, those too. From a bare mirror (`<mirrors>/<owner>+<name>/repo`) when there is one;
 * else, for a case `with` others, from the copies saved by hand at the repository's plain place
 * under the files folder (`<files>/<owner>__<name>/<commit>/<path>`, where a reader saves a file
 * read from the index when no snapshot of the repository can be had). Returns the paths still missing.
 */
export function bring(options, entry) {
  const root = caseRoot(options.files, entry);
  const plain = join(options.files, entry.repo.replace('/', '__'), entry.commit ?? 'HEAD');
  const gitDir =
    options.mirrors === undefined ? undefined : join(options.mirrors, entry.repo.replace('/', '+'), 'repo');
  const missing = [];
  for (const path of [entry.path, ...(entry.with ?? [])]) {
    const target = join(root, path);
    if (existsSync(target)) continue;
    const text = fromMirror(gitDir, entry, path) ?? (root === plain ? undefined : savedCopy(join(plain, path)));
    if (text === undefined) {
      missing.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return missing;
}

/** A file at the case's commit from a bare mirror, if there is one that holds it. */
function fromMirror(gitDir, entry, path) {
  if (gitDir === undefined || !existsSync(gitDir)) return undefined;
  const shown = spawnSync('git', ['--git-dir', gitDir, 'show', `${entry.commit ?? 'HEAD'}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return shown.status === 0 ? shown.stdout : undefined;
}

function savedCopy(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/**
 * Scores the cases that need other files: `idempotency-check` (the `--cli` build) scans each case's
 * folder as a repository, so the settings it computes across files reach the rules as they do on a
 * whole application. Its findings become the messages of the folder's files; a missing file, a file
 * it did not analyse, or a failed run is named as a problem and leaves the case unreadable.
 */
function checkAll(options, cases) {
  const messages = new Map();
  const problems = [];
  const roots = new Map();
  for (const entry of cases) roots.set(caseRoot(options.files, entry), entry);
  for (const [root, entry] of roots) {
    const paths = [entry.path, ...entry.with];
    const missing = paths.filter((path) => !existsSync(join(root, path)));
    if (missing.length > 0) {
      for (const path of missing) problems.push(`${join(root, path)}: not on this machine`);
      continue;
    }
    const run = spawnSync(process.execPath, [options.cli, '.', '--format', 'json'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0 && run.status !== 1) {
      const why = (run.stderr || String(run.error ?? '')).trim().split('\n')[0];
      problems.push(`${root}: idempotency-check exited ${run.status}: ${why}`);
      continue;
    }
    const report = JSON.parse(run.stdout);
    const notAnalysed = new Set(report.notAnalysed.map((item) => item.file));
    for (const path of paths) {
      if (notAnalysed.has(path)) {
        problems.push(`${join(root, path)}: not analysed by idempotency-check`);
        continue;
      }
      messages.set(
        join(root, path),
        report.findings
          .filter((finding) => finding.file === path)
          .map((finding) => ({ ruleId: finding.ruleId, line: finding.line })),
      );
    }
  }
  return { messages, problems };
}

async function lintAll(options, cases) {
  const { ESLint } = await import('eslint');
  const parser = await import('@typescript-eslint/parser');
  const plugin = (await import(pathToFileURL(options.plugin).href)).default;
  const byRoot = new Map();
  for (const entry of cases) {
    const root = join(options.files, entry.repo.replace('/', '__'), entry.commit ?? 'HEAD');
    if (!byRoot.has(root)) byRoot.set(root, new Set());
    byRoot.get(root).add(entry.path);
  }
  const messages = new Map();
  const problems = [];
  for (const [root, paths] of byRoot) {
    // The repository's own folder is ESLint's cwd, so file roles see the path as it is there.
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      allowInlineConfig: false,
      overrideConfig: [
        {
          files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
          languageOptions: { parser, parserOptions: { ecmaFeatures: { jsx: true } } },
        },
        plugin.configs.all,
      ],
    });
    const present = [...paths].filter((path) => existsSync(join(root, path)));
    for (const path of paths) if (!present.includes(path)) problems.push(`${join(root, path)}: not on this machine`);
    if (present.length === 0) continue;
    for (const result of await eslint.lintFiles(present)) {
      const fatal = result.messages.find((message) => message.fatal || message.ruleId === null);
      if (fatal) {
        problems.push(`${result.filePath}: ${fatal.message}`);
        continue;
      }
      messages.set(result.filePath, result.messages);
    }
  }
  return { messages, problems };
}

export async function main(argv = process.argv.slice(2)) {
  const parsed = parseArgs(argv);
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.error) {
    process.stderr.write(`cases: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const { options } = parsed;
  if (!existsSync(options.plugin)) {
    process.stderr.write(`cases: no plugin build at ${options.plugin}: run \`npm run build\` first\n`);
    return 2;
  }
  const { cases, errors } = loadCases(options);
  if (errors.length > 0) {
    for (const error of errors) process.stderr.write(`${error.file}:${error.line}: ${error.message}\n`);
    return 2;
  }
  if (cases.length === 0) {
    process.stderr.write('cases: no cases to score\n');
    return 2;
  }
  const folders = cases.filter((entry) => entry.with !== undefined);
  if (folders.length > 0 && !existsSync(options.cli)) {
    process.stderr.write(`cases: no idempotency-check build at ${options.cli}: run \`npm run build\` or give --cli\n`);
    return 2;
  }
  for (const entry of cases) bring(options, entry);
  const single = cases.filter((entry) => entry.with === undefined);
  const linted = single.length > 0 ? await lintAll(options, single) : { messages: new Map(), problems: [] };
  const checked = checkAll(options, folders);
  const messages = new Map([...linted.messages, ...checked.messages]);
  for (const problem of [...linted.problems, ...checked.problems]) process.stderr.write(`cases: ${problem}\n`);
  const result = scoreCases(cases, messages, (entry) => caseFile(options.files, entry));
  process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatText(result, options));
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
