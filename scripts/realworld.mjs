#!/usr/bin/env node
// Scores `idempotency-check` against the hand labels of the real-application corpus
// (realworld/README.md). `score()` is pure: reports and labels in, counts out. Run directly, it
// runs the checker over each app in realworld/apps.tsv whose copy exists under --apps, loads
// realworld/labels/*.jsonl (validated first), and prints precision and recall per rule, the
// handler inventory's precision and recall, and one line per app. Only Node built-ins.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RULE_PREFIX = 'idempotency/';
/** How far (in lines) an inventory row may sit from a handler label's `line` or `alt` line. */
export const HANDLER_WINDOW = 3;

export const USAGE =
  'Usage: node scripts/realworld.mjs [--apps /tmp/apps] [--cli ./dist/src/cli/bin.js] [--app owner/name ...] ' +
  '[--cli-arg <arg> ...] [--unlabelled] [--json] [--reports-dir <dir>] [--rerun] [--fallback-tsconfig] [--labels <dir>] [--apps-tsv <file>]';

// ---------------------------------------------------------------------------------------------
// Labels

const COMMON_KEYS = {
  type: 'string',
  repo: 'string',
  commit: 'string',
  path: 'string',
  line: 'line',
  verdict: 'boolean',
  reason: 'string',
};
/** Required keys and their types, per label type. */
export const LABEL_KEYS = {
  finding: { ...COMMON_KEYS, rule: 'string' },
  handler: { ...COMMON_KEYS, kind: 'kind', framework: 'string' },
};
/** Keys a label may have but need not. */
export const OPTIONAL_KEYS = { finding: {}, handler: { alt: 'lines' } };
export const HANDLER_KINDS = ['consumer', 'webhook'];

const REPO_PATTERN = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
const COMMIT_PATTERN = /^[0-9a-f]{40}$/;

function typeError(key, kind, value) {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  switch (kind) {
    case 'string':
      return typeof value === 'string' && value.trim() !== ''
        ? undefined
        : `"${key}" must be a non-empty string, got ${got}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `"${key}" must be true or false, got ${JSON.stringify(value)}`;
    case 'line':
      return Number.isInteger(value) && value > 0
        ? undefined
        : `"${key}" must be a positive integer, got ${JSON.stringify(value)}`;
    case 'kind':
      return HANDLER_KINDS.includes(value)
        ? undefined
        : `"${key}" must be "consumer" or "webhook", got ${JSON.stringify(value)}`;
    case 'lines':
      return Array.isArray(value) && value.length > 0 && value.every((line) => Number.isInteger(line) && line > 0)
        ? undefined
        : `"${key}" must be a non-empty array of positive integers, got ${JSON.stringify(value)}`;
    default:
      throw new Error(`unknown key kind ${kind}`);
  }
}

/** The problems with one parsed label line, as messages; empty when it is valid. */
export function labelProblems(label) {
  if (label === null || typeof label !== 'object' || Array.isArray(label)) return ['a label must be a JSON object'];
  const required = LABEL_KEYS[label.type];
  if (!required) return [`"type" must be "finding" or "handler", got ${JSON.stringify(label.type)}`];
  const optional = OPTIONAL_KEYS[label.type];
  const problems = [];
  const missing = Object.keys(required).filter((key) => !Object.hasOwn(label, key));
  if (missing.length > 0)
    problems.push(`missing key${missing.length > 1 ? 's' : ''} ${missing.map((key) => `"${key}"`).join(', ')}`);
  const unknown = Object.keys(label).filter((key) => !Object.hasOwn(required, key) && !Object.hasOwn(optional, key));
  if (unknown.length > 0)
    problems.push(
      `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')} for a ${label.type} label`,
    );
  for (const [key, kind] of Object.entries({ ...required, ...optional })) {
    if (!Object.hasOwn(label, key)) continue;
    const problem = typeError(key, kind, label[key]);
    if (problem) problems.push(problem);
  }
  if (typeof label.repo === 'string' && label.repo !== '' && !REPO_PATTERN.test(label.repo))
    problems.push(`"repo" must be owner/name, got ${JSON.stringify(label.repo)}`);
  if (typeof label.commit === 'string' && label.commit !== '' && !COMMIT_PATTERN.test(label.commit))
    problems.push(`"commit" must be a 40-digit lower-case hex sha, got ${JSON.stringify(label.commit)}`);
  if (typeof label.path === 'string' && label.path !== '') {
    if (
      label.path.startsWith('/') ||
      label.path.includes('\\') ||
      label.path.split('/').some((part) => part === '' || part === '.' || part === '..')
    ) {
      problems.push(`"path" must be a POSIX path relative to the repository root, got ${JSON.stringify(label.path)}`);
    }
  }
  if (typeof label.rule === 'string' && label.rule.startsWith(RULE_PREFIX))
    problems.push(`"rule" is the rule name without "${RULE_PREFIX}", got ${JSON.stringify(label.rule)}`);
  return problems;
}

