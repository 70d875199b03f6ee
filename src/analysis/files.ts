import { realpathSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import type { IgnoreFilter } from './ignore.js';

/** Which files are sources, and the walk of a tree without a tsconfig. */

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export function isSourceFile(path: string): boolean {
  return !/\.d\.[cm]?ts$/.test(path) && SOURCE_EXTENSIONS.some((extension) => path.endsWith(extension));
}

/** Single-file components of the UI frameworks, and bundlers' `index.html` pages, whose `<script>` blocks load the project's modules. */
export function isComponentFile(path: string): boolean {
  return /\.(?:vue|svelte)$|(?:^|[\\/])index\.html$/.test(path);
}

/** Walks the tree for source files (or what `wanted` takes), skipping ignored folders and symlinks that leave the root. */
export function walk(
  root: string,
  start: string,
  filter: Pick<IgnoreFilter, 'isIgnored'>,
  realRoot: string,
  wanted: (path: string) => boolean = isSourceFile,
): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const relativePath = toPosix(relative(root, path));
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        if (!insideRoot(path, realRoot)) continue;
        isDirectory = statSync(path).isDirectory();
        // A symlinked folder inside the root is reached through its real path already.
        if (isDirectory) continue;
      }
      if (filter.isIgnored(relativePath, isDirectory)) continue;
      if (isDirectory) visit(path);
      else if (wanted(path)) found.push(path);
    }
  };
  if (statSync(start).isDirectory()) visit(start);
  else if (wanted(start)) found.push(start);
  return found;
}

export function insideRoot(path: string, realRoot: string): boolean {
  let real;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  return real === realRoot || real.startsWith(realRoot + sep);
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
