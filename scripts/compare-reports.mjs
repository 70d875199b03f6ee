#!/usr/bin/env node
// Compares two folders of `idempotency-check --format json` reports, file by file (as
// `scripts/realworld.mjs --reports-dir` writes them): the findings, the handler inventory and
// the not-analysed list must be equal. Prints each difference and exits 1 when there is one;
// a speed change that must not change results runs it against the reports of the commit before.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node scripts/compare-reports.mjs <reports-before> <reports-after>');
  process.exit(2);
}

const KEYS = ['findings', 'handlers', 'notAnalysed'];
const names = readdirSync(before).filter((name) => name.endsWith('.json') && !name.endsWith('.meta.json'));
let differences = 0;
for (const name of names.sort()) {
  const other = join(after, name);
  if (!existsSync(other)) {
    console.log(`${name}: missing in ${after}`);
    differences++;
    continue;
  }
  const a = JSON.parse(readFileSync(join(before, name), 'utf8'));
  const b = JSON.parse(readFileSync(other, 'utf8'));
  const changed = KEYS.filter((key) => !isDeepStrictEqual(a[key], b[key]));
  if (changed.length === 0) {
    console.log(
      `${name}: identical (${a.findings.length} findings, ${a.handlers.length} handlers, ${a.notAnalysed.length} not analysed)`,
    );
    continue;
  }
  differences++;
  for (const key of changed) {
    const left = new Set((a[key] ?? []).map((entry) => JSON.stringify(entry)));
    const right = new Set((b[key] ?? []).map((entry) => JSON.stringify(entry)));
    const gone = [...left].filter((entry) => !right.has(entry));
    const added = [...right].filter((entry) => !left.has(entry));
    console.log(
      `${name}: ${key} differ (${gone.length} only before, ${added.length} only after${gone.length + added.length === 0 ? ', order' : ''})`,
    );
    for (const entry of gone.slice(0, 5)) console.log(`  - ${entry}`);
    for (const entry of added.slice(0, 5)) console.log(`  + ${entry}`);
  }
}
console.log(
  differences === 0 ? `all ${names.length} reports identical` : `${differences} of ${names.length} reports differ`,
);
process.exit(differences === 0 ? 0 : 1);
