import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

import type * as TS from 'typescript';

import { ts } from './typescript.js';

import { IgnoreFilter, SKIPPED_DIRECTORIES } from './ignore.js';

/**
 * Loads the set of files to analyse and the compiler options each one resolves imports
 * with: from the root tsconfig (or `--tsconfig`) with its project references, from each
 * workspace package's tsconfig, or, in a repository without any, from a walk of the tree.
 * Only configuration is read here; nothing of the project is executed.
 */

/** Bad input the user can fix: the CLI prints it as one line and exits with 2. */
export class ProjectError extends Error {
  override name = 'ProjectError';
}

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

/** One loaded tsconfig (or the default options of a repository without one). */
export interface ProjectConfig {
  /** Absolute path of the tsconfig; undefined for the default configuration. */
  path?: string;
  options: TS.CompilerOptions;
  files: string[];
  references: string[];
  resolutionCache: TS.ModuleResolutionCache;
}

export interface LoadedProject {
  /** Absolute root of the scan; report paths are relative to it. */
  root: string;
  /** Absolute paths of the files to analyse, sorted. */
  files: string[];
  configs: ProjectConfig[];
  /** The config each file resolves imports with. */
  configOf: Map<string, ProjectConfig>;
  /** Workspace packages by name → absolute entry file, for imports of `@scope/pkg` without node_modules. */
  workspacePackages: Map<string, string>;
}

export interface LoadOptions {
  root: string;
  /** Absolute files or folders to restrict the scan to; empty means the whole root. */
  paths: readonly string[];
  tsconfig?: string;
  ignore: readonly string[];
}

// TypeScript 6 deprecates options TS 5 configs still use (moduleResolution node, baseUrl);
// loading them must not fail, so the deprecations are acknowledged.
const TS_DEPRECATION_CODES = new Set([5101, 5107]);

function formatDiagnostic(diagnostic: TS.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  const file = diagnostic.file?.fileName;
  return file ? `${file}: ${message}` : message;
}

function isSourceFile(path: string): boolean {
  return !/\.d\.[cm]?ts$/.test(path) && SOURCE_EXTENSIONS.some((extension) => path.endsWith(extension));
}

function readTsconfig(path: string): TS.ParsedCommandLine {
  const text = ts.sys.readFile(path);
  if (text === undefined) throw new ProjectError(`Cannot read tsconfig ${path}`);
  const parsedJson: { config?: unknown; error?: TS.Diagnostic } = ts.parseConfigFileTextToJson(path, text);
  const { config, error } = parsedJson;
  if (error) throw new ProjectError(`Invalid tsconfig: ${formatDiagnostic(error)}`);
  const host: TS.ParseConfigHost = {
    ...ts.sys,
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
  };
  const parse = (existing: TS.CompilerOptions): TS.ParsedCommandLine =>
    ts.parseJsonConfigFileContent(config, host, dirname(path), existing, path);
  let parsed = parse({});
  if (parsed.errors.some((diagnostic) => TS_DEPRECATION_CODES.has(diagnostic.code)) && !parsed.options.ignoreDeprecations) {
    parsed = parse({ ignoreDeprecations: '6.0' });
  }
  // 18003 "No inputs were found" is normal for a solution tsconfig with only references.
  const fatal = parsed.errors.filter(
    (diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error && diagnostic.code !== 18003 && !TS_DEPRECATION_CODES.has(diagnostic.code),
  );
  const [firstFatal] = fatal;
  if (firstFatal) throw new ProjectError(`Invalid tsconfig: ${formatDiagnostic(firstFatal)}`);
  return parsed;
}

function referencePath(reference: TS.ProjectReference): string {
  const path = reference.path;
  return existsSync(path) && statSync(path).isDirectory() ? join(path, 'tsconfig.json') : path;
}

/** Reads `workspaces` from package.json or `packages:` from pnpm-workspace.yaml into folder globs. */
function workspaceGlobs(root: string): string[] {
  const globs: string[] = [];
  const packageJson = join(root, 'package.json');
  if (existsSync(packageJson)) {
    try {
      const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as { workspaces?: string[] | { packages?: string[] } };
      const workspaces = Array.isArray(manifest.workspaces) ? manifest.workspaces : manifest.workspaces?.packages;
      if (Array.isArray(workspaces)) globs.push(...workspaces.filter((entry) => typeof entry === 'string'));
    } catch {
      // A broken package.json is not ours to judge; the scan goes on without workspaces.
    }
  }
  const pnpm = join(root, 'pnpm-workspace.yaml');
  if (existsSync(pnpm)) {
    let inPackages = false;
    for (const line of readFileSync(pnpm, 'utf8').split(/\r?\n/)) {
      if (/^packages\s*:/.test(line)) inPackages = true;
      else if (/^\S/.test(line)) inPackages = false;
      else if (inPackages) {
        const match = /^\s*-\s*['"]?([^'"#]+?)['"]?\s*(?:#.*)?$/.exec(line);
        if (match?.[1]) globs.push(match[1]);
      }
    }
  }
  return globs;
}

/** Expands workspace globs of the form `dir/*`, `dir/**` or a plain folder into existing folders. */
function expandWorkspaces(root: string, globs: readonly string[]): string[] {
  const folders: string[] = [];
  for (const glob of globs) {
    if (glob.startsWith('!')) continue;
    const base = glob.replace(/\/\*\*?$/, '');
    const absolute = resolve(root, base);
    if (!absolute.startsWith(root) || !existsSync(absolute)) continue;
    if (base === glob) {
      folders.push(absolute);
      continue;
    }
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) folders.push(join(absolute, entry.name));
    }
  }
  return folders.sort();
}

