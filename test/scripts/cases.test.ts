import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  CASE_WINDOW,
  bring,
  caseFile,
  caseProblems,
  formatText,
  libraryOf,
  manifestCases,
  parseArgs,
  parseCases,
  scoreCases,
  type Case,
} from '../../scripts/cases.mjs';

function entry(line: number | null, verdict: boolean, extra: Partial<Case> = {}): Case {
  return {
    repo: 'acme/shop',
    commit: null,
    path: 'src/pay.ts',
    line,
    rule: 'no-per-attempt-key',
    verdict,
    shape: 'inline-header',
    reason: 'r',
    ...extra,
  };
}

describe('parseCases', () => {
  it('keeps valid lines and names each problem of a bad one', () => {
    const text = [
      JSON.stringify(entry(5, true)),
      '',
      JSON.stringify({ ...entry(null, true), extra: 1 }),
      '{not json',
      JSON.stringify(entry(5, true)),
    ].join('\n');
    const { cases, errors } = parseCases(text, 'keys.jsonl');
    expect(cases).toHaveLength(1);
    expect(cases[0]!.source).toBe('keys.jsonl:1');
    expect(errors.map((error) => [error.line, error.message])).toEqual([
      [3, 'unknown key "extra"'],
      [3, 'a positive case needs a line'],
      [4, expect.stringContaining('not valid JSON')],
      [5, 'the same case as line 1'],
    ]);
  });

  it('rejects a prefixed rule, a bad repo and a bad commit', () => {
    expect(caseProblems({ ...entry(1, true), rule: 'idempotency/x', repo: 'shop', commit: 'abc' })).toEqual([
      '"commit" must be 40 hex digits or null',
      '"repo" must be owner/name',
      '"rule" is the rule\'s name without "idempotency/"',
    ]);
  });
});

describe('cases with other files of their repository', () => {
  it('accepts a list of repository paths under "with" and names what is wrong with a bad one', () => {
    expect(caseProblems({ ...entry(5, true), with: ['src/headers.ts', 'tsconfig.json'] })).toEqual([]);
    expect(caseProblems({ ...entry(5, true), with: [] })).toEqual([
      '"with" must be a non-empty list of repository paths',
    ]);
    expect(caseProblems({ ...entry(5, true), with: 'src/headers.ts' })).toEqual([
      '"with" must be a non-empty list of repository paths',
    ]);
    expect(
      caseProblems({ ...entry(5, true), with: ['../up.ts', '/abs.ts', 'src/./x.ts', 'src/pay.ts', 'a.ts', 'a.ts', 3] }),
    ).toEqual([
      '"with[0]" must be a relative path inside the repository',
      '"with[1]" must be a relative path inside the repository',
      '"with[2]" must be a relative path inside the repository',
      '"with[3]" is the case\'s own path',
      '"with[5]" names a.ts twice',
      '"with[6]" must be a relative path inside the repository',
    ]);
  });

  it('keeps a case with other files in a folder of its own, the same for the same file set', () => {
    const alone = caseFile('/f', entry(5, true));
    const withHeaders = caseFile('/f', entry(5, true, { with: ['src/headers.ts', 'src/db.ts'] }));
    const sameSet = caseFile('/f', entry(9, false, { with: ['src/db.ts', 'src/headers.ts'] }));
    expect(alone).toBe('/f/acme__shop/HEAD/src/pay.ts');
    expect(withHeaders).toMatch(/^\/f\/acme__shop\/HEAD\/with\/[0-9a-f]{12}\/src\/pay\.ts$/);
    expect(sameSet).toBe(withHeaders);
    expect(caseFile('/f', entry(5, true, { with: ['src/headers.ts'] }))).not.toBe(withHeaders);
  });

  it('tells apart two cases that differ only in their other files', () => {
    const text = [
      JSON.stringify(entry(5, true, { with: ['a.ts'] })),
      JSON.stringify(entry(5, true, { with: ['b.ts'] })),
    ].join('\n');
    expect(parseCases(text).errors).toEqual([]);
  });
});

describe('manifestCases', () => {
  it('reads a positive at its line and a negative once per rule it is a negative for', () => {
    const text = [
      JSON.stringify({ repo: 'a/b', commit: null, path: 'x.ts', line: 9, rule: 'no-per-attempt-key', note: 'n' }),
      JSON.stringify({ repo: 'a/b', commit: null, path: 'y.ts', line: null, rule: 'NEG', neg_rules: ['r1', 'r2'] }),
    ].join('\n');
    expect(manifestCases(text).map((c) => [c.path, c.line, c.rule, c.verdict])).toEqual([
      ['x.ts', 9, 'no-per-attempt-key', true],
      ['y.ts', null, 'r1', false],
      ['y.ts', null, 'r2', false],
    ]);
  });
});

