import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { exports as exportsOf } from 'resolve.exports';
import { parse } from 'yaml';

import { SKIPPED_DIRECTORIES } from './ignore.js';
import { isSourceFile, SOURCE_EXTENSIONS } from './files.js';
import { ts } from './typescript.js';

/**
 * Workspaces: the package folders a repository declares (npm, yarn and pnpm), each with its
 * tsconfig and the entry file other packages import it by name.
 */

/** Reads `workspaces` from package.json or `packages:` from pnpm-workspace.yaml into folder globs. */
export function workspaceGlobs(root: string): string[] {
  const globs: string[] = [];
  const packageJson = join(root, 'package.json');
  if (existsSync(packageJson)) {
    try {
      const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as {
        workspaces?: string[] | { packages?: string[] };
      };
      const workspaces = Array.isArray(manifest.workspaces) ? manifest.workspaces : manifest.workspaces?.packages;
      if (Array.isArray(workspaces)) globs.push(...workspaces.filter((entry) => typeof entry === 'string'));
    } catch {
      // A broken package.json is not ours to judge; the scan goes on without workspaces.
    }
  }
  const pnpm = join(root, 'pnpm-workspace.yaml');
  if (existsSync(pnpm)) globs.push(...pnpmWorkspaceGlobs(readFileSync(pnpm, 'utf8')));
  return globs;
}

/** `packages:` of a pnpm-workspace.yaml, in any YAML style; a file YAML cannot read gives none. */
export function pnpmWorkspaceGlobs(text: string): string[] {
  let document: unknown;
  try {
    document = parse(text);
  } catch {
    // Like a broken package.json: pnpm reports it; the scan goes on without workspaces.
    return [];
  }
  const packages: unknown =
    typeof document === 'object' && document !== null && 'packages' in document ? document.packages : undefined;
  return Array.isArray(packages) ? packages.filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * Expands workspace globs into existing folders: a plain folder, `dir/*`, and globs with more
 * wildcards (`packages/**`, `apps/*-service`), which npm and pnpm match as
 * folders holding a `package.json`; those are read with TypeScript's own matcher, which leaves
 * `node_modules` out.
 */
export function expandWorkspaces(root: string, globs: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const glob of globs) {
    if (glob.startsWith('!')) continue;
    const pattern = glob.replace(/^\.\//, '').replace(/\/+$/, '');
    const base = pattern.replace(/\/\*$/, '');
    if (!base.includes('*')) {
      const absolute = resolve(root, base);
      if (!absolute.startsWith(root) || !existsSync(absolute)) continue;
      if (base === pattern) {
        folders.add(absolute);
        continue;
      }
      for (const entry of readdirSync(absolute, { withFileTypes: true }))
        if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) folders.add(join(absolute, entry.name));
      continue;
    }
    const manifests = ts.sys.readDirectory(
      root,
      ['.json'],
      [...SKIPPED_DIRECTORIES].map((name) => `**/${name}`),
      [`${pattern}/package.json`],
    );
    for (const manifest of manifests) {
      const folder = resolve(dirname(manifest));
      if (folder.startsWith(root) && folder !== root) folders.add(folder);
    }
  }
  return [...folders].sort();
}

/**
 * The folders of the tree's other packages: each `package.json` below the root, outside the
 * skipped folders (`node_modules`). A repository of services that depend by version on a package
 * published from the same repository (`"@acme/common": "^1.0.3"` beside `common/package.json`),
 * without declaring workspaces, imports that package's source as a workspace would.
 */
export function packageFolders(root: string): string[] {
  const manifests = ts.sys.readDirectory(
    root,
    ['.json'],
    [...SKIPPED_DIRECTORIES].map((name) => `**/${name}`),
    ['**/package.json'],
  );
  return manifests
    .map((manifest) => resolve(dirname(manifest)))
    .filter((folder) => folder.startsWith(root) && folder !== root)
    .sort();
}