function packageEntry(folder: string): { name: string; entry: string } | undefined {
  const manifestPath = join(folder, 'package.json');
  if (!existsSync(manifestPath)) return undefined;
  let manifest: { name?: unknown; types?: unknown; typings?: unknown; main?: unknown; source?: unknown };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  if (typeof manifest.name !== 'string') return undefined;
  // Prefer the source: a workspace package's built output is usually not in the tree.
  const candidates = [manifest.source, manifest.types, manifest.typings, manifest.main]
    .filter((value): value is string => typeof value === 'string')
    .flatMap((value) => {
      const stem = value.replace(/\.(d\.ts|js|mjs|cjs|ts)$/, '');
      const sourceStem = stem.replace(/^(\.\/)?(dist|build|lib|out)\//, '$1src/');
      return [value, ...SOURCE_EXTENSIONS.map((extension) => sourceStem + extension), ...SOURCE_EXTENSIONS.map((extension) => stem + extension)];
    });
  candidates.push(...SOURCE_EXTENSIONS.map((extension) => `src/index${extension}`), ...SOURCE_EXTENSIONS.map((extension) => `index${extension}`));
  for (const candidate of candidates) {
    const path = resolve(folder, candidate);
    if (isSourceFile(path) && existsSync(path)) return { name: manifest.name, entry: path };
  }
  return undefined;
}

/** Walks the tree for source files, skipping ignored folders and symlinks that leave the root. */
function walk(root: string, start: string, filter: IgnoreFilter, realRoot: string): string[] {
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
      else if (isSourceFile(path)) found.push(path);
    }
  };
  if (statSync(start).isDirectory()) visit(start);
  else if (isSourceFile(start)) found.push(start);
  return found;
}

