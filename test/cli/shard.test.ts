import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { shardOf } from '../../src/analysis/shard.js';
import { main } from '../../src/cli/main.js';
import { FORMAT_NAMES } from '../../src/report/index.js';
import { copyRepo, repo, runCli, writeRepo } from './helpers.js';

// `--shard i/n` and `merge`: every shard's report combined is byte for byte the report of one
// run over every file, in every format, because each shard's cross-file facts are complete.
// Each repository is analysed once unsharded and once per shard; the formats come from merge.

const out = mkdtempSync(join(tmpdir(), 'idempotency-shards-'));
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

/** A Temporal worker whose activities are reached through a barrel: the activity's file is told it is one by the workflow. */
const TEMPORAL = {
  'package.json': '{ "name": "temporal-shards", "type": "module" }',
  'src/workflows.ts': [
    "import { proxyActivities } from '@temporalio/workflow';",
    "import type * as activities from './activities/index.js';",
    '',
    "const { charge } = proxyActivities<typeof activities>({ startToCloseTimeout: '1 minute' });",
    '',
    'export async function order(id: string): Promise<void> {',
    '  await charge(id);',
    '}',
    '',
  ].join('\n'),
  'src/activities/index.ts': "export * from './charges.js';\n",
  'src/activities/charges.ts': [
    'export async function charge(id: string): Promise<void> {',
    "  await fetch('https://payments.example.test/charges', {",
    "    method: 'POST',",
    '    body: JSON.stringify({ id }),',
    '    signal: AbortSignal.timeout(5_000),',
    '  });',
    '}',
    '',
  ].join('\n'),
};

/** Every format into one folder, under the same names for every run (the Markdown names the HTML file). */
const formatArgs = (folder: string): string[] =>
  FORMAT_NAMES.flatMap((format) => ['--format', format, '--output', join(folder, `report.${format}`)]);

/** Every format's text, from one run (or one merge) that writes them all. */
function outputs(folder: string): Record<string, string> {
  return Object.fromEntries(
    FORMAT_NAMES.map((format) => [format, readFileSync(join(folder, `report.${format}`), 'utf8')]),
  );
}

function shardRuns(name: string, root: string, count: number, extra: readonly string[] = []): string[] {
  return Array.from({ length: count }, (_, index) => {
    const file = join(out, `${name}-${index + 1}of${count}.json`);
    const run = runCli([root, '--shard', `${index + 1}/${count}`, '--format', 'json', '--output', file, ...extra]);
    expect(run.code, run.stderr).toBeLessThan(2);
    return file;
  });
}

function merged(name: string, reports: readonly string[]): { code: number; outputs: Record<string, string> } {
  const prefix = join(out, `${name}-merged`);
  const run = runCli(['merge', ...reports, ...formatArgs(prefix)]);
  expect(run.stderr).toBe('');
  return { code: run.code, outputs: outputs(prefix) };
}

