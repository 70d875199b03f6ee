import { describe, expect, it } from 'vitest';

import { GitIgnore, globToRegExp } from '../../src/analysis/ignore.js';
import { unifiedDiff } from '../../src/analysis/diff.js';

describe('globToRegExp', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['**/*.ts', 'a.ts', true],
    ['src/**', 'src/a/b.js', true],
    ['src/**/gen/*.ts', 'src/gen/x.ts', true],
    ['src/**/gen/*.ts', 'src/a/b/gen/x.ts', true],
    ['*.{js,mjs}', 'a.mjs', true],
    ['*.{js,mjs}', 'a.ts', false],
    ['file?.ts', 'file1.ts', true],
    ['[ab].ts', 'c.ts', false],
    ['a.b', 'axb', false],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe('GitIgnore', () => {
  const ignore = new GitIgnore('# comment\n\n*.log\n/generated/\nbuild-*\n!build-keep\ndocs/*.md\n\\#hash\n');
  it.each([
    ['debug.log', false, true],
    ['src/debug.log', false, true],
    ['generated', true, true],
    ['generated', false, undefined],
    ['src/generated', true, undefined],
    ['build-1', true, true],
    ['build-keep', true, false],
    ['docs/a.md', false, true],
    ['docs/sub/a.md', false, undefined],
    ['#hash', false, true],
    ['src/a.ts', false, undefined],
  ])('%s (directory: %s) → %s', (path, isDirectory, expected) => {
    expect(ignore.matches(path, isDirectory)).toBe(expected);
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
