import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { IgnoreFilter } from '../../src/analysis/ignore.js';
import { unifiedDiff } from '../../src/analysis/diff.js';

// One tree, built at test time (a `.git` folder cannot be committed inside the repository).
const tree = mkdtempSync(join(tmpdir(), 'idempotency-ignore-'));
afterAll(() => {
  rmSync(tree, { recursive: true, force: true });
});
const files: Record<string, string> = {
  '.git/info/exclude': '# local excludes\nscratch.ts\n',
  '.gitignore': '*.log\n/generated/\nbuild-*\n!build-keep\ndocs/*.md\n\\#hash.ts\nsp\\ ace.ts\ntrailing.ts\\ \n',
  'pkg/.gitignore': '!debug.log\nlocal.ts\n',
  'pkg/package.json': '{}\n',
  'svc/tsconfig.build.json': '{}\n',
  'src/core/build/build.controller.ts': 'export {};\n',
  'pkg/src/dist/a.ts': 'export {};\n',
  'web/dist/assets/index-3f2a.js': 'console.log(1);\n',
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(tree, path)), { recursive: true });
  writeFileSync(join(tree, path), text);
}
const filter = new IgnoreFilter(tree, ['vendor/**', '*.generated.ts', './tools/']);

describe('IgnoreFilter', () => {
  it.each([
    ['debug.log', false, true],
    ['src/debug.log', false, true],
    ['generated', true, true],
    ['generated/a.ts', false, true],
    ['generated', false, false],
    ['src/generated/a.ts', false, false],
    ['build-1/a.ts', false, true],
    ['build-keep/a.ts', false, false],
    ['docs/a.md', false, true],
    ['docs/sub/a.md', false, false],
    ['#hash.ts', false, true],
    // Git's escapes: a backslash keeps a space inside a name and a trailing one.
    ['sp ace.ts', false, true],
    ['sp\\ ace.ts', false, false],
    ['trailing.ts ', false, true],
    ['trailing.ts', false, false],
    // `.git/info/exclude` is read like the root .gitignore.
    ['scratch.ts', false, true],
    ['src/scratch.ts', false, true],
    // A nested .gitignore: its own patterns, and a negation that re-includes what the root ignores.
    ['pkg/local.ts', false, true],
    ['local.ts', false, false],
    ['pkg/debug.log', false, false],
    // `--ignore` patterns, and the folders that are always skipped.
    ['vendor/lib/a.ts', false, true],
    ['src/a.generated.ts', false, true],
    ['tools/x.ts', false, true],
    ['src/node_modules/x/a.ts', false, true],
    ['src/coverage/a.ts', false, true],
    // Build output sits at the root or beside a package.json or tsconfig, or holds no TypeScript; elsewhere such a name is a source folder.
    ['dist/a.js', false, true],
    ['pkg/dist/a.js', false, true],
    ['pkg/build', true, true],
    ['svc/out/a.js', false, true],
    ['src/core/build/build.controller.ts', false, false],
    ['pkg/src/dist/a.ts', false, false],
    ['web/dist/assets/index-3f2a.js', false, true],
    ['src/a.ts', false, false],
  ])('%s (directory: %s) → %s', (path, isDirectory, expected) => {
    expect(filter.isIgnored(path, isDirectory)).toBe(expected);
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts and keeps three lines of context around each change', () => {
    expect(unifiedDiff('a.ts', 'x\n', 'x\n')).toBe('');
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', ''].join('\n');
    const after = before.replace('2', 'two').replace('11', 'eleven');
    expect(unifiedDiff('a.ts', before, after)).toBe(
      [
        '--- a/a.ts',
        '+++ b/a.ts',
        '@@ -1,5 +1,5 @@',
        ' 1',
        '-2',
        '+two',
        ' 3',
        ' 4',
        ' 5',
        '@@ -8,5 +8,5 @@',
        ' 8',
        ' 9',
        ' 10',
        '-11',
        '+eleven',
        ' 12',
        '',
      ].join('\n'),
    );
  });

  it('counts added and removed lines in the hunk header', () => {
    expect(unifiedDiff('b.ts', 'a\nb\nc\n', 'a\nc\nd\ne\n')).toBe(
      ['--- a/b.ts', '+++ b/b.ts', '@@ -1,3 +1,4 @@', ' a', '-b', ' c', '+d', '+e', ''].join('\n'),
    );
  });

  it('marks a last line without a newline, as git does', () => {
    expect(unifiedDiff('c.ts', 'a\nb', 'a\nc')).toBe(
      [
        '--- a/c.ts',
        '+++ b/c.ts',
        '@@ -1,2 +1,2 @@',
        ' a',
        '-b',
        '\\ No newline at end of file',
        '+c',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
  });
});
