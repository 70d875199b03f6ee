import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  name: string;
  version: string;
  /** Absolute path of the package root (the folder holding package.json). */
  root: string;
}

function findPackageInfo(): PackageInfo {
  // Walks up so the same code works from `src/` (tests) and `dist/src/` (published).
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const { name, version } = JSON.parse(readFileSync(candidate, 'utf8')) as { name: string; version: string };
      return { name, version, root: dir };
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('eslint-plugin-idempotency: package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const packageInfo: PackageInfo = findPackageInfo();
