import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The package a file belongs to, as its nearest `package.json` describes it: what a one-file
 * view cannot tell from the code (an API client module of a Vite app looks like any other).
 */
export interface PackageManifest {
  /** Names from `dependencies`, `devDependencies` and `peerDependencies`. */
  dependencies: ReadonlySet<string>;
  /**
   * The package says it is built for the browser: its `browser` field is set and there is no
   * `main` or `exports` for Node, or it names the script a CDN serves to `<script>` tags
   * (`unpkg`, `jsdelivr`: https://unpkg.com, "the `unpkg` field in package.json").
   */
  browserOnlyEntry: boolean;
}

const byFolder = new Map<string, PackageManifest | null>();

/**
 * The nearest `package.json` above an absolute file path, read once per folder; undefined for
 * a relative path (text linted without a file) or when none is found or it does not parse.
 */
export function nearestManifest(file: string): PackageManifest | undefined {
  if (!path.isAbsolute(file)) return undefined;
  const visited: string[] = [];
  let folder = path.dirname(file);
  let found: PackageManifest | null | undefined;
  for (;;) {
    found = byFolder.get(folder);
    if (found !== undefined) break;
    visited.push(folder);
    found = readManifest(path.join(folder, 'package.json'));
    if (found) break;
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const seen of visited) byFolder.set(seen, found ?? null);
  return found ?? undefined;
}

function readManifest(file: string): PackageManifest | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A package.json that does not parse says nothing about where its code runs.
    return { dependencies: new Set(), browserOnlyEntry: false };
  }
  if (typeof json !== 'object' || json === null) return { dependencies: new Set(), browserOnlyEntry: false };
  const manifest = json as Record<string, unknown>;
  const dependencies = new Set<string>();
  for (const key of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const value = manifest[key];
    if (typeof value === 'object' && value !== null) for (const name of Object.keys(value)) dependencies.add(name);
  }
  const browserOnlyEntry =
    (manifest.browser !== undefined && manifest.main === undefined && manifest.exports === undefined) ||
    typeof manifest.unpkg === 'string' ||
    typeof manifest.jsdelivr === 'string';
  return { dependencies, browserOnlyEntry };
}