/** A workspace package's name and the source file it is imported by, when one can be found. */
export function packageEntry(folder: string): { name: string; entry?: string } | undefined {
  const manifestPath = join(folder, 'package.json');
  if (!existsSync(manifestPath)) return undefined;
  let manifest: { name?: unknown; types?: unknown; typings?: unknown; main?: unknown; source?: unknown };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  if (typeof manifest.name !== 'string') return undefined;
  // Prefer the source: a workspace package's built output is usually not in the tree. Node reads
  // `exports` before `main` (nodejs.org/api/packages.html#package-entry-points).
  const fields = [manifest.source, ...exportedPaths(manifest, '.'), manifest.types, manifest.typings, manifest.main];
  const candidates = fields
    .filter((value): value is string => typeof value === 'string')
    .flatMap((value) => [value, ...sourcesOfBuilt(value, /^(\.\/)?(dist|build|lib|out)\//)]);
  candidates.push(
    ...SOURCE_EXTENSIONS.map((extension) => `src/index${extension}`),
    ...SOURCE_EXTENSIONS.map((extension) => `index${extension}`),
  );
  for (const candidate of candidates) {
    const path = resolve(folder, candidate);
    if (isSourceFile(path) && existsSync(path)) return { name: manifest.name, entry: path };
  }
  return { name: manifest.name };
}

/**
 * The source files of a package's commands: each path of its `bin` (a string, or an object of
 * command names; docs.npmjs.com/cli/configuring-npm/package-json#bin), or the source its build
 * output is built from (`./dist/index.js` → `src/index.ts`). What a command loads runs in a
 * terminal, not on a server (a CLI, a setup wizard).
 */
export function packageBinSources(folder: string): string[] {
  const manifest = manifestOf(folder);
  const bin = typeof manifest === 'object' && manifest !== null && 'bin' in manifest ? manifest.bin : undefined;
  const paths =
    typeof bin === 'string'
      ? [bin]
      : bin && typeof bin === 'object'
        ? Object.values(bin).filter((value): value is string => typeof value === 'string')
        : [];
  return paths.flatMap((path) => sourceOf(folder, path));
}

/**
 * Words of the names of package scripts that start the service (`start`, `dev`, `start:worker`,
 * `starttest`, `serve`): the file they run is a server's or a worker's main, not a command.
 */
const SERVICE_SCRIPT = /start|dev|serve|prod|preview|worker|queue|consum|cron|listen|watch|debug/i;

/**
 * The source files a package's scripts run by path (`"codegen": "tsx src/codegen.ts"`, `"seed":
 * "node dist/seed.js"`): commands a developer or a pipeline runs by hand, apart from the scripts
 * that start the service (docs.npmjs.com/cli/using-npm/scripts). A token of the command that
 * names a source file of the package, or the build output of one, is such a file.
 */
export function packageScriptSources(folder: string): string[] {
  const manifest = manifestOf(folder);
  const scripts =
    typeof manifest === 'object' && manifest !== null && 'scripts' in manifest ? manifest.scripts : undefined;
  if (typeof scripts !== 'object' || scripts === null) return [];
  const run = (command: string): string[] =>
    command
      .split(/[\s;&|()]+/)
      .filter((token) => /^[\w./@-]+\.[cm]?[jt]sx?$/.test(token) && !token.startsWith('-'))
      .flatMap((token) => sourceOf(folder, token));
  const entries = Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  // A file a service script runs too (`"starttest": "node index.js"` beside `"start"`) is the service's main.
  const service = new Set(entries.filter(([name]) => SERVICE_SCRIPT.test(name)).flatMap(([, command]) => run(command)));
  const found = new Set<string>();
  for (const [name, command] of entries)
    if (!SERVICE_SCRIPT.test(name)) for (const source of run(command)) if (!service.has(source)) found.add(source);
  return [...found];
}

/** The source file a path of a package's manifest names, or the source its build output is built from. */
function sourceOf(folder: string, path: string): string[] {
  const candidates = [path, ...sourcesOfBuilt(path, /^(\.\/)?(dist|build|lib|out)\//)];
  const found = candidates
    .map((candidate) => resolve(folder, candidate))
    .find((candidate) => candidate.startsWith(folder) && isSourceFile(candidate) && existsSync(candidate));
  return found ? [found] : [];
}

/**
 * The source a subpath of a workspace package stands for (`backend-lib/src/temporal/workflows`
 * without `node_modules`): the file under the package's folder, or the source of the build output
 * the subpath names (`@acme/db/dist/client.js` → `src/client.ts`). `isProjectFile` says which
 * candidates the loaded project holds: a lookup, where probing the disk for each of some twenty
 * candidates, for every import of a subpath, cost a second of a large monorepo's run.
 */
export function workspaceSubpathSource(
  folder: string,
  subpath: string,
  isProjectFile: (path: string) => boolean,
): string | undefined {
  const path = resolve(folder, subpath);
  if (!path.startsWith(folder)) return undefined;
  const stem = path.replace(BUILT_EXTENSION, '');
  const candidates = [
    ...exportedPaths(manifestOf(folder), `./${subpath}`).flatMap((exported) => {
      const target = resolve(folder, exported);
      return [target, ...sourcesOfBuilt(target, /\/(dist|build|lib|out)\/(?!.*\/(?:dist|build|lib|out)\/)/)];
    }),
    ...sourcesOfBuilt(path, /\/(dist|build|lib|out)\/(?!.*\/(?:dist|build|lib|out)\/)/),
    ...SOURCE_EXTENSIONS.map((extension) => join(stem, `index${extension}`)),
  ];
  return candidates.find((candidate) => isSourceFile(candidate) && isProjectFile(candidate));
}

/**
 * The conditions a package's `exports` may put its source or its build behind, most likely to
 * name the source first (a `source` or `development` condition, then the `.d.ts` next to the
 * build, then the build itself).
 */
const EXPORT_CONDITIONS = ['source', 'development', 'types', 'import', 'require', 'node', 'default'];

/**
 * The paths a package's `exports` map gives a subpath (`.` or `./adapters/ollama`), under each of
 * {@link EXPORT_CONDITIONS}: Node's subpath exports, patterns and conditions
 * (nodejs.org/api/packages.html#subpath-exports), read by `resolve.exports`. A package without
 * `exports`, or one that does not export the subpath, gives none.
 */
function exportedPaths(manifest: unknown, subpath: string): string[] {
  if (typeof manifest !== 'object' || manifest === null || !('exports' in manifest)) return [];
  const paths = new Set<string>();
  for (const condition of EXPORT_CONDITIONS) {
    try {
      for (const path of exportsOf(manifest, subpath, { conditions: [condition], unsafe: true }) ?? []) paths.add(path);
    } catch {
      // `Missing "./x" specifier`: the map does not export the subpath under this condition.
    }
  }
  return [...paths];
}

const manifests = new Map<string, unknown>();

/** A folder's package.json, read once; a missing or broken one reads as nothing. */
function manifestOf(folder: string): unknown {
  if (!manifests.has(folder)) {
    let manifest: unknown;
    try {
      manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    } catch {
      manifest = undefined;
    }
    manifests.set(folder, manifest);
  }
  return manifests.get(folder);
}

/** A build output's extension (`index.js`, `index.d.ts`). */
const BUILT_EXTENSION = /\.(d\.ts|js|mjs|cjs|ts)$/;

/** The sources a build output may be built from: its build folder read as `src/`, then the same stem. */
function sourcesOfBuilt(path: string, buildFolder: RegExp): string[] {
  const stem = path.replace(BUILT_EXTENSION, '');
  const sourceStem = stem.replace(buildFolder, (folder) => folder.replace(/(dist|build|lib|out)\/$/, 'src/'));
  return [
    ...SOURCE_EXTENSIONS.map((extension) => sourceStem + extension),
    ...SOURCE_EXTENSIONS.map((extension) => stem + extension),
  ];
}

/**
 * The source file a relative import of build output stands for, when the output is not in the
 * tree: a package's `bin/index.js` runs `import '../lib/index.js'`, built from `src/index.ts`.
 */
export function builtSource(specifier: string, from: string): string | undefined {
  if (!specifier.startsWith('.') || !/(?:^|\/)(?:dist|build|lib|out)\//.test(specifier)) return undefined;
  const built = resolve(dirname(from), specifier);
  for (const candidate of sourcesOfBuilt(built, /\/(dist|build|lib|out)\/(?!.*\/(?:dist|build|lib|out)\/)/))
    if (isSourceFile(candidate) && existsSync(candidate)) return candidate;
  return undefined;
}
