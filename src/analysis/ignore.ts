import { type Dirent, existsSync, readFileSync, readdirSync } from 'node:fs';
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
 * Names of build output that are also ordinary names of source folders (`src/core/build/` of a
 * service that runs builds). A build writes its output beside the package's manifest or tsconfig
 * (`outDir` is resolved from the tsconfig's folder; bundlers default to `<package>/dist`), and
 * writes JavaScript: a folder of such a name is output at the root, beside a `package.json` or
 * `tsconfig*.json`, or when it holds no TypeScript source (a committed bundle under `manager/dist`).
 */
const OUTPUT_NAMES: ReadonlySet<string> = new Set(['dist', 'build', 'out']);
const PACKAGE_ROOT_FILE = /^(?:package\.json|tsconfig(?:\..+)?\.json)$/;

/**
 * Answers "is this path skipped?" for paths relative to the scan root, reading each folder's
 * `.gitignore` once.
 */
export class IgnoreFilter {
  private readonly gitignores = new Map<string, Ignore | undefined>();
  private readonly outputs = new Map<string, boolean>();
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
      const part = parts[i] ?? '';
      if (isDir && SKIPPED_DIRECTORIES.has(part) && (!OUTPUT_NAMES.has(part) || this.isOutput(parts.slice(0, i + 1))))
        return true;
      if (this.isIgnoredHere(parts.slice(0, i + 1), isDir)) return true;
    }
    return false;
  }

  /** A folder of an output name (`dist`) that is build output: see {@link OUTPUT_NAMES}. */
  private isOutput(parts: readonly string[]): boolean {
    const folder = parts.join('/');
    let known = this.outputs.get(folder);
    if (known === undefined) {
      const parent = parts.slice(0, -1).join('/');
      known =
        parent === '' ||
        entriesOf(join(this.root, parent)).some((name) => PACKAGE_ROOT_FILE.test(name)) ||
        !holdsTypeScript(join(this.root, folder));
      this.outputs.set(folder, known);
    }
    return known;
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

/** The names in a folder; none when it cannot be read. */
function entriesOf(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

const TYPESCRIPT_SOURCE = /\.(?:ts|tsx|mts|cts)$/;

/** A TypeScript source (not a `.d.ts`) somewhere under the folder; stops at the first. */
function holdsTypeScript(folder: string): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.isFile() && TYPESCRIPT_SOURCE.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) return true;
  }
  return entries.some(
    (entry) => entry.isDirectory() && entry.name !== 'node_modules' && holdsTypeScript(join(folder, entry.name)),
  );
}