describe('scoreCases', () => {
  const report = (ruleId: string, line: number) => ({ ruleId: `idempotency/${ruleId}`, line });

  it('finds a positive within the window, not beyond it, and not by another rule', () => {
    const cases = [entry(10, true), entry(30, true), entry(50, true)];
    const messages = new Map([
      [
        'src/pay.ts',
        [
          report('no-per-attempt-key', 10 + CASE_WINDOW),
          report('no-per-attempt-key', 35),
          report('no-key-on-read', 50),
        ],
      ],
    ]);
    const result = scoreCases(cases, messages);
    expect(result.rules).toEqual([
      { rule: 'no-per-attempt-key', found: 1, missed: 2, negatives: 0, falsePositives: 0, unreadable: 0 },
    ]);
    expect(result.misses.map((miss) => miss.line)).toEqual([30, 50]);
  });

  it('counts a report near a negative, or anywhere in a whole-file negative, as a false positive', () => {
    const cases = [entry(10, false), entry(40, false), entry(null, false, { path: 'src/other.ts' })];
    const messages = new Map([
      ['src/pay.ts', [report('no-per-attempt-key', 11)]],
      ['src/other.ts', [report('no-per-attempt-key', 200)]],
    ]);
    const result = scoreCases(cases, messages);
    expect(result.rules[0]).toMatchObject({ negatives: 3, falsePositives: 2 });
    expect(result.falsePositives.map((fp) => [fp.path, fp.reportedAt])).toEqual([
      ['src/pay.ts', [11]],
      ['src/other.ts', [200]],
    ]);
  });

  it('keeps unreadable files out of recall and groups by shape', () => {
    const cases = [entry(1, true, { shape: 'a' }), entry(1, true, { shape: 'b', path: 'gone.ts' })];
    const result = scoreCases(cases, new Map([['src/pay.ts', [report('no-per-attempt-key', 1)]]]));
    expect(result.rows.map((row) => [row.shape, row.found, row.unreadable])).toEqual([
      ['a', 1, 0],
      ['b', 0, 1],
    ]);
    expect(formatText(result)).toContain('100.0 %');
  });
});

describe('libraries', () => {
  const report = (ruleId: string, line: number) => ({ ruleId: `idempotency/${ruleId}`, line });

  it('reads a database library from the first word of a shape, and nothing else', () => {
    expect(libraryOf('mikroorm-connection-execute-without-ctx')).toBe('mikroorm');
    expect(libraryOf('prisma-escape')).toBe('prisma');
    expect(libraryOf('header-factory')).toBeUndefined();
    expect(libraryOf('prismatic-escape')).toBeUndefined();
  });

  it('adds up every rule of one library, and prints a table of them after the rules', () => {
    const cases = [
      entry(1, true, { shape: 'knex-escape', rule: 'no-pool-query-in-transaction' }),
      entry(20, true, { shape: 'knex-no-rollback', rule: 'require-rollback' }),
      entry(40, false, { shape: 'knex-escape-ok', rule: 'no-pool-query-in-transaction' }),
      entry(60, true, { shape: 'header-factory' }),
    ];
    const messages = new Map([
      ['src/pay.ts', [report('no-pool-query-in-transaction', 1), report('no-pool-query-in-transaction', 40)]],
    ]);
    const result = scoreCases(cases, messages);
    expect(result.libraries).toEqual([
      { library: 'knex', found: 1, missed: 1, negatives: 1, falsePositives: 1, unreadable: 0 },
    ]);
    const text = formatText(result);
    expect(text).toMatch(/\nlibrary +recall +found +missed +neg\. hit +unreadable\nknex +50\.0 % +1 +1 +1\/1 +0\n/u);
    expect(formatText(scoreCases([entry(60, true)], new Map()))).not.toContain('library');
  });
});

describe('parseArgs', () => {
  it('rejects an unknown argument and a flag without its value', () => {
    expect(parseArgs(['--nope'])).toEqual({ error: 'unknown argument --nope' });
    expect(parseArgs(['--rule'])).toEqual({ error: '--rule needs a value' });
    expect(parseArgs(['--rule', 'a', '--rule', 'b']).options).toMatchObject({ rules: ['a', 'b'] });
  });
});

describe('bring', () => {
  it("copies a case's other files from the copies saved at the repository's plain place when no mirror holds them", () => {
    const files = mkdtempSync(join(tmpdir(), 'cases-'));
    const commit = 'a'.repeat(40);
    const save = (path: string, text: string): void => {
      const file = join(files, 'acme__shop', commit, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    };
    save('src/pay.ts', 'export const pay = 1;\n');
    save('src/headers.ts', 'export const headers = 2;\n');
    const withHeaders = entry(5, true, { commit, with: ['src/headers.ts', 'src/missing.ts'] });
    expect(bring({ files, mirrors: join(files, 'no-mirrors') }, withHeaders)).toEqual(['src/missing.ts']);
    const own = caseFile(files, withHeaders);
    expect(readFileSync(own, 'utf8')).toBe('export const pay = 1;\n');
    expect(readFileSync(join(dirname(own), 'headers.ts'), 'utf8')).toBe('export const headers = 2;\n');
    // A case without other files is read at the plain place itself: nothing to bring.
    expect(bring({ files }, entry(5, true, { commit }))).toEqual([]);
    expect(bring({ files }, entry(5, true, { commit, path: 'src/gone.ts' }))).toEqual(['src/gone.ts']);
  });
});