/** The identity two labels must not share. */
export function labelKey(label) {
  return JSON.stringify([
    label.type,
    label.repo,
    label.path,
    label.line,
    label.type === 'finding' ? label.rule : label.kind,
  ]);
}

/**
 * Parses one labels file (JSON Lines; blank lines are allowed). `file` is used in messages and,
 * when it is named `<owner>__<name>.jsonl`, every label's repo must be that app. Returns the
 * valid labels and one error per bad line: `{ file, line, message }`.
 */
export function parseLabels(text, file = '<labels>') {
  const labels = [];
  const errors = [];
  const seen = new Map();
  const commits = new Map();
  const fileName = basename(file);
  const fileRepo = fileName.endsWith('.jsonl') ? fileName.slice(0, -'.jsonl'.length).replace('__', '/') : undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let label;
    try {
      label = JSON.parse(raw);
    } catch (error) {
      errors.push({ file, line, message: `not valid JSON (${error.message})` });
      return;
    }
    const problems = labelProblems(label);
    if (problems.length === 0) {
      if (fileRepo !== undefined && label.repo !== fileRepo)
        problems.push(`"repo" is ${label.repo} but this file holds the labels of ${fileRepo}`);
      const first = commits.get(label.repo);
      if (first && first.commit !== label.commit)
        problems.push(`"commit" ${label.commit} differs from ${first.commit} on line ${first.line}`);
      const key = labelKey(label);
      const duplicate = seen.get(key);
      if (duplicate !== undefined) {
        const what = label.type === 'finding' ? `rule ${label.rule}` : `kind ${label.kind}`;
        problems.push(`duplicate of line ${duplicate} (same repo, path, line ${label.line} and ${what})`);
      }
      if (problems.length === 0) {
        seen.set(key, line);
        if (!first) commits.set(label.repo, { commit: label.commit, line });
        labels.push(label);
        return;
      }
    }
    for (const message of problems) errors.push({ file, line, message });
  });
  return { labels, errors };
}

// ---------------------------------------------------------------------------------------------
// Scoring

const TEST_SEGMENTS = new Set([
  'test',
  'tests',
  '__tests__',
  '__test__',
  'e2e',
  'spec',
  'specs',
  'cypress',
  'playwright',
  '__mocks__',
  'test-utils',
  'testing',
]);
const TEST_FILE =
  /(?:\.|-|_)(?:test|tests|spec|e2e|e2e-spec|cy)\.[cm]?[jt]sx?$|^(?:test|spec)[.-]|(?:^|[.-])(?:playwright|cypress|vitest|jest)\.config\./i;

/** Heuristic: the path is a test, e2e, spec, Cypress or Playwright file. */
export function isTestPath(path) {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  return parts.some((part) => TEST_SEGMENTS.has(part.toLowerCase())) || TEST_FILE.test(file);
}

/** The inventory kind the checker claims for a row: `webhook` for its webhook broker, else `consumer`. */
export function rowKind(row) {
  return row.broker === 'webhook' ? 'webhook' : 'consumer';
}

