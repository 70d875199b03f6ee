import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import ignore, { type Ignore } from 'ignore';

/**
 * Which files a scan skips: `node_modules`, build output, `.gitignore`d paths (every folder's
 * `.gitignore` and `.git/info/exclude`) and the user's `--ignore` patterns. The patterns are
 * matched by the `ignore` library, git's own semantics (escapes, negations, anchoring), rather
 * than by asking `git`, because running git in a scanned repository can run the repository's
 * own hooks and fsmonitor.
 */

/** Folders never scanned, wherever they are: dependencies, VCS data and build output. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'out',
  'coverage',
]);

/**
 * Answers "is this path skipped?" for paths relative to the scan root, reading each folder's
 * `.gitignore` once.
 */
export class IgnoreFilter {
  private readonly gitignores = new Map<string, Ignore | undefined>();
  private readonly user: Ignore;

  constructor(
    private readonly root: string,
    userPatterns: readonly string[],
  ) {
    // `--ignore` takes .gitignore patterns relative to the root; `./src` is written as `src`.
    this.user = ignore().add(userPatterns.map((pattern) => pattern.replace(/^\.\//, '')));
  }

  /** The rules of the `.gitignore` in a folder; at the root, `.git/info/exclude` first, as git reads them. */
  private gitignoreIn(relativeDir: string): Ignore | undefined {
    if (!this.gitignores.has(relativeDir)) {
      const files = [join(this.root, relativeDir, '.gitignore')];
      if (relativeDir === '') files.unshift(join(this.root, '.git', 'info', 'exclude'));
      const texts = files.filter((file) => existsSync(file)).map((file) => readFileSync(file, 'utf8'));
      this.gitignores.set(relativeDir, texts.length === 0 ? undefined : ignore().add(texts.join('\n')));
    }
    return this.gitignores.get(relativeDir);
  }

  /** True when a path (POSIX, relative to the root) or any folder above it is skipped. */
  isIgnored(relativePath: string, isDirectory = false): boolean {
    const parts = relativePath.split('/');
    for (let i = 0; i < parts.length; i++) {
      const isDir = i < parts.length - 1 || isDirectory;
      if (isDir && SKIPPED_DIRECTORIES.has(parts[i] ?? '')) return true;
      if (this.isIgnoredHere(parts.slice(0, i + 1), isDir)) return true;
    }
    return false;
  }

  /** Whether the path itself is ignored, its folders above being kept. */
  private isIgnoredHere(parts: readonly string[], isDirectory: boolean): boolean {
    // The library tells a folder from a file by a trailing slash.
    const asPath = (segments: readonly string[]): string => segments.join('/') + (isDirectory ? '/' : '');
    if (this.user.ignores(asPath(parts))) return true;
    // The deepest .gitignore that has an opinion wins; a negation there re-includes the path.
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const verdict = this.gitignoreIn(parts.slice(0, depth).join('/'))?.test(asPath(parts.slice(depth)));
      if (verdict?.ignored) return true;
      if (verdict?.unignored) return false;
    }
    return false;
  }
}
