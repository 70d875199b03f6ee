import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { main } from '../src/cli/main.js';
import type { Report } from '../src/report/model.js';

// Bad input, built at test time (a 5 MB file, binary bytes and symlink loops do not belong in
// git): each case gets a clear message, the scan goes on where it can, and exit code 2 is
// kept for usage and internal errors. A stack trace never reaches the user.

const root = mkdtempSync(join(tmpdir(), 'idempotency-bad-input-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

// One known finding to prove the rest of the scan still ran.
const UNBOUNDED_FETCH =
  "export async function ping(): Promise<void> {\n  await fetch('https://example.test/ping');\n}\n";

function repo(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(root, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function check(dir: string, ...args: string[]): { code: number; stdout: string; stderr: string; report?: Report } {
  let stdout = '';
  let stderr = '';
  const code = main([dir, '--format', 'json', ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: root,
    env: {},
    isTTY: false,
  });
  expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  return { code, stdout, stderr, report: code === 2 ? undefined : (JSON.parse(stdout) as Report) };
}

const rulesAt = (report: Report | undefined) =>
  report?.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}`) ?? [];

describe('bad input', () => {
  it('lists a file that does not parse as not analysed and goes on with the rest', () => {
    const { code, report } = check(
      repo('syntax-error', { 'src/broken.ts': 'export const = ;\nfunction (', 'src/ok.ts': UNBOUNDED_FETCH }),
    );
    expect(code).toBe(1);
    expect(report?.notAnalysed.map((entry) => entry.file)).toEqual(['src/broken.ts']);
    expect(report?.notAnalysed[0]?.reason).toMatch(/\S/);
    expect(rulesAt(report)).toEqual(['src/ok.ts:2:9 idempotency/require-request-timeout']);
  });

  it('skips a 5 MB generated file with a clear reason and goes on', () => {
    // ESLint's own parse of a file this size takes minutes; such files are generated, so
    // they are listed as not analysed unless --max-file-size lets them in.
    const big = Array.from({ length: 100_000 }, (_, i) => `export const value${i} = ${i} * 2; // padding padding`).join(
      '\n',
    );
    expect(big.length).toBeGreaterThan(5_000_000);
    const { code, report } = check(repo('huge', { 'src/generated.ts': big, 'src/ok.ts': UNBOUNDED_FETCH }));
    expect(code).toBe(1);
    expect(report?.notAnalysed).toEqual([
      { file: 'src/generated.ts', reason: expect.stringMatching(/5\.\d MB.*--max-file-size/) as string },
    ]);
    expect(rulesAt(report)).toEqual(['src/ok.ts:2:9 idempotency/require-request-timeout']);
  });

  it('takes the size limit from --max-file-size', () => {
    const dir = repo('size-limit', {
      'src/padded.ts': `${UNBOUNDED_FETCH}${'// padding\n'.repeat(2_000)}`,
      'src/ok.ts': UNBOUNDED_FETCH,
    });
    const limited = check(dir, '--max-file-size', '10kb');
    expect(limited.report?.notAnalysed.map((entry) => entry.file)).toEqual(['src/padded.ts']);
    expect(rulesAt(limited.report)).toEqual(['src/ok.ts:2:9 idempotency/require-request-timeout']);
    const unlimited = check(dir);
    expect(unlimited.report?.notAnalysed).toEqual([]);
    expect(rulesAt(unlimited.report)).toEqual([
      'src/ok.ts:2:9 idempotency/require-request-timeout',
      'src/padded.ts:2:9 idempotency/require-request-timeout',
    ]);
    const bad = check(dir, '--max-file-size', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-file-size/);
  });

  it('reports a binary file named .ts as not analysed', () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    const { code, report } = check(repo('binary', { 'src/blob.ts': binary, 'src/ok.ts': UNBOUNDED_FETCH }));
    expect(code).toBe(1);
    expect(report?.notAnalysed.map((entry) => entry.file)).toEqual(['src/blob.ts']);
    expect(rulesAt(report)).toEqual(['src/ok.ts:2:9 idempotency/require-request-timeout']);
  });

  it('lists minified JavaScript as not analysed, by its name or its lines, and checks a TypeScript source of long lines', () => {
    // A bundle on one line (the average line is over 200 characters), as a minifier writes it.
    const bundle = `${'var a=1;'.repeat(60)}async function p(){await fetch('https://example.test/ping')}`;
    const longLines = `export const words = '${'x'.repeat(300)}';\n${UNBOUNDED_FETCH}`;
    const { code, report } = check(
      repo('minified', {
        'src/vendor.js': bundle,
        'src/app.min.js': UNBOUNDED_FETCH,
        'src/long.ts': longLines,
        'src/ok.js': UNBOUNDED_FETCH.replace('(): Promise<void>', '()'),
      }),
    );
    expect(code).toBe(1);
    expect(report?.notAnalysed).toEqual([
      { file: 'src/app.min.js', reason: 'minified (lines over 200 characters on average): check its source' },
      { file: 'src/vendor.js', reason: 'minified (lines over 200 characters on average): check its source' },
    ]);
    expect(rulesAt(report)).toEqual([
      'src/long.ts:3:9 idempotency/require-request-timeout',
      'src/ok.js:2:9 idempotency/require-request-timeout',
    ]);
  });

  it('accepts empty files', () => {
    const { code, report } = check(repo('empty', { 'src/empty.ts': '', 'src/blank.js': '\n\n' }));
    expect(code).toBe(0);
    expect(report?.notAnalysed).toEqual([]);
    expect(report?.findings).toEqual([]);
  });

  it('keeps positions right in files with a BOM and CRLF line ends', () => {
    const crlf = `\uFEFF// header\r\n${UNBOUNDED_FETCH.replaceAll('\n', '\r\n')}`;
    const { report } = check(repo('bom-crlf', { 'src/crlf.ts': crlf }));
    expect(rulesAt(report)).toEqual(['src/crlf.ts:3:9 idempotency/require-request-timeout']);
  });

  it('reads JSX, TSX, .mts, .cts and decorators', () => {
    const { code, report } = check(
      repo('dialects', {
        'src/button.jsx':
          "export function Pay() {\n  return <button onClick={() => fetch('https://shop.example.test/pay', { method: 'POST' })}>Pay</button>;\n}\n",
        'src/card.tsx':
          "export const Card = (props: { id: string }) => <div>{props.id}</div>;\nexport const load = () => fetch('https://shop.example.test/cards');\n",
        'src/esm.mts': UNBOUNDED_FETCH,
        'src/cjs.cts': UNBOUNDED_FETCH,
        'src/decorated.ts':
          'function logged(target: unknown, key: string) { void target; void key; }\nexport class Service {\n  @logged\n  run(): Promise<Response> {\n    return fetch("https://example.test");\n  }\n}\n',
      }),
    );
    expect(code).toBe(1);
    expect(report?.notAnalysed).toEqual([]);
    expect(report?.summary.files).toBe(5);
    // The components are browser code, where a missing timeout is not this tool's to report.
    expect(new Set(report?.findings.map((finding) => finding.file))).toEqual(
      new Set(['src/esm.mts', 'src/cjs.cts', 'src/decorated.ts']),
    );
  });

  it('stops with one clear line on a tsconfig with a syntax error', () => {
    const { code, stderr } = check(
      repo('bad-tsconfig', {
        'tsconfig.json': '{ "compilerOptions": { "strict": true,, } ',
        'src/a.ts': UNBOUNDED_FETCH,
      }),
    );
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/tsconfig\.json/);
  });

  it('reads a tsconfig whose extends is missing without it, and says so in one line', () => {
    const { code, stderr, report } = check(
      repo('missing-extends', {
        'tsconfig.json': '{ "extends": "./base.json", "include": ["src"] }',
        'src/a.ts': UNBOUNDED_FETCH,
      }),
    );
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^idempotency-check: tsconfig\.json: .*base\.json.*; read without its extends\n$/);
    expect(rulesAt(report)).toEqual(['src/a.ts:2:9 idempotency/require-request-timeout']);
    expect(report?.notAnalysed).toEqual([
      { file: 'tsconfig.json', reason: expect.stringMatching(/base\.json.*read without its extends$/) as string },
    ]);
  });

  it('goes on with the other packages of a monorepo when one tsconfig cannot be read at all', () => {
    const { code, stderr, report } = check(
      repo('monorepo-one-broken', {
        'package.json': '{ "private": true, "workspaces": ["packages/*"] }',
        'packages/good/package.json': '{ "name": "good" }',
        'packages/good/tsconfig.json': '{ "extends": "@tsconfig/node20/tsconfig.json", "include": ["src"] }',
        'packages/good/src/a.ts': UNBOUNDED_FETCH,
        'packages/broken/package.json': '{ "name": "broken" }',
        'packages/broken/tsconfig.json': '{ "include": ["src"],, ',
        'packages/broken/src/b.ts': UNBOUNDED_FETCH,
      }),
    );
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(2);
    expect(rulesAt(report)).toEqual([
      'packages/broken/src/b.ts:2:9 idempotency/require-request-timeout',
      'packages/good/src/a.ts:2:9 idempotency/require-request-timeout',
    ]);
    expect(report?.notAnalysed.map((entry) => entry.file)).toEqual([
      'packages/broken/tsconfig.json',
      'packages/good/tsconfig.json',
    ]);
  });

  it('does not loop on circular project references', () => {
    const dir = repo('circular-references', {
      'tsconfig.json': '{ "files": [], "references": [{ "path": "./a" }] }',
      'a/tsconfig.json':
        '{ "compilerOptions": { "composite": true }, "include": ["*.ts"], "references": [{ "path": "../b" }] }',
      'b/tsconfig.json':
        '{ "compilerOptions": { "composite": true }, "include": ["*.ts"], "references": [{ "path": "../a" }] }',
      'a/a.ts': UNBOUNDED_FETCH,
      'b/b.ts': UNBOUNDED_FETCH,
    });
    const { code, report } = check(dir);
    expect(code).toBe(1);
    expect(rulesAt(report)).toEqual([
      'a/a.ts:2:9 idempotency/require-request-timeout',
      'b/b.ts:2:9 idempotency/require-request-timeout',
    ]);
  });

  it('does not follow symlink loops or symlinks that leave the root', () => {
    const outside = repo('outside-the-root', { 'secret.ts': UNBOUNDED_FETCH });
    const dir = repo('symlinks', { 'src/ok.ts': UNBOUNDED_FETCH });
    symlinkSync(join(dir, 'src'), join(dir, 'src', 'loop'), 'dir');
    symlinkSync(outside, join(dir, 'src', 'elsewhere'), 'dir');
    symlinkSync(join(outside, 'secret.ts'), join(dir, 'src', 'linked.ts'), 'file');
    const { code, report } = check(dir);
    expect(code).toBe(1);
    expect(rulesAt(report)).toEqual(['src/ok.ts:2:9 idempotency/require-request-timeout']);
    // The same with a tsconfig, whose include TypeScript expands through folder symlinks.
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "allowJs": true }, "include": ["src"] }');
    const withTsconfig = check(dir);
    expect(withTsconfig.code).toBe(1);
    expect(rulesAt(withTsconfig.report)).toEqual(['src/ok.ts:2:9 idempotency/require-request-timeout']);
  });

  it('rejects a path that does not exist and an unknown option with one clear line each', () => {
    const missing = check(join(root, 'no-such-folder'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^idempotency-check: .*no-such-folder.*\n$/);
    const unknown = check(repo('unknown-option', { 'a.ts': '' }), '--frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^idempotency-check: .*--frobnicate.*\n$/);
  });
});