export function ruleName(ruleId) {
  return ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
}

function ratio(numerator, denominator) {
  return denominator === 0 ? null : numerator / denominator;
}

/**
 * The handler label that an inventory row at `line` matches, among the labels of its file:
 * the one whose `line` or an `alt` line is nearest, within HANDLER_WINDOW. Ties go to a label
 * whose own `line` is that near, then to the lower line.
 */
export function nearestHandlerLabel(candidates, line) {
  let best;
  for (const label of candidates) {
    const primary = Math.abs(label.line - line);
    const distance = Math.min(primary, ...(label.alt ?? []).map((alt) => Math.abs(alt - line)));
    if (distance > HANDLER_WINDOW) continue;
    const rank = [distance, primary === distance ? 0 : 1, label.line];
    if (!best || compareRanks(rank, best.rank) < 0) best = { label, rank };
  }
  return best?.label;
}

function compareRanks(a, b) {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return a[index] - b[index];
  return 0;
}

function findingCounts() {
  return {
    reported: 0,
    tp: 0,
    fp: 0,
    unlabelled: 0,
    precision: null,
    truePositives: 0,
    found: 0,
    missed: 0,
    recall: null,
  };
}

function finishFindings(counts) {
  counts.precision = ratio(counts.tp, counts.tp + counts.fp);
  counts.recall = counts.truePositives === 0 ? null : ratio(counts.found, counts.truePositives);
  return counts;
}

function inventoryCounts() {
  return {
    rows: 0,
    rowsTrue: 0,
    rowsFalse: 0,
    rowsUnlabelled: 0,
    precision: null,
    groundTruth: 0,
    listed: 0,
    recall: null,
  };
}

function finishInventory(counts) {
  counts.precision = ratio(counts.rowsTrue, counts.rowsTrue + counts.rowsFalse);
  counts.recall = ratio(counts.listed, counts.groundTruth);
  return counts;
}

