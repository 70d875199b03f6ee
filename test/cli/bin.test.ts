import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { beforeAll, expect, it } from 'vitest';

import { isStale } from '../../scripts/build-freshness.mjs';
import { repo, writeRepo } from './helpers.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));

beforeAll(() => {
  // `npm test` builds before testing; rebuild only when a source is newer than the binary.
  if (!isStale(packageRoot, bin)) return;
  // Emits dist/ in place (never removes it: other test files may be reading it).
  try {
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json'],
      {
        cwd: packageRoot,
        stdio: 'pipe',
      },
    );
  } catch {
    // Type errors elsewhere still emit; the binary below is what this test checks.
  }
});

it('runs the built binary: report on stdout, exit code 1 for findings, 2 for bad input', () => {
  expect(existsSync(bin)).toBe(true);
  const env = { ...process.env, NO_COLOR: '1', CI: 'true' };
  const run = spawnSync(process.execPath, [bin, repo('config-checks'), '--format', 'json'], { encoding: 'utf8', env });
  expect(run.status).toBe(1);
  const report = JSON.parse(run.stdout) as { findings: { ruleId: string }[] };
  expect(report.findings.map((finding) => finding.ruleId)).toEqual([
    'idempotency/no-short-visibility-timeout',
    'idempotency/no-short-lock-duration',
  ]);
  expect(run.stderr).toBe('');

  const bad = spawnSync(process.execPath, [bin, '--nope'], { encoding: 'utf8', env });
  expect(bad.status).toBe(2);
  expect(bad.stderr).toBe("idempotency-check: Unknown option '--nope'\n");
});

it('--jobs 2 lints over a worker thread and gives the report one thread gives, in the same order', () => {
  // Enough files for a worker to be worth starting: consumers, a shared helper module, and
  // files that only import it (reached through the graph, linted again with its facts).
  const files: Record<string, string> = {
    'src/ids.ts': "import { randomUUID } from 'node:crypto';\nexport const newKey = () => randomUUID();\n",
  };
  for (let index = 0; index < 120; index++) {
    files[`src/workers/job${index}.ts`] = `import { Worker } from 'bullmq';
import { newKey } from '../ids';
new Worker('q${index}', async (job) => {
  await fetch('https://pay.example/charges', {
    method: 'POST',
    headers: { 'Idempotency-Key': ${index % 2 === 0 ? 'newKey()' : '`charge:${job.id}`'} },
    body: JSON.stringify(job.data),
  });
});
`;
  }
  const root = writeRepo(files);
  const env = { ...process.env, NO_COLOR: '1', CI: 'true' };
  const check = (jobs: string) =>
    spawnSync(process.execPath, [bin, root, '--format', 'json', '--timing', '--jobs', jobs], { encoding: 'utf8', env });
  const one = check('1');
  const two = check('2');
  expect(one.status, one.stderr).toBe(1);
  expect(two.status, two.stderr).toBe(1);
  expect(two.stderr).toMatch(
    /^idempotency-check: rules ran over 121 files \(\d+ again with other modules' facts\) on 2 threads in /,
  );
  expect(one.stderr).not.toContain('threads');
  const report = JSON.parse(one.stdout) as { findings: { ruleId: string }[]; handlers: unknown[] };
  // Every file is found: a timeout and a per-attempt key in half of them, a timeout in the others.
  expect(report.findings.filter((finding) => finding.ruleId === 'idempotency/no-per-attempt-key')).toHaveLength(60);
  expect(report.handlers).toHaveLength(120);
  expect(two.stdout).toBe(one.stdout);
});

it('--jobs takes a number of threads, 1 or more', () => {
  const env = { ...process.env, NO_COLOR: '1', CI: 'true' };
  const run = spawnSync(process.execPath, [bin, repo('config-checks'), '--jobs', '0'], { encoding: 'utf8', env });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("--jobs expects a number of threads, 1 or more, got '0'");
});
