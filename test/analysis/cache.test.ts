import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analyze, type AnalyzeOptions } from '../../src/analysis/analyze.js';
import { copyRepo, reposRoot, runCli } from '../cli/helpers.js';

function options(root: string, extra: Partial<AnalyzeOptions> = {}): AnalyzeOptions {
  return { root, paths: [], ignore: [], types: false, includeSuppressed: true, ...extra };
}

/** The report parts a cache must not change. */
function outcome(root: string, extra: Partial<AnalyzeOptions> = {}) {
  const { findings, handlers, notAnalysed, files, settings } = analyze(options(root, extra));
  return { findings, handlers, notAnalysed, files, settings };
}

describe('--cache', () => {
  it('gives the same report as a run without it on every fixture repository, and a second run lints nothing', () => {
    for (const name of readdirSync(reposRoot)) {
      const root = copyRepo(name);
      const cache = join(root, '.idempotency-check-cache');
      let fresh;
      try {
        fresh = outcome(root);
      } catch (error) {
        // A repository the checker refuses (an unreadable tsconfig) is refused with a cache too.
        expect(() => analyze(options(root, { cache })), name).toThrow((error as Error).message);
        continue;
      }
      const first = analyze(options(root, { cache }));
      expect(existsSync(cache), name).toBe(true);
      const second = analyze(options(root, { cache }));
      for (const run of [first, second]) {
        const { findings, handlers, notAnalysed, files, settings } = run;
        expect({ findings, handlers, notAnalysed, files, settings }, name).toEqual(fresh);
      }
      expect(second.cache?.misses, name).toBe(0);
      expect(second.cache?.hits, name).toBeGreaterThan(0);
    }
  });

  it('writes byte-identical JSON from the cache', () => {
    const root = copyRepo('demo-shop');
    const plain = runCli([root, '--format', 'json']);
    const warm = runCli([root, '--format', 'json', '--cache', '--cache-location', join(root, 'c.bin')]);
    const cached = runCli([root, '--format', 'json', '--cache', '--cache-location', join(root, 'c.bin')]);
    expect(warm.stdout).toBe(plain.stdout);
    expect(cached.stdout).toBe(plain.stdout);
    expect(cached.code).toBe(plain.code);
  });

  it('re-checks an importer when what an imported file tells it changes, and nothing else', () => {
    const root = copyRepo('cross-file-pool');
    const cache = join(root, 'c.bin');
    analyze(options(root, { cache }));
    // db.ts no longer exports a pool: billing.ts's settings change, so its pass 2 runs again.
    writeFileSync(join(root, 'src/db.ts'), 'export const db = { query: async (_sql: string) => [] };\n');
    const after = analyze(options(root, { cache }));
    const { findings, handlers, notAnalysed, files, settings } = after;
    expect({ findings, handlers, notAnalysed, files, settings }).toEqual(outcome(root));
    expect(after.cache?.misses).toBeGreaterThan(0);
  });

  it('starts again from an unreadable cache file and says so', () => {
    const root = copyRepo('cross-file-pool');
    const cache = join(root, 'c.bin');
    writeFileSync(cache, 'not a cache');
    const run = runCli([root, '--format', 'json', '--cache', '--cache-location', cache]);
    expect(run.stderr).toContain('c.bin: not a cache file this version can read; starting a new cache');
    expect(run.stdout).toBe(runCli([root, '--format', 'json']).stdout);
    expect(analyze(options(root, { cache })).cache?.misses).toBe(0);
  });

  it('with --types, a change in any file makes a fresh cache', () => {
    const root = copyRepo('cross-file-pool');
    const cache = join(root, 'c.bin');
    analyze(options(root, { cache, types: true }));
    expect(analyze(options(root, { cache, types: true })).cache?.misses).toBe(0);
    writeFileSync(join(root, 'src/unrelated.ts'), 'export const unrelated = 1;\n');
    const after = analyze(options(root, { cache, types: true }));
    expect(after.cache?.hits).toBe(0);
  });

  it('is not used by --fix, and --cache-location alone is a usage error', () => {
    const root = copyRepo('autofix');
    const cache = join(root, 'c.bin');
    expect(analyze(options(root, { cache, fix: 'dry-run' })).cache).toBeUndefined();
    expect(existsSync(cache)).toBe(false);
    const run = runCli([root, '--cache-location', cache]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('idempotency-check: --cache-location needs --cache\n');
  });
});

describe('--cache and the project config', () => {
  it('does not reuse results across a change of the rules the CLI runs', () => {
    const root = copyRepo('demo-shop');
    const cache = join(root, 'c.bin');
    const run = () => runCli([root, '--format', 'json', '--cache', '--cache-location', cache]);
    const before = JSON.parse(run().stdout) as { findings: { ruleId: string }[] };
    const [rule] = before.findings.map((finding) => finding.ruleId);
    expect(rule).toBeDefined();
    writeFileSync(join(root, 'idempotency.config.json'), JSON.stringify({ rules: { [rule!]: 'off' } }));
    const after = run();
    expect(after.stdout).toBe(runCli([root, '--format', 'json']).stdout);
    expect(
      (JSON.parse(after.stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId),
    ).not.toContain(rule);
  });
});
