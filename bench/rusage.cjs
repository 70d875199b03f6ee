// Preloaded into each measured process (`node --require bench/rusage.cjs ...`): at exit it
// appends the process's wall time and peak resident memory to $BENCH_RUSAGE_FILE, so real
// binaries (eslint, tsc, idempotency-check) are measured whole, as a user runs them.
'use strict';
const { appendFileSync } = require('node:fs');
const start = process.hrtime.bigint();
process.on('exit', () => {
  const file = process.env.BENCH_RUSAGE_FILE;
  if (!file) return;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  appendFileSync(file, JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS }) + '\n');
});