function insideRoot(path: string, realRoot: string): boolean {
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

function newConfig(path: string | undefined, parsed: Pick<TS.ParsedCommandLine, 'options' | 'fileNames' | 'projectReferences'>, root: string): ProjectConfig {
  const options = { ...parsed.options };
  if (path === undefined) Object.assign(options, { allowJs: true });
  return {
    ...(path === undefined ? {} : { path }),
    options,
    files: parsed.fileNames.map((file) => resolve(root, file)),
    references: (parsed.projectReferences ?? []).map(referencePath),
    resolutionCache: ts.createModuleResolutionCache(path ? dirname(path) : root, (name) => name, options),
  };
}

const DEFAULT_OPTIONS: TS.CompilerOptions = {
  allowJs: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  jsx: ts.JsxEmit.Preserve,
  noEmit: true,
};

/** Loads the project under `options.root`; throws ProjectError on bad input. */
export function loadProject(options: LoadOptions): LoadedProject {
  const root = resolve(options.root);
  const realRoot = realpathSync(root);
  const filter = new IgnoreFilter(root, options.ignore);
  const configs: ProjectConfig[] = [];
  const seen = new Set<string>();

  const load = (path: string, required: boolean): void => {
    const absolute = resolve(path);
    if (seen.has(absolute)) return;
    seen.add(absolute);
    if (!existsSync(absolute)) {
      if (required) throw new ProjectError(`tsconfig not found: ${absolute}`);
      return;
    }
    const config = newConfig(absolute, readTsconfig(absolute), root);
    configs.push(config);
    // References are loaded whether or not the referencing config has files of its own.
    for (const reference of config.references) load(reference, true);
  };

  if (options.tsconfig !== undefined) load(options.tsconfig, true);
  else if (existsSync(join(root, 'tsconfig.json'))) load(join(root, 'tsconfig.json'), true);

  const workspacePackages = new Map<string, string>();
  for (const folder of expandWorkspaces(root, workspaceGlobs(root))) {
    const tsconfig = join(folder, 'tsconfig.json');
    if (options.tsconfig === undefined && existsSync(tsconfig)) load(tsconfig, true);
    const entry = packageEntry(folder);
    if (entry) workspacePackages.set(entry.name, entry.entry);
  }

  const configOf = new Map<string, ProjectConfig>();
  const accept = (file: string): boolean => {
    if (!isSourceFile(file) || !existsSync(file)) return false;
    const relativePath = toPosix(relative(root, file));
    if (relativePath.startsWith('..') || isAbsolute(relativePath)) return false;
    if (lstatSync(file).isSymbolicLink() && !insideRoot(file, realRoot)) return false;
    return !filter.isIgnored(relativePath);
  };
  for (const config of configs) {
    for (const file of config.files) {
      if (!configOf.has(file) && accept(file)) configOf.set(file, config);
    }
  }

  if (configs.length === 0) {
    // No tsconfig anywhere: every JS/TS file under the root, with allowJs.
    const config = newConfig(undefined, { options: DEFAULT_OPTIONS, fileNames: [] }, root);
    configs.push(config);
    for (const file of walk(root, root, filter, realRoot)) configOf.set(file, config);
  }

  let files = [...configOf.keys()];
  if (options.paths.length > 0) {
    const wanted = options.paths.map((path) => resolve(path));
    files = files.filter((file) => wanted.some((path) => file === path || file.startsWith(path + sep)));
  }
  files.sort();
  return { root, files, configs, configOf, workspacePackages };
}

/** Resolves an import specifier written in `file` to an analysed file, or undefined. */
export function resolveImport(project: LoadedProject, specifier: string, file: string): string | undefined {
  const config = project.configOf.get(file) ?? project.configs[0];
  if (!config) return undefined;
  const workspaceEntry = project.workspacePackages.get(specifier);
  const resolved = ts.resolveModuleName(specifier, file, config.options, ts.sys, config.resolutionCache).resolvedModule;
  let target = resolved?.resolvedFileName;
  if (target !== undefined) target = mapOutputToSource(project, realpathOrSelf(target));
  if ((target === undefined || !project.configOf.has(target)) && workspaceEntry !== undefined) target = workspaceEntry;
  return target !== undefined && project.configOf.has(target) ? target : undefined;
}

const realpaths = new Map<string, string>();

/** The real path of a resolved module; memoised, since `realpathSync` stats every segment. */
export function realpathOrSelf(path: string): string {
  let real = realpaths.get(path);
  if (real === undefined) {
    try {
      real = realpathSync(path);
    } catch {
      real = path;
    }
    realpaths.set(path, real);
  }
  return real;
}

/** Maps a referenced project's emitted `.d.ts`/`.js` back to its source, as project references do. */
function mapOutputToSource(project: LoadedProject, path: string): string {
  if (project.configOf.has(path)) return path;
  for (const config of project.configs) {
    const { outDir, rootDir } = config.options;
    if (outDir === undefined || !path.startsWith(outDir + sep)) continue;
    const stem = join(rootDir ?? (config.path ? dirname(config.path) : project.root), relative(outDir, path)).replace(/\.(d\.ts|d\.mts|d\.cts|js|mjs|cjs)$/, '');
    for (const extension of SOURCE_EXTENSIONS) {
      if (project.configOf.has(stem + extension)) return stem + extension;
    }
  }
  return path;
}
