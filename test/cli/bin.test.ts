import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { beforeAll, expect, it } from 'vitest';

import { isStale } from '../../scripts/build-freshness.mjs';
import { repo } from './helpers.js';

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
