import { createTwoFilesPatch } from 'diff';

/**
 * The unified diff `--fix-dry-run` prints for one fixed file, by the `diff` library: `a/` and
 * `b/` paths as git writes them, three lines of context, no index or header lines.
 */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 });
  // The library starts with a `====` separator line and ends each header with a tab; git does neither.
  return patch
    .split('\n')
    .filter((line) => !/^=+$/.test(line))
    .map((line) => (line.startsWith('--- ') || line.startsWith('+++ ') ? line.replace(/\t$/, '') : line))
    .join('\n');
}
