import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { runCli, writeRepo } from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const CONSUMER = `import { Pool } from 'pg';

const pool = new Pool();

export async function handle(job: { id: string; data: { amount: number } }): Promise<number> {
  const charge = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ amount: job.data.amount }),
  });
  const status = await fetch('https://api.example-payments.test/v1/status', {
    headers: { 'Idempotency-Key': \`status:\${job.id}\` },
    signal: AbortSignal.timeout(5_000),
  });
  await pool.query('BEGIN');
  await pool.query('UPDATE accounts SET charged = charged + $1', [job.data.amount]);
  await pool.query('COMMIT');
  return charge.status + status.status;
}
`;

/** `ruleId severity` of every finding of a JSON run. */
function found(dir: string, args: readonly string[] = []): string[] {
  const run = runCli(['--format', 'json', ...args, dir]);
  expect(run.code, run.stderr).toBeLessThan(2);
  const report = JSON.parse(run.stdout) as { findings: { ruleId: string; severity: string }[] };
  return report.findings.map((finding) => `${finding.ruleId} ${finding.severity}`);
}

const DEFAULTS = [
  'idempotency/require-request-timeout error',
  'idempotency/no-per-attempt-key error',
  'idempotency/no-key-on-read error',
  'idempotency/no-pool-transaction error',
];

describe('the project’s rule config (idempotency.config.json, package.json "idempotency")', () => {
  it('runs every rule at the plugin’s levels without one', () => {
    expect(found(writeRepo({ 'src/consumer.ts': CONSUMER }))).toEqual(DEFAULTS);
  });

  it('turns rules off, changes severities and passes options, over a base config', () => {
    const config = {
      extends: 'strict',
      rules: {
        'idempotency/no-key-on-read': 'off',
        'idempotency/no-per-attempt-key': 'warn',
        // A client the project knows to be bounded: the charge request is no longer reported.
        'idempotency/require-request-timeout': ['error', { timeoutMs: 1000 }],
      },
    };
    const dir = writeRepo({ 'src/consumer.ts': CONSUMER, 'idempotency.config.json': JSON.stringify(config) });
    expect(found(dir)).toEqual([
      'idempotency/require-request-timeout error',
      'idempotency/no-per-attempt-key warning',
      'idempotency/no-pool-transaction error',
    ]);
  });

  it('reads the package.json key, and a rule off there is off', () => {
    const dir = writeRepo({
      'src/consumer.ts': CONSUMER,
      'package.json': JSON.stringify({
        name: 'app',
        idempotency: { rules: { 'idempotency/no-pool-transaction': 'off' } },
      }),
    });
    expect(found(dir)).toEqual(DEFAULTS.filter((line) => !line.includes('no-pool-transaction')));
  });

  it('passes settings.idempotency to the rules, beside the computed ones', () => {
    const files = {
      'src/db.ts': 'export const db = makeDatabase();\n',
      'src/job.ts': `import { db } from './db';
export async function handle() {
  try {
    await db.query('BEGIN');
    await db.query('UPDATE t SET n = n + 1');
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}
`,
    };
    expect(found(writeRepo(files))).toEqual([]);
    const settings = { idempotency: { pools: [{ from: './db', name: 'db' }] } };
    const dir = writeRepo({ ...files, 'idempotency.config.json': JSON.stringify({ settings }) });
    expect(found(dir)).toEqual(['idempotency/no-pool-transaction error']);
  });

  it.each([
    [{ rule: {} }, 'idempotency.config.json: unknown key "rule"; expected one of extends, rules, settings'],
    [{ extends: 'recomended' }, '"extends" must be one of recommended, strict, all, got "recomended"'],
    [{ rules: { 'idempotency/no-key-on-red': 'off' } }, 'unknown rule "idempotency/no-key-on-red"'],
    [
      { rules: { 'idempotency/no-key-on-read': 'of' } },
      '"idempotency/no-key-on-read" must be "off", "warn" or "error"',
    ],
    [{ rules: { 'idempotency/require-request-timeout': ['error', { timeout: 5 }] } }, 'Unexpected property "timeout"'],
    [{ settings: { idempotency: { pools: 'pool' } } }, '"pools" must be a list of { "from": module, "name": export }'],
    [{ settings: { idempotency: { boundedClient: [] } } }, 'unknown key "boundedClient"'],
    [{ settings: { idempotency: { roles: { tests: ['qa/**'] } } } }, '"roles": unknown role "tests"'],
  ])('rejects %j in one line naming the bad key, exit 2', (config, message) => {
    const dir = writeRepo({ 'src/consumer.ts': CONSUMER, 'idempotency.config.json': JSON.stringify(config) });
    const run = runCli([dir]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('--eslint-config: the project’s eslint.config.* through its own ESLint', () => {
  /** A project whose node_modules holds this repository's ESLint and this package (built). */
  function eslintProject(config: string): string {
    const dir = writeRepo({
      'src/consumer.ts': CONSUMER,
      'eslint.config.js': config,
      'package.json': '{"type":"module"}',
    });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(root, 'node_modules/eslint'), join(dir, 'node_modules/eslint'));
    symlinkSync(root, join(dir, 'node_modules/eslint-plugin-idempotency'));
    return dir;
  }

  it('agrees with the config: a rule off there is off, severities and options as ESLint computes them', () => {
    const dir = eslintProject(`import idempotency from 'eslint-plugin-idempotency';
export default [
  idempotency.configs.recommended,
  { files: ['**/*.ts'], rules: { 'idempotency/no-key-on-read': 'off', 'idempotency/no-per-attempt-key': 'warn' } },
];
`);
    // Without the flag, the config is not run: every rule reports.
    expect(found(dir)).toEqual(DEFAULTS);
    expect(found(dir, ['--eslint-config'])).toEqual([
      'idempotency/require-request-timeout error',
      'idempotency/no-per-attempt-key warning',
      'idempotency/no-pool-transaction error',
    ]);
  });

  it('follows the plugin under another namespace, and reads its settings', () => {
    const dir = eslintProject(`import idempotency from 'eslint-plugin-idempotency';
export default [
  { plugins: { idem: idempotency }, rules: { 'idem/no-pool-transaction': 'warn' } },
  { settings: { idempotency: { roles: { test: ['src/**'] } } } },
];
`);
    // src/ is test code by the settings, so no rule reports there.
    expect(found(dir, ['--eslint-config'])).toEqual([]);
  });

  it('says in one line why a config cannot be loaded, exit 2', () => {
    const dir = eslintProject(`import missing from 'eslint-plugin-missing';\nexport default [missing];\n`);
    const run = runCli(['--eslint-config', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^idempotency-check: --eslint-config: .*eslint-plugin-missing/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);

    const bad = eslintProject(`export default [{ settings: { idempotency: { pools: 'pool' } } }];\n`);
    expect(runCli(['--eslint-config', bad]).stderr).toContain('"pools" must be a list');
  });
});
