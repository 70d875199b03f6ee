#!/usr/bin/env node
// Scores require-request-timeout findings against file-role labels (one line a file: repo, commit,
// path, role: server | delivery | mixed | browser | script | test | unreached, by_imports,
// unbounded_server_request, reason), read by following each file's importers in the code. A finding
// in a file labelled browser, script, test or unreached is in the wrong role; a file labelled with an
// unbounded server request counts as found when the rule reports anywhere in it. Reports are
// idempotency-check JSON reports named `<owner>__<name>.json` in --reports-dir. Only Node built-ins.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { readJsonl } from './jsonl.mjs';

const USAGE = 'Usage: node scripts/role-labels.mjs --labels <dir of *.jsonl> --reports-dir <dir> [--details]';
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

const RULE = 'idempotency/require-request-timeout';
const SERVER = new Set(['server', 'delivery', 'mixed']);
const total = { rightRole: 0, wrongRole: 0, wrongByImports: 0, unlabelled: 0, positives: 0, found: 0 };
const rows = [];
for (const name of readdirSync(values.labels)
  .filter((file) => file.endsWith('.jsonl'))
  .sort()) {
  const labels = readJsonl(join(values.labels, name));
  if (labels.length === 0) continue;
  const repo = labels[0].repo;
  const report = join(values['reports-dir'], `${repo.replace('/', '__')}.json`);
  if (!existsSync(report)) {
    console.log(`${repo}: no report in ${values['reports-dir']}`);
    continue;
  }
  const byPath = new Map(labels.map((label) => [label.path, label]));
  const reported = new Map();
  for (const finding of JSON.parse(readFileSync(report, 'utf8')).findings)
    if (finding.ruleId === RULE) reported.set(finding.file, [...(reported.get(finding.file) ?? []), finding.line]);
  const app = { rightRole: 0, wrongRole: 0, wrongByImports: 0, unlabelled: 0, positives: 0, found: 0 };
  for (const [path, lines] of reported) {
    const label = byPath.get(path);
    if (!label) app.unlabelled += lines.length;
    else if (SERVER.has(label.role)) app.rightRole += lines.length;
    else {
      app.wrongRole += lines.length;
      if (label.by_imports) app.wrongByImports += lines.length;
      if (values.details)
        console.log(`  wrong role  ${repo} ${path}:${lines.join(',')} (${label.role}: ${label.reason})`);
    }
  }
  for (const label of labels) {
    if (label.unbounded_server_request !== true) continue;
    app.positives++;
    if (reported.has(label.path)) app.found++;
    else if (values.details) console.log(`  missed      ${repo} ${label.path} (${label.role}: ${label.reason})`);
  }
  for (const key of Object.keys(total)) total[key] += app[key];
  rows.push([repo, app]);
}
const percent = (part, whole) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`);
console.log(
  'app                          in a server role  in a wrong role (by imports)  unlabelled  server files found',
);
for (const [repo, app] of [...rows, ['total', total]])
  console.log(
    `${repo.padEnd(28)} ${String(app.rightRole).padStart(16)}  ${`${app.wrongRole} (${app.wrongByImports})`.padStart(28)}  ${String(app.unlabelled).padStart(10)}  ${`${app.found} / ${app.positives}`.padStart(18)}`,
  );
console.log(
  `findings in a server role: ${percent(total.rightRole, total.rightRole + total.wrongRole)}; server files with an unbounded request found: ${percent(total.found, total.positives)}`,
);
