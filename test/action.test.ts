import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { copyRepo, writeRepo } from './cli/helpers.js';

/*
 * The GitHub Action (action.yml), run as a runner would run it, locally: each `run` step in
 * bash with its `env` expressions resolved from the inputs, runner.temp and earlier steps'
 * outputs ($GITHUB_OUTPUT), and $GITHUB_STEP_SUMMARY a file. The upload step (`uses:`) cannot run
 * here; its `if` is evaluated and its input file checked.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

interface Step {
  name: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

function runAction(workspace: string, given: Record<string, string> = {}, runner: Record<string, string> = {}) {
  const temp = mkdtempSync(join(tmpdir(), 'action-'));
  const summary = join(temp, 'summary.md');
  writeFileSync(summary, '');
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default]),
  );
  const outputs: Record<string, Record<string, string>> = {};
  const value = (expression: string): string => {
    const [scope, ...path] = expression.split('.');
    if (scope === 'inputs') return inputs[path[0]!] ?? '';
    if (scope === 'runner' && path[0] === 'temp') return temp;
    if (scope === 'steps') return outputs[path[0]!]?.[path[2]!] ?? '';
    throw new Error(`unsupported expression ${expression}`);
  };
  const resolve = (text: string): string => text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, e: string) => value(e));
  const condition = (text: string): boolean => {
    // The action's conditions: `a == 'x' && b != 'y'`.
    const expression = text.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
    return expression.split('&&').every((part) => {
      const [, left = '', op, right = ''] = /^\s*([\w.-]+)\s*(==|!=)\s*'([^']*)'\s*$/.exec(part) ?? [];
      return op === '==' ? value(left) === right : value(left) !== right;
    });
  };
  const uploads: string[] = [];
  let code = 0;
  for (const step of action.runs.steps) {
    if (step.if !== undefined && !condition(step.if)) continue;
    if (step.uses !== undefined) {
      uploads.push(resolve(step.with?.sarif_file ?? step.with?.path ?? ''));
      continue;
    }
    const outputFile = join(temp, `output-${step.id ?? 'step'}`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, text]) => [key, resolve(text)]));
    const result = spawnSync('bash', ['-e', '-c', step.run ?? ''], {
      cwd: workspace,
      encoding: 'utf8',
      env: {
        ...process.env,
        ...env,
        ...runner,
        CI: 'true',
        GITHUB_ACTION_PATH: root,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summary,
      },
    });
    if (step.id !== undefined)
      outputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
    code = result.status ?? 1;
    if (code !== 0) break;
  }
  return { code, outputs, uploads, summary: readFileSync(summary, 'utf8') };
}

describe('action.yml', () => {
  it('is a composite action whose inputs all have defaults', () => {
    expect(action.runs.using).toBe('composite');
    for (const input of Object.values(action.inputs)) expect(typeof input.default).toBe('string');
  });

  it('checks a repository: SARIF for code scanning, a Markdown job summary, and fails on findings', () => {
    const run = runAction(copyRepo('demo-shop'));
    expect(run.outputs.check?.['exit-code']).toBe('1');
    expect(run.code).toBe(1);
    expect(run.summary).toContain('idempotency/');
    // SARIF to code scanning, the HTML report as an artifact, which the summary names.
    expect(run.uploads).toHaveLength(2);
    expect(readFileSync(run.uploads[1]!, 'utf8')).toMatch(/^<!doctype html>/);
    expect(run.outputs.check?.html).toBe(run.uploads[1]);
    expect(run.summary).toContain('`idempotency.html`, the HTML report of this run.');
    const sarif = JSON.parse(readFileSync(run.uploads[0]!, 'utf8')) as {
      version: string;
      runs: { results: unknown[] }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]!.results.length).toBeGreaterThan(0);
  }, 120_000);

  it("links the job summary's files to the checked commit when the runner names it", () => {
    const run = runAction(
      copyRepo('demo-shop'),
      { 'upload-sarif': 'false' },
      { GITHUB_REPOSITORY: 'acme/shop', GITHUB_SHA: '0123abc', GITHUB_SERVER_URL: 'https://github.com' },
    );
    expect(run.summary).toContain('](https://github.com/acme/shop/blob/0123abc/src/');
  }, 120_000);

  it('passes with fail: false, and on a clean repository', () => {
    expect(
      runAction(copyRepo('demo-shop'), { fail: 'false', 'upload-sarif': 'false', 'upload-html': 'false' }),
    ).toMatchObject({
      code: 0,
      uploads: [],
    });
    const clean = runAction(writeRepo({ 'src/ok.ts': 'export const answer = 42;\n' }));
    expect(clean.code).toBe(0);
    expect(clean.outputs.check?.['exit-code']).toBe('0');
  }, 120_000);

  it('fails with 2 and uploads nothing when idempotency-check cannot run', () => {
    const run = runAction(writeRepo({ 'src/ok.ts': 'export const answer = 42;\n' }), { args: '--no-such-flag' });
    expect(run.code).toBe(2);
    expect(run.uploads).toEqual([]);
    expect(existsSync(join(root, 'dist/src/cli/bin.js'))).toBe(true);
  }, 120_000);
});
