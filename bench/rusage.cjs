// Preloaded into each measured process (`node --require bench/rusage.cjs ...`): at exit it
// appends the process's wall time, CPU time (user + system, all threads) and peak resident
// memory to $BENCH_RUSAGE_FILE, so real binaries (eslint, tsc, idempotency-check) are measured
// whole, as a user runs them. CPU time moves less than wall time on a shared machine.
'use strict';
const { appendFileSync } = require('node:fs');
const start = process.hrtime.bigint();
process.on('exit', () => {
  const file = process.env.BENCH_RUSAGE_FILE;
  if (!file) return;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const usage = process.resourceUsage();
  appendFileSync(
    file,
    JSON.stringify({ ms, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssKb: usage.maxRSS }) + '\n',
  );
});
