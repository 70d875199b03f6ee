import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which files a scan skips: `node_modules`, build output, `.gitignore`d paths and the
 * user's `--ignore` globs. `.gitignore` is parsed here rather than asking `git`, because
 * running git in a scanned repository can run the repository's own hooks and fsmonitor.
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

/** Converts a glob (`**`, `*`, `?`, `[...]`, `{a,b}`) to an anchored regular expression over POSIX paths. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob.charAt(i);
    if (char === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches zero or more whole folders; a trailing `**` matches everything below.
        const slash = glob[i + 2] === '/';
        source += slash ? '(?:[^/]*(?:/|$))*' : '.*';
        i += slash ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) {
        source += '\\[';
      } else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else if (char === '{') {
      inGroup++;
      source += '(?:';
    } else if (char === '}' && inGroup > 0) {
      inGroup--;
      source += ')';
    } else if (char === ',' && inGroup > 0) {
      source += '|';
    } else {
      source += /[.+^$()|\\]/.test(char) ? `\\${char}` : char;
    }
  }
  return new RegExp(`^${source}$`);
}

interface IgnoreRule {
  regexp: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

/** One `.gitignore` file's rules, relative to the folder that holds it. */
export class GitIgnore {
  private readonly rules: IgnoreRule[] = [];

  constructor(text: string) {
    for (const raw of text.split(/\r?\n/)) {
      let line = raw.replace(/(?<!\\)\s+$/, '');
      if (line === '' || line.startsWith('#')) continue;
      const negated = line.startsWith('!');
      if (negated) line = line.slice(1);
      line = line.replace(/^\\([#!])/, '$1');
      const directoryOnly = line.endsWith('/');
      if (directoryOnly) line = line.slice(0, -1);
      // A slash at the start or in the middle anchors the pattern to this folder.
      const anchored = line.includes('/');
      if (line.startsWith('/')) line = line.slice(1);
      const glob = anchored ? line : `**/${line}`;
      this.rules.push({ regexp: globToRegExp(glob), negated, directoryOnly });
    }
  }

  /** Whether `path` (POSIX, relative to this file's folder) is ignored; undefined when no rule speaks. */
  matches(path: string, isDirectory: boolean): boolean | undefined {
    let result: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.regexp.test(path)) result = !rule.negated;
    }
    return result;
  }
}

/**
 * Answers "is this path skipped?" for paths relative to the scan root, reading each
 * folder's `.gitignore` once.
 */
export class IgnoreFilter {
  private readonly gitignores = new Map<string, GitIgnore | undefined>();
  private readonly userGlobs: RegExp[];

  constructor(
    private readonly root: string,
    userGlobs: readonly string[],
  ) {
    // A glob without a slash matches at any depth, as in .gitignore; `dir/` means everything below.
    this.userGlobs = userGlobs.map((glob) => {
      const trimmed = glob.replace(/^\.\//, '').replace(/\/$/, '/**');
      return globToRegExp(trimmed.includes('/') ? trimmed : `**/${trimmed}`);
    });
  }

  private gitignoreIn(relativeDir: string): GitIgnore | undefined {
    if (!this.gitignores.has(relativeDir)) {
      const file = join(this.root, relativeDir, '.gitignore');
      this.gitignores.set(relativeDir, existsSync(file) ? new GitIgnore(readFileSync(file, 'utf8')) : undefined);
    }
    return this.gitignores.get(relativeDir);
  }

  /** True when a path (POSIX, relative to the root) or any folder above it is skipped. */
  isIgnored(relativePath: string, isDirectory = false): boolean {
    const parts = relativePath.split('/');
    for (let i = 0; i < parts.length; i++) {
      const isDir = i < parts.length - 1 || isDirectory;
      if (isDir && SKIPPED_DIRECTORIES.has(parts[i] ?? '')) return true;
      const prefix = parts.slice(0, i + 1).join('/');
      if (this.isIgnoredHere(prefix, isDir)) return true;
    }
    return false;
  }

  private isIgnoredHere(relativePath: string, isDirectory: boolean): boolean {
    for (const regexp of this.userGlobs) {
      if (regexp.test(relativePath) || (isDirectory && regexp.test(`${relativePath}/`))) return true;
    }
    // The deepest .gitignore that has an opinion wins.
    const parts = relativePath.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const dir = parts.slice(0, depth).join('/');
      const verdict = this.gitignoreIn(dir)?.matches(parts.slice(depth).join('/'), isDirectory);
      if (verdict !== undefined) return verdict;
    }
    return false;
  }
}