function entriesOf(reports) {
  const entries = reports instanceof Map ? [...reports] : Object.entries(reports);
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Scores reports against labels. `reports`: Map or object, app (`owner/name`) -> parsed JSON
 * report of `idempotency-check --format json`. `labels`: valid label objects; labels of apps not
 * in `reports` are ignored (counted in `ignoredLabels`).
 *
 * Findings: a finding is TP/FP when a finding label has its repo, path, rule and line and verdict
 * true/false, unlabelled otherwise. `missed` counts verdict-true labels no finding matched; recall
 * is found / (found + missed) over those labels (equal to TP/(TP+missed) unless two findings share
 * one label).
 *
 * Inventory: a row matches the nearest handler label of its file (see nearestHandlerLabel). Rows
 * are split by the kind the checker claims (rowKind); ground truth (verdict-true handler labels)
 * by the label's kind, and a ground-truth label is listed when at least one row matched it.
 */
export function score(reports, labels) {
  const entries = entriesOf(reports);
  const scored = new Set(entries.map(([app]) => app));
  const findingLabels = new Map();
  const handlerLabels = new Map();
  let ignoredLabels = 0;
  for (const label of labels) {
    if (!scored.has(label.repo)) {
      ignoredLabels++;
      continue;
    }
    if (label.type === 'finding')
      findingLabels.set(JSON.stringify([label.repo, label.path, label.rule, label.line]), label);
    else {
      const key = JSON.stringify([label.repo, label.path]);
      if (!handlerLabels.has(key)) handlerLabels.set(key, []);
      handlerLabels.get(key).push(label);
    }
  }

  const rules = new Map();
  const ruleCounts = (rule) => {
    if (!rules.has(rule)) rules.set(rule, findingCounts());
    return rules.get(rule);
  };
  const total = findingCounts();
  const inventory = { all: inventoryCounts(), consumer: inventoryCounts(), webhook: inventoryCounts() };
  const testFiles = { findings: 0, tp: 0, fp: 0, unlabelled: 0, rows: 0 };
  const apps = new Map();
  const unlabelled = { findings: [], rows: [] };
  const missed = { findings: [], handlers: [] };
  const foundLabels = new Set();
  const listedLabels = new Set();

  for (const [app, report] of entries) {
    const appCounts = { app, findings: findingCounts(), inventory: inventoryCounts(), testFindings: 0 };
    apps.set(app, appCounts);
    for (const finding of report.findings ?? []) {
      const rule = ruleName(finding.ruleId);
      const label = findingLabels.get(JSON.stringify([app, finding.file, rule, finding.line]));
      const outcome = !label ? 'unlabelled' : label.verdict ? 'tp' : 'fp';
      for (const counts of [ruleCounts(rule), total, appCounts.findings]) {
        counts.reported++;
        counts[outcome]++;
      }
      if (label?.verdict) foundLabels.add(label);
      if (!label)
        unlabelled.findings.push({ app, path: finding.file, line: finding.line, rule, snippet: finding.snippet ?? '' });
      if (isTestPath(finding.file)) {
        testFiles.findings++;
        testFiles[outcome]++;
        appCounts.testFindings++;
      }
    }
    for (const row of report.handlers ?? []) {
      const label = nearestHandlerLabel(handlerLabels.get(JSON.stringify([app, row.file])) ?? [], row.line);
      const outcome = !label ? 'rowsUnlabelled' : label.verdict ? 'rowsTrue' : 'rowsFalse';
      for (const counts of [inventory.all, inventory[rowKind(row)], appCounts.inventory]) {
        counts.rows++;
        counts[outcome]++;
      }
      if (label?.verdict) listedLabels.add(label);
      if (!label)
        unlabelled.rows.push({ app, path: row.file, line: row.line, broker: row.broker, name: row.name ?? '' });
      if (isTestPath(row.file)) testFiles.rows++;
    }
  }

  for (const label of findingLabels.values()) {
    if (!label.verdict) continue;
    const found = foundLabels.has(label);
    for (const counts of [ruleCounts(label.rule), total, apps.get(label.repo).findings]) {
      counts.truePositives++;
      if (found) counts.found++;
      else counts.missed++;
    }
    if (!found)
      missed.findings.push({
        app: label.repo,
        path: label.path,
        line: label.line,
        rule: label.rule,
        reason: label.reason,
      });
  }
  for (const list of handlerLabels.values()) {
    for (const label of list) {
      if (!label.verdict) continue;
      const listed = listedLabels.has(label);
      for (const counts of [inventory.all, inventory[label.kind], apps.get(label.repo).inventory]) {
        counts.groundTruth++;
        if (listed) counts.listed++;
      }
      if (!listed)
        missed.handlers.push({
          app: label.repo,
          path: label.path,
          line: label.line,
          kind: label.kind,
          framework: label.framework,
          reason: label.reason,
        });
    }
  }

  const byPlace = (a, b) =>
    a.app < b.app ? -1 : a.app > b.app ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
  return {
    rules: [...rules.keys()].sort().map((rule) => ({ rule, ...finishFindings(rules.get(rule)) })),
    total: finishFindings(total),
    inventory: {
      all: finishInventory(inventory.all),
      consumer: finishInventory(inventory.consumer),
      webhook: finishInventory(inventory.webhook),
    },
    testFiles,
    apps: [...apps.values()].map((counts) => ({
      ...counts,
      findings: finishFindings(counts.findings),
      inventory: finishInventory(counts.inventory),
    })),
    unlabelled: { findings: unlabelled.findings.sort(byPlace), rows: unlabelled.rows.sort(byPlace) },
    missed: { findings: missed.findings.sort(byPlace), handlers: missed.handlers.sort(byPlace) },
    ignoredLabels,
  };
}

// ---------------------------------------------------------------------------------------------
// Text output

function percent(value) {
  return value === null ? '-' : `${(value * 100).toFixed(1)}%`;
}

function table(header, rows) {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function oneLine(text, max = 100) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The text report of a score() result plus the run's apps (status, seconds). */
export function formatText(result, run = { apps: [] }, options = {}) {
  const out = [];
  const findingRow = (name, c) => [
    name,
    c.reported,
    c.tp,
    c.fp,
    c.unlabelled,
    percent(c.precision),
    c.missed,
    percent(c.recall),
  ];
  out.push('Findings by rule');
  out.push(
    table(
      ['rule', 'reported', 'TP', 'FP', 'unlabelled', 'precision', 'missed', 'recall'],
      [...result.rules.map((c) => findingRow(c.rule, c)), findingRow('total', result.total)],
    ),
  );
  out.push('');
  out.push('Handler inventory');
  const inventoryRow = (name, c) => [
    name,
    c.rows,
    c.rowsTrue,
    c.rowsFalse,
    c.rowsUnlabelled,
    percent(c.precision),
    c.groundTruth,
    c.listed,
    percent(c.recall),
  ];
  out.push(
    table(
      ['kind', 'rows', 'true', 'false', 'unlabelled', 'precision', 'ground truth', 'listed', 'recall'],
      [
        inventoryRow('all', result.inventory.all),
        inventoryRow('consumer', result.inventory.consumer),
        inventoryRow('webhook', result.inventory.webhook),
      ],
    ),
  );
  out.push(
    '(rows split by the kind the checker reports: broker "webhook" or a consumer broker; ground truth by the label\'s kind)',
  );
  out.push('');
  const t = result.testFiles;
  out.push(
    `Findings in test files: ${t.findings} of ${result.total.reported} (TP ${t.tp}, FP ${t.fp}, unlabelled ${t.unlabelled}); inventory rows in test files: ${t.rows}`,
  );
  if (result.ignoredLabels > 0) out.push(`Labels of apps not scored this run: ${result.ignoredLabels}`);
  out.push('');
  out.push('Per app');
  const scoredApps = new Map(result.apps.map((app) => [app.app, app]));
  out.push(
    table(
      [
        'app',
        'status',
        'secs',
        'findings',
        'TP',
        'FP',
        'unl',
        'missed',
        'rows',
        'true',
        'false',
        'unl',
        'handlers listed',
      ],
      run.apps
        .filter((entry) => entry.status !== 'missing')
        .map((entry) => {
          const app = scoredApps.get(entry.app);
          if (!app) return [entry.app, entry.status, entry.seconds ?? '', '', '', '', '', '', '', '', '', '', ''];
          const f = app.findings;
          const i = app.inventory;
          return [
            entry.app,
            entry.status,
            entry.seconds ?? '',
            f.reported,
            f.tp,
            f.fp,
            f.unlabelled,
            f.missed,
            i.rows,
            i.rowsTrue,
            i.rowsFalse,
            i.rowsUnlabelled,
            `${i.listed}/${i.groundTruth}`,
          ];
        }),
    ),
  );
  if (options.unlabelled) {
    out.push('');
    out.push(`Unlabelled findings (${result.unlabelled.findings.length})`);
    for (const f of result.unlabelled.findings)
      out.push(`${f.app} ${f.path}:${f.line} ${f.rule} ${oneLine(f.snippet)}`);
    out.push('');
    out.push(`Unlabelled inventory rows (${result.unlabelled.rows.length})`);
    for (const r of result.unlabelled.rows)
      out.push(`${r.app} ${r.path}:${r.line} handler ${r.broker}${r.name ? ` ${r.name}` : ''}`);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// CLI

class UsageError extends Error {}

export function parseArgs(argv) {
  const options = {
    apps: '/tmp/apps',
    cli: undefined,
    app: [],
    cliArg: [],
    unlabelled: false,
    json: false,
    reportsDir: undefined,
    rerun: false,
    fallbackTsconfig: false,
    labels: undefined,
    appsTsv: undefined,
    help: false,
  };
  const valued = {
    '--apps': 'apps',
    '--cli': 'cli',
    '--app': 'app',
    '--cli-arg': 'cliArg',
    '--reports-dir': 'reportsDir',
    '--labels': 'labels',
    '--apps-tsv': 'appsTsv',
  };
  const flags = {
    '--unlabelled': 'unlabelled',
    '--json': 'json',
    '--rerun': 'rerun',
    '--fallback-tsconfig': 'fallbackTsconfig',
    '--help': 'help',
    '-h': 'help',
  };
  for (let index = 0; index < argv.length; index++) {
    let arg = argv[index];
    let value;
    const equals = arg.indexOf('=');
    if (arg.startsWith('--') && equals !== -1) {
      value = arg.slice(equals + 1);
      arg = arg.slice(0, equals);
    }
    if (Object.hasOwn(flags, arg)) {
      if (value !== undefined) throw new UsageError(`${arg} takes no value`);
      options[flags[arg]] = true;
    } else if (Object.hasOwn(valued, arg)) {
      if (value === undefined) {
        // The next argument is the value even when it starts with `--` (`--cli-arg --types`).
        if (index + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
        value = argv[++index];
      }
      if (value === '') throw new UsageError(`${arg} needs a non-empty value`);
      const key = valued[arg];
      if (Array.isArray(options[key])) options[key].push(value);
      else options[key] = value;
    } else {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  for (const app of options.app)
    if (!REPO_PATTERN.test(app)) throw new UsageError(`--app must be owner/name, got ${JSON.stringify(app)}`);
  return options;
}

/** realworld/apps.tsv: a header row, then repo and commit per line. */
export function parseAppsTsv(text, file = 'apps.tsv') {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines.shift() ?? '').split('\t');
  const repoColumn = header.indexOf('repo');
  const commitColumn = header.indexOf('commit');
  if (repoColumn === -1 || commitColumn === -1)
    throw new UsageError(`${file}: the header must name the columns repo and commit`);
  return lines.map((line, index) => {
    const cells = line.split('\t');
    const repo = cells[repoColumn];
    const commit = cells[commitColumn];
    if (!repo || !REPO_PATTERN.test(repo) || !commit || !COMMIT_PATTERN.test(commit))
      throw new UsageError(`${file}:${index + 2}: expected owner/name<TAB>40-digit commit`);
    return { repo, commit };
  });
}

function appDirName(repo) {
  return repo.replace('/', '__');
}

function firstLine(text) {
  return (text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
}

function loadAllLabels(dir) {
  const labels = [];
  const errors = [];
  if (!existsSync(dir)) return { labels, errors };
  for (const name of readdirSync(dir)
    .filter((entry) => entry.endsWith('.jsonl'))
    .sort()) {
    const file = join(dir, name);
    const parsed = parseLabels(readFileSync(file, 'utf8'), file);
    labels.push(...parsed.labels);
    errors.push(...parsed.errors);
  }
  return { labels, errors };
}

/**
 * A tsconfig for an app whose own one does not load (it `extends` a package that is not installed):
 * every source file under the app, as JavaScript-and-TypeScript with decorators and JSX.
 */
function fallbackTsconfig(dir) {
  const folder = mkdtempSync(join(tmpdir(), 'realworld-tsconfig-'));
  const file = join(folder, 'tsconfig.json');
  const compilerOptions = {
    allowJs: true,
    skipLibCheck: true,
    jsx: 'preserve',
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    experimentalDecorators: true,
    resolveJsonModule: true,
    noEmit: true,
  };
  const include = [`${dir}/**/*`];
  const exclude = [`${dir}/**/node_modules`, `${dir}/**/dist`];
  writeFileSync(file, `${JSON.stringify({ compilerOptions, include, exclude }, null, 2)}\n`);
  return file;
}

function runChecker(cli, dir, args) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [cli, dir, '--format', 'json', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const seconds = Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(1));
  if (child.error) return { seconds, message: child.error.message };
  if (child.status !== 0 && child.status !== 1) {
    const reason = child.status === null ? `killed by ${child.signal}` : `exit ${child.status}`;
    return { seconds, exit: child.status, message: `${reason}: ${firstLine(child.stderr) || '(no stderr)'}` };
  }
  try {
    return { seconds, exit: child.status, report: JSON.parse(child.stdout), stdout: child.stdout };
  } catch (error) {
    return {
      seconds,
      exit: child.status,
      message: `exit ${child.status} but stdout is not a JSON report (${error.message})`,
    };
  }
}

/** Runs the checker on one app, or reads the report saved in --reports-dir. */
function reportFor(entry, dir, options, cli) {
  const saved = options.reportsDir ? join(options.reportsDir, `${appDirName(entry.repo)}.json`) : undefined;
  const meta = saved ? saved.replace(/\.json$/, '.meta.json') : undefined;
  if (saved && !options.rerun && existsSync(saved)) {
    let report;
    let recorded;
    try {
      report = JSON.parse(readFileSync(saved, 'utf8'));
      if (meta && existsSync(meta)) recorded = JSON.parse(readFileSync(meta, 'utf8'));
    } catch (error) {
      return { status: 'not run', message: `${saved} is not JSON (${error.message}); --rerun to replace it` };
    }
    if (!recorded) return { status: 'saved', report, note: ' (no .meta.json: made by hand?)' };
    const same = recorded.cli === cli && JSON.stringify(recorded.cliArgs) === JSON.stringify(options.cliArg);
    const note = same ? '' : ` (saved by ${[recorded.cli, ...recorded.cliArgs].join(' ')}; --rerun to refresh)`;
    return {
      status: recorded.fallbackTsconfig ? 'saved, fallback tsconfig' : 'saved',
      seconds: recorded.seconds,
      report,
      note,
    };
  }
  if (!existsSync(dir)) return { status: 'missing' };
  let outcome = runChecker(cli, dir, options.cliArg);
  let fallback = false;
  if (!outcome.report && outcome.exit === 2 && options.fallbackTsconfig && /tsconfig/i.test(outcome.message)) {
    const first = outcome;
    const tsconfig = fallbackTsconfig(dir);
    try {
      outcome = runChecker(cli, dir, [...options.cliArg, '--tsconfig', tsconfig]);
    } finally {
      rmSync(dirname(tsconfig), { recursive: true, force: true });
    }
    outcome.seconds = Number((first.seconds + outcome.seconds).toFixed(1));
    if (!outcome.report) outcome.message = `${first.message}; with the fallback tsconfig: ${outcome.message}`;
    fallback = true;
  }
  if (!outcome.report) return { status: 'not run', seconds: outcome.seconds, message: outcome.message };
  if (saved) {
    mkdirSync(dirname(saved), { recursive: true });
    writeFileSync(saved, outcome.stdout);
    const record = {
      cli,
      cliArgs: options.cliArg,
      fallbackTsconfig: fallback,
      exit: outcome.exit,
      seconds: outcome.seconds,
    };
    writeFileSync(meta, `${JSON.stringify(record, null, 2)}\n`);
  }
  return { status: fallback ? 'ok, fallback tsconfig' : 'ok', seconds: outcome.seconds, report: outcome.report };
}

function knownRules() {
  const dir = join(ROOT, 'rules');
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && name !== 'index.ts')
      .map((name) => name.slice(0, -3)),
  );
}

export function main(argv = process.argv.slice(2)) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`realworld: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const fail = (message) => {
    console.error(`realworld: ${message}`);
    return 2;
  };

  // A held-out set (realworld/heldout/<issue>/) names its own apps beside its labels.
  const appsTsv = options.appsTsv ? resolve(options.appsTsv) : join(ROOT, 'realworld/apps.tsv');
  if (!existsSync(appsTsv)) return fail(`${appsTsv} does not exist`);
  let apps;
  try {
    apps = parseAppsTsv(readFileSync(appsTsv, 'utf8'), appsTsv);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    throw error;
  }
  const unknown = options.app.filter((app) => !apps.some((entry) => entry.repo === app));
  if (unknown.length > 0) return fail(`--app ${unknown.join(', ')} is not in ${relative(ROOT, appsTsv)}`);
  if (options.app.length > 0) apps = apps.filter((entry) => options.app.includes(entry.repo));

  const labelsDir = options.labels ? resolve(options.labels) : join(ROOT, 'realworld/labels');
  if (options.labels && !existsSync(labelsDir)) return fail(`--labels ${options.labels} does not exist`);
  const { labels, errors } = loadAllLabels(labelsDir);
  if (errors.length > 0) {
    for (const error of errors) console.error(`${error.file}:${error.line}: ${error.message}`);
    return fail(`${errors.length} bad label line${errors.length > 1 ? 's' : ''}; fix them and run again`);
  }

  const appsDir = resolve(options.apps);
  if (!existsSync(appsDir)) return fail(`--apps ${options.apps} does not exist`);
  const cli = options.cli ? resolve(options.cli) : join(ROOT, 'dist/src/cli/bin.js');
  if (options.reportsDir) options.reportsDir = resolve(options.reportsDir);
  const needsCli = apps.some((entry) => {
    const saved = options.reportsDir && join(options.reportsDir, `${appDirName(entry.repo)}.json`);
    return !(saved && !options.rerun && existsSync(saved)) && existsSync(join(appsDir, appDirName(entry.repo)));
  });
  if (needsCli && !existsSync(cli)) return fail(`checker not found at ${cli}: run npm run build or pass --cli`);

  const warnings = [];
  const rules = knownRules();
  for (const label of labels) {
    const entry = apps.find((app) => app.repo === label.repo);
    if (label.type === 'finding' && rules.size > 0 && !rules.has(label.rule))
      warnings.push(`${label.repo} ${label.path}:${label.line}: rule "${label.rule}" is not in rules/`);
    if (entry && entry.commit !== label.commit)
      warnings.push(`${label.repo}: labels record commit ${label.commit}, apps.tsv has ${entry.commit}`);
  }

  const reports = new Map();
  const run = { apps: [] };
  for (const entry of apps) {
    const dir = join(appsDir, appDirName(entry.repo));
    const outcome = reportFor(entry, dir, options, cli);
    if (outcome.status !== 'missing') {
      const seconds = outcome.seconds !== undefined ? ` ${outcome.seconds}s` : '';
      const message = outcome.message ? `: ${outcome.message}` : '';
      console.error(`${entry.repo}: ${outcome.status}${seconds}${message}${outcome.note ?? ''}`);
    }
    run.apps.push({ app: entry.repo, status: outcome.status, seconds: outcome.seconds, message: outcome.message });
    if (outcome.report) {
      reports.set(entry.repo, outcome.report);
      if (existsSync(dir)) {
        for (const label of labels) {
          if (label.repo === entry.repo && !existsSync(join(dir, label.path)))
            warnings.push(`${label.repo} ${label.path}:${label.line}: no such file in ${dir}`);
        }
      }
    }
  }
  for (const warning of [...new Set(warnings)]) console.error(`warning: ${warning}`);

  const result = score(reports, labels);
  const skipped = run.apps.filter((entry) => entry.status === 'missing').map((entry) => entry.app);
  const notRun = run.apps
    .filter((entry) => entry.status === 'not run')
    .map((entry) => ({ app: entry.app, message: entry.message }));
  if (options.json) {
    const { unlabelled, ...figures } = result;
    const output = { run: run.apps, skipped, notRun, ...figures };
    if (options.unlabelled) output.unlabelled = unlabelled;
    console.log(JSON.stringify(output, null, 2));
    return 0;
  }
  console.log(formatText(result, run, options));
  console.log('');
  console.log(`Skipped, no folder under ${appsDir}: ${skipped.length === 0 ? 'none' : skipped.join(', ')}`);
  console.log(`Not run (checker exit 2 or crash): ${notRun.length === 0 ? 'none' : notRun.length}`);
  for (const entry of notRun) console.log(`  ${entry.app}: ${entry.message}`);
  return 0;
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) process.exitCode = main();
