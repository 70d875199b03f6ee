#!/usr/bin/env node
// Scores the inventory's verdicts against verdict labels (`type: verdict` lines: repo, path, line,
// expected, reason), read by following each handler's calls in the code: how many rows say what
// the code deserves, and what the wrong ones say instead. Reports are idempotency-check JSON
// reports named `<owner>__<name>.json` in --reports-dir (as scripts/realworld.mjs writes them).
// Only Node built-ins.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { readJsonl } from './jsonl.mjs';

const USAGE = 'Usage: node scripts/verdicts.mjs --labels <verdicts.jsonl> --reports-dir <dir> [--details]';
const { values } = parseArgs({
  options: {
    labels: { type: 'string' },
    'reports-dir': { type: 'string' },
    details: { type: 'boolean', default: false },
  },
});
if (!values.labels || !values['reports-dir']) {
  console.error(USAGE);
  process.exit(2);
}

const labels = readJsonl(values.labels).filter((label) => label.type === 'verdict');
const reports = new Map();
let right = 0;
let missing = 0;
const wrong = new Map();
const details = [];
for (const label of labels) {
  const file = join(values['reports-dir'], `${label.repo.replace('/', '__')}.json`);
  if (!reports.has(file)) reports.set(file, existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  const row = reports.get(file)?.handlers.find((handler) => handler.file === label.path && handler.line === label.line);
  if (!row) {
    missing++;
    details.push(`no row    ${label.repo} ${label.path}:${label.line}`);
    continue;
  }
  if (row.verdict === label.expected) {
    right++;
    continue;
  }
  const key = `says ${row.verdict}, should be ${label.expected}`;
  wrong.set(key, (wrong.get(key) ?? 0) + 1);
  details.push(`${key}  ${label.repo} ${label.path}:${label.line}  ${label.reason}`);
}
const scored = labels.length - missing;
console.log(
  `verdicts right: ${right} / ${scored}${missing > 0 ? ` (${missing} labelled rows not in the reports)` : ''}`,
);
for (const [key, count] of [...wrong].sort()) console.log(`  ${key}: ${count}`);
if (values.details) for (const line of details) console.log(line);