describe('--shard and merge', () => {
  const temporal = writeRepo(TEMPORAL);
  const cases: [string, string][] = [
    ['demo-shop', repo('demo-shop')],
    // A processor registered in worker.ts and defined in billing.ts, in different shards, on a pool from db.ts.
    ['cross-file-pool', repo('cross-file-pool')],
    ['monorepo-references', repo('monorepo-references')],
    ['temporal', temporal],
  ];

  it('splits the files deterministically, every file in exactly one shard', () => {
    expect(shardOf('src/billing.ts', 3)).toBe(shardOf('src/billing.ts', 3));
    // The cases below put the files that inform each other into different shards.
    expect(shardOf('src/billing.ts', 2)).not.toBe(shardOf('src/worker.ts', 2));
    expect(shardOf('src/workflows.ts', 2)).not.toBe(shardOf('src/activities/charges.ts', 2));
  });

  it.each(cases)('%s: 1/2+2/2 and 1/3..3/3 merge into the unsharded report, in every format', (name, root) => {
    const whole = runCli([root, ...formatArgs(join(out, `${name}-whole`))]);
    expect(whole.code, whole.stderr).toBeLessThan(2);
    const expected = outputs(join(out, `${name}-whole`));
    expect((JSON.parse(expected.json ?? '') as { summary: { files: number } }).summary.files).toBeGreaterThan(1);
    for (const count of [2, 3]) {
      const result = merged(`${name}-${count}`, shardRuns(name, root, count));
      expect(result.outputs).toEqual(expected);
      expect(result.code).toBe(whole.code);
    }
  });

  it('with --types, the shards see the types of the whole run', () => {
    const root = repo('key-helper-module');
    const whole = runCli([root, '--types', '--format', 'json']);
    expect(whole.code, whole.stderr).toBe(1);
    const result = merged('typed', shardRuns('typed', root, 2, ['--types']));
    expect(result.outputs.json).toBe(whole.stdout);
  });

  it('knows the Temporal activity behind a barrel in the shard without the workflow', () => {
    const report = JSON.parse(readFileSync(join(out, 'temporal-2of2.json'), 'utf8')) as {
      shard: unknown;
      handlers: { file: string; broker: string }[];
    };
    expect(report.shard).toEqual({ index: 2, count: 2 });
    expect(report.handlers).toEqual([
      expect.objectContaining({ file: 'src/activities/charges.ts', broker: 'temporal' }),
    ]);
  });

  it('with a cache shared by the shards and an unsharded run, every report stays the same', () => {
    const root = copyRepo('demo-shop');
    const cache = join(out, 'shared.cache');
    const cached = ['--cache', '--cache-location', cache];
    const whole = runCli([root, '--format', 'json']);
    const cold = merged('cache-cold', shardRuns('cache-cold', root, 2, cached));
    expect(cold.outputs.json).toBe(whole.stdout);
    // The unsharded run reads what the shards wrote, and the shards what it wrote.
    const warmWhole = runCli([root, '--format', 'json', ...cached]);
    expect(warmWhole.stdout).toBe(whole.stdout);
    const warm = merged('cache-warm', shardRuns('cache-warm', root, 3, cached));
    expect(warm.outputs.json).toBe(whole.stdout);
  });

  it('rejects an incomplete, repeated or mixed set of shard reports and analysis options, one line each', () => {
    const [first, second] = [join(out, 'cross-file-pool-1of2.json'), join(out, 'cross-file-pool-2of2.json')];
    const third = join(out, 'cross-file-pool-1of3.json');
    for (const [args, message] of [
      [['merge', first], /shard 2\/2 missing/],
      [['merge', first, first, second], /shard 1\/2 is given twice/],
      [['merge', first, second, third], /different splits/],
      [['merge', join(out, 'demo-shop-whole', 'report.json')], /not a shard report/],
      [['merge', join(out, 'demo-shop-whole', 'report.text')], /not JSON/],
      [['merge', first, second, '--types'], /--types is for the shard runs/],
      [['merge'], /needs the JSON reports/],
      [[repo('demo-shop'), '--shard', '3/2'], /--shard expects/],
      [[repo('demo-shop'), '--shard', '1/2', '--fix'], /--fix cannot be combined with --shard/],
    ] as const) {
      const run = runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('--files-from', () => {
  it('reports only the listed files, with what a run over every file reports for them', () => {
    const root = repo('cross-file-pool');
    const whole = JSON.parse(runCli([root, '--format', 'json']).stdout) as { findings: { file: string }[] };
    const list = join(out, 'changed.txt');
    // As `git diff --name-only` lists them, with a deleted file and a file that is not a source.
    const listed = 'src/billing.ts\nsrc/removed.ts\nREADME.md\n';
    let stdout = '';
    const code = main(['.', '--format', 'json', '--files-from', '-'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => true },
      cwd: root,
      env: {},
      isTTY: false,
      readStdin: () => listed,
    });
    const report = JSON.parse(stdout) as { findings: { file: string }[]; summary: { files: number } };
    expect(code).toBe(1);
    expect(report.summary.files).toBe(1);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings).toEqual(whole.findings.filter((finding) => finding.file === 'src/billing.ts'));
    // From a file, nothing listed that the project analyses: a clean run, said on stderr.
    writeFileSync(list, 'README.md\n');
    const none = runCli([root, '--files-from', list]);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('--files-from lists no file the project analyses');
  });
});
