import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

import type { Project, ts as TS } from 'ts-morph';

import { isComponentFile, isSourceFile, insideRoot, SOURCE_EXTENSIONS, toPosix, walk } from './files.js';
import { IgnoreFilter } from './ignore.js';
import { morph, type MorphTs } from './morph.js';
import {
  expandWorkspaces,
  packageEntry,
  packageFolders,
  workspaceGlobs,
  workspaceSubpathSource,
} from './workspaces.js';
import { declaredLambdas, type DeclaredLambda } from './iac/lambdas.js';

/**
 * Loads the set of files to analyse and the compiler options each one resolves imports
 * with: from the root tsconfig (or `--tsconfig`) with its project references, from each
 * workspace package's tsconfig, from the nearest tsconfig of each source where the root has none
 * (an Nx monorepo), or, in a repository without any, from a walk of the tree.
 * Configuration, module resolution and the cross-file {@link LoadedProject.morph} project are
 * ts-morph's; only configuration is read here, and nothing of the project is executed.
 */

/** Bad input the user can fix: the CLI prints it as one line and exits with 2. */
export class ProjectError extends Error {
  override name = 'ProjectError';
}

/** One loaded tsconfig (or the default options of a repository without one). */
export interface ProjectConfig {
  /** Absolute path of the tsconfig; undefined for the default configuration. */
  path?: string;
  /** ts-morph's compiler options: plain data, but enum values of ts-morph's TypeScript. */
  options: TS.CompilerOptions;
  files: string[];
  references: string[];
  resolutionCache: TS.ModuleResolutionCache;
}

/** A tsconfig the loader could read only in part, or not at all (its package is read without it). */
export interface ProjectProblem {
  /** Repo-relative POSIX path of the tsconfig (or infrastructure file) that could not be read whole. */
  file: string;
  reason: string;
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
  /** Workspace packages by name → absolute folder, for imports of a subpath (`@scope/pkg/src/x`). */
  workspaceFolders: Map<string, string>;
  /**
   * The tree's other packages by name → absolute folder (no declared workspace has their name):
   * imported by name and subpath as workspaces are, but no workspace of the report.
   */
  packageFolders: Map<string, string>;
  /** Tsconfigs read in part or skipped, sorted by file. */
  problems: ProjectProblem[];
  /** The Lambdas the tree's infrastructure files (SAM, CloudFormation, Serverless) declare, with their event sources. */
  lambdas: DeclaredLambda[];
  /** Absolute paths of the single-file components (`.vue`, `.svelte`) under the root: not analysed, their imports give roles. */
  components: string[];
  /**
   * The ts-morph project that answers what a module exports through re-exports. It holds no
   * file until one is asked about, resolves only to project files ({@link resolveImport}) and
   * loads no lib, so it parses and binds only the barrels a lookup passes through.
   */
  morph: Project;
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

function formatDiagnostic(ts: MorphTs, diagnostic: TS.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  const file = diagnostic.file?.fileName;
  return file ? `${file}: ${message}` : message;
}

/** A tsconfig read with what could be read: `problem` says what was left out. */
export interface ReadTsconfig {
  parsed: TS.ParsedCommandLine;
  problem?: string;
}

/** "File '{0}' not found." and "Cannot read file '{0}'.": what an unresolvable `extends` gives. */
const MISSING_FILE_CODES = new Set([6053, 5083]);

/**
 * Reads one tsconfig (with `extends`) with the given TypeScript: ts-morph's for loading, the
 * `typescript` peer's for a typed program built with that copy. An `extends` that cannot be
 * resolved (a shared config in a package that is not installed) is left out, and the result
 * says so; anything else wrong throws ProjectError.
 */
export function readTsconfig(ts: MorphTs, path: string, linked: ReadonlyMap<string, string> = new Map()): ReadTsconfig {
  const first = readTsconfigStrictly(ts, path, false, linked);
  if (!(first instanceof ProjectError)) return { parsed: first };
  const withoutExtends = readTsconfigStrictly(ts, path, true, linked);
  if (withoutExtends instanceof ProjectError) throw first;
  return {
    parsed: withoutExtends,
    problem: `${first.message.replace(/^Invalid tsconfig: /, '')}; read without its extends`,
  };
}

function readTsconfigStrictly(
  ts: MorphTs,
  path: string,
  dropExtends: boolean,
  linked: ReadonlyMap<string, string>,
): TS.ParsedCommandLine | ProjectError {
  const text = ts.sys.readFile(path);
  if (text === undefined) throw new ProjectError(`Cannot read tsconfig ${path}`);
  const parsedJson: { config?: unknown; error?: TS.Diagnostic } = ts.parseConfigFileTextToJson(path, text);
  const { error } = parsedJson;
  if (error) throw new ProjectError(`Invalid tsconfig: ${formatDiagnostic(ts, error)}`);
  let config = parsedJson.config;
  if (dropExtends) {
    if (typeof config !== 'object' || config === null || !('extends' in config)) return new ProjectError('no extends');
    config = Object.fromEntries(Object.entries(config).filter(([key]) => key !== 'extends'));
  }
  // A workspace package is where an install would link it (`node_modules/<name>`), so a config
  // that `extends` one (`@acme/tsconfig/node.json`) reads it without an install.
  const at = (file: string): string => linkedPath(file, linked) ?? file;
  const host: TS.ParseConfigHost & TS.ModuleResolutionHost = {
    ...ts.sys,
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    fileExists: (file) => ts.sys.fileExists(file) || ts.sys.fileExists(at(file)),
    readFile: (file) => ts.sys.readFile(file) ?? ts.sys.readFile(at(file)),
    directoryExists: (folder) =>
      ts.sys.directoryExists(folder) ||
      ts.sys.directoryExists(at(folder)) ||
      (linked.size > 0 && /[\\/]node_modules$/.test(folder)),
  };
  const parse = (existing: TS.CompilerOptions): TS.ParsedCommandLine =>
    ts.parseJsonConfigFileContent(config, host, dirname(path), existing, path);
  let parsed = parse({});
  if (
    parsed.errors.some((diagnostic) => TS_DEPRECATION_CODES.has(diagnostic.code)) &&
    !parsed.options.ignoreDeprecations
  ) {
    parsed = parse({ ignoreDeprecations: '6.0' });
  }
  // 18003 "No inputs were found" is normal for a solution tsconfig with only references.
  const fatal = parsed.errors.filter(
    (diagnostic) =>
      diagnostic.category === ts.DiagnosticCategory.Error &&
      diagnostic.code !== 18003 &&
      !TS_DEPRECATION_CODES.has(diagnostic.code),
  );
  const [firstFatal] = fatal;
  if (!firstFatal) return parsed;
  const failure = new ProjectError(`Invalid tsconfig: ${formatDiagnostic(ts, firstFatal)}`);
  // Only a file that cannot be found is worth a second reading without `extends`.
  if (!dropExtends && fatal.every((diagnostic) => MISSING_FILE_CODES.has(diagnostic.code))) return failure;
  throw failure;
}

/** `…/node_modules/@acme/tsconfig/node.json` as the workspace package `@acme/tsconfig`'s own file, or undefined. */
function linkedPath(file: string, linked: ReadonlyMap<string, string>): string | undefined {
  if (linked.size === 0) return undefined;
  const posix = toPosix(file);
  const at = posix.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = posix.slice(at + '/node_modules/'.length).split('/');
  const length = parts[0]?.startsWith('@') ? 2 : 1;
  const folder = linked.get(parts.slice(0, length).join('/'));
  return folder === undefined ? undefined : join(folder, ...parts.slice(length));
}

function referencePath(reference: TS.ProjectReference): string {
  const path = reference.path;
  // A reference names a folder (its tsconfig.json) or a config file; a folder that is gone still names its tsconfig.
  const isFolder = existsSync(path) ? statSync(path).isDirectory() : !path.endsWith('.json');
  return isFolder ? join(path, 'tsconfig.json') : path;
}

function newConfig(
  path: string | undefined,
  parsed: Pick<TS.ParsedCommandLine, 'options' | 'fileNames' | 'projectReferences'>,
  root: string,
): ProjectConfig {
  const options = { ...parsed.options };
  if (path === undefined) Object.assign(options, { allowJs: true });
  return {
    ...(path === undefined ? {} : { path }),
    options,
    files: parsed.fileNames.map((file) => resolve(root, file)),
    references: (parsed.projectReferences ?? []).map(referencePath),
    resolutionCache: morph().ts.createModuleResolutionCache(path ? dirname(path) : root, (name) => name, options),
  };
}

function defaultOptions(ts: MorphTs): TS.CompilerOptions {
  return {
    allowJs: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    jsx: ts.JsxEmit.Preserve,
    noEmit: true,
  };
}

/**
 * Folders whose sources are generated or built, skipped when looking for sources no tsconfig
 * covers: framework output (`.next`, `.nuxt`, `.svelte-kit`, `.turbo`...: any dot-folder),
 * vendored copies, generated clients, bundled static assets.
 */
const GENERATED_FOLDER = /^(?:\..+|vendor|generated|__generated__|static|public|assets|lib-cov|tmp|temp)$/;
const GENERATED_FILE = /\.(?:min|bundle|generated)\.[cm]?js$|\.generated\.[cm]?tsx?$/;

function uncoveredFilter(filter: IgnoreFilter): Pick<IgnoreFilter, 'isIgnored'> {
  return {
    isIgnored: (path, isDirectory) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (isDirectory ? GENERATED_FOLDER.test(name) : GENERATED_FILE.test(name)) return true;
      return filter.isIgnored(path, isDirectory);
    },
  };
}

/**
 * The project config of a folder: its tsconfig.json, or else its jsconfig.json, which is "a
 * tsconfig.json with allowJs set to true" (https://code.visualstudio.com/docs/languages/jsconfig):
 * a JavaScript project's `paths` aliases (`@/workers/*`) live there. TypeScript applies jsconfig's
 * defaults (`allowJs`, `maxNodeModuleJsDepth: 2`) itself when the file is named so.
 */
function projectConfigIn(dir: string): string | undefined {
  for (const name of ['tsconfig.json', 'jsconfig.json']) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

/** The project config in `dir` or the nearest folder above it, up to the root; `known` caches per folder. */
function nearestTsconfig(root: string, dir: string, known = new Map<string, string | undefined>()): string | undefined {
  if (known.has(dir)) return known.get(dir);
  let found = projectConfigIn(dir);
  if (found === undefined && dir !== root && dir.startsWith(root + sep))
    found = nearestTsconfig(root, dirname(dir), known);
  known.set(dir, found);
  return found;
}

/** Loads the project under `options.root`; throws ProjectError on bad input. */
/** `path` resolved, through symlinks when it exists (a missing path is reported by its caller as given). */
function realPathOf(path: string): string {
  const absolute = resolve(path);
  return existsSync(absolute) ? realpathSync(absolute) : absolute;
}

export function loadProject(options: LoadOptions): LoadedProject {
  const { ts } = morph();
  // The real path: TypeScript resolves imports to real paths, so a root reached through a symlink
  // would hold files that no import resolves to, and every cross-file fact would be lost.
  const root = realpathSync(resolve(options.root));
  const realRoot = root;
  const filter = new IgnoreFilter(root, options.ignore);
  const configs: ProjectConfig[] = [];
  const problems: ProjectProblem[] = [];
  const unreadFolders: string[] = [];
  const seen = new Set<string>();

  const load = (path: string, required: boolean): void => {
    const absolute = resolve(path);
    if (seen.has(absolute)) return;
    seen.add(absolute);
    if (!existsSync(absolute)) {
      if (required) throw new ProjectError(`tsconfig not found: ${absolute}`);
      return;
    }
    const read = readTsconfig(ts, absolute, workspaceFolders);
    if (read.problem !== undefined) problems.push({ file: toPosix(relative(root, absolute)), reason: read.problem });
    const config = newConfig(absolute, read.parsed, root);
    configs.push(config);
    // References are loaded whether or not the referencing config has files of its own.
    for (const reference of config.references) loadPackage(reference);
  };
  /** A referenced or workspace package's tsconfig: one that is broken must not stop the others. */
  const loadPackage = (path: string): void => {
    try {
      load(path, true);
    } catch (error) {
      if (!(error instanceof ProjectError)) throw error;
      problems.push({
        file: toPosix(relative(root, resolve(path))),
        reason: `${error.message}; its folder is read with default options`,
      });
      unreadFolders.push(dirname(resolve(path)));
    }
  };

  const workspacePackages = new Map<string, string>();
  const workspaceFolders = new Map<string, string>();
  const folders = expandWorkspaces(root, workspaceGlobs(root));
  for (const folder of folders) {
    const entry = packageEntry(folder);
    if (entry?.entry !== undefined) workspacePackages.set(entry.name, entry.entry);
    if (entry) workspaceFolders.set(entry.name, folder);
  }
  // The tree's other packages, where no declared workspace has their name (workspaces.ts `packageFolders`).
  const otherPackages = new Map<string, string>();
  for (const folder of packageFolders(root)) {
    if (filter.isIgnored(toPosix(relative(root, folder)))) continue;
    const entry = packageEntry(folder);
    if (!entry || workspaceFolders.has(entry.name) || otherPackages.has(entry.name)) continue;
    if (entry.entry !== undefined) workspacePackages.set(entry.name, entry.entry);
    otherPackages.set(entry.name, folder);
  }

  if (options.tsconfig !== undefined) load(realPathOf(options.tsconfig), true);
  else {
    const rootConfig = projectConfigIn(root);
    if (rootConfig !== undefined) load(rootConfig, true);
  }

  for (const folder of folders) {
    const tsconfig = projectConfigIn(folder);
    if (options.tsconfig === undefined && tsconfig !== undefined) loadPackage(tsconfig);
  }

  // No root tsconfig and no workspaces, yet tsconfigs below (an Nx or Lerna monorepo: a
  // tsconfig.base.json at the root, one tsconfig per app extending it): each source is read with
  // its own app's tsconfig, so the aliases in `paths` resolve, rather than the whole tree with
  // the defaults.
  const nearest = new Map<string, string | undefined>();
  if (options.tsconfig === undefined && configs.length === 0)
    for (const file of walk(root, root, uncoveredFilter(filter), realRoot)) {
      const tsconfig = nearestTsconfig(root, dirname(file), nearest);
      if (tsconfig !== undefined && !seen.has(tsconfig)) loadPackage(tsconfig);
    }

  const configOf = new Map<string, ProjectConfig>();
  const accept = (file: string): boolean => {
    if (!isSourceFile(file) || !existsSync(file)) return false;
    const relativePath = toPosix(relative(root, file));
    if (relativePath.startsWith('..') || isAbsolute(relativePath)) return false;
    // A tsconfig's include follows folder symlinks: a file whose real path leaves the root is not the repository's.
    if (!insideRoot(file, realRoot)) return false;
    return !filter.isIgnored(relativePath);
  };
  // A file is read with the nearest tsconfig that includes it, as an editor reads it: a root
  // tsconfig without `include` covers every file below it, yet a workspace package's own tsconfig
  // (with its `paths` aliases) is the one the package's files are written against.
  const depth = (config: ProjectConfig): number => (config.path === undefined ? -1 : dirname(config.path).length);
  for (const config of [...configs].sort((a, b) => depth(b) - depth(a))) {
    for (const file of config.files) {
      if (!configOf.has(file) && accept(file)) configOf.set(file, config);
    }
  }

  // A package whose tsconfig could not be read: its files, with the defaults, beside the others.
  if (unreadFolders.length > 0 && configs.length > 0) {
    const fallback = newConfig(
      undefined,
      { options: defaultOptions(ts), fileNames: [], projectReferences: undefined },
      root,
    );
    configs.push(fallback);
    for (const folder of unreadFolders)
      if (existsSync(folder))
        for (const file of walk(root, folder, filter, realRoot)) if (!configOf.has(file)) configOf.set(file, fallback);
  }

  // Sources no loaded tsconfig covers (a package outside the workspaces, a folder a tsconfig
  // excludes) are still the repository's code: each is read with the nearest tsconfig above it
  // that covers it, or else with the default options. An explicit --tsconfig is the user's scope.
  if (options.tsconfig === undefined && configs.length > 0) {
    const uncovered = walk(root, root, uncoveredFilter(filter), realRoot).filter((file) => !configOf.has(file));
    let fallback: ProjectConfig | undefined;
    for (const file of uncovered) {
      if (configOf.has(file)) continue;
      const tsconfig = nearestTsconfig(root, dirname(file), nearest);
      if (tsconfig !== undefined && !seen.has(tsconfig)) {
        const before = configs.length;
        loadPackage(tsconfig);
        for (const config of configs.slice(before))
          for (const covered of config.files)
            if (!configOf.has(covered) && accept(covered)) configOf.set(covered, config);
      }
      if (configOf.has(file)) continue;
      fallback ??= newConfig(
        undefined,
        { options: defaultOptions(ts), fileNames: [], projectReferences: undefined },
        root,
      );
      if (!configs.includes(fallback)) configs.push(fallback);
      configOf.set(file, fallback);
    }
  }

  if (configs.length === 0) {
    // No tsconfig anywhere: every JS/TS file under the root, with allowJs.
    const config = newConfig(
      undefined,
      { options: defaultOptions(ts), fileNames: [], projectReferences: undefined },
      root,
    );
    configs.push(config);
    for (const file of walk(root, root, filter, realRoot)) configOf.set(file, config);
  }

  let files = [...configOf.keys()];
  if (options.paths.length > 0) {
    const wanted = options.paths.map((path) => realPathOf(path));
    files = files.filter((file) => wanted.some((path) => file === path || file.startsWith(path + sep)));
  }
  files.sort();
  // Infrastructure files that declare Lambdas: one that does not parse is listed, as a tsconfig is.
  const declared = declaredLambdas(root);
  for (const problem of declared.problems)
    problems.push({ file: toPosix(relative(root, problem.file)), reason: problem.reason });
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const loaded: LoadedProject = {
    root,
    files,
    configs,
    configOf,
    workspacePackages,
    workspaceFolders,
    packageFolders: otherPackages,
    problems,
    lambdas: declared.lambdas.filter((lambda) => configOf.has(lambda.file)),
    components: walk(root, root, filter, realRoot, isComponentFile),
    morph: undefined as never,
  };
  loaded.morph = exportsProject(loaded);
  return loaded;
}

/**
 * The ts-morph project for exported declarations. Its program follows only `export … from`
 * specifiers, resolved as {@link resolveImport} resolves them: what a module re-exports leads
 * to the files that define it, while what it imports (and every package and lib) stays out, so
 * the program holds the barrels asked about and the files they re-export, nothing else.
 */
function exportsProject(loaded: LoadedProject): Project {
  const { Project, ts } = morph();
  const reExported = (file: TS.SourceFile | undefined): Set<string> => {
    const specifiers = new Set<string>();
    for (const statement of file?.statements ?? []) {
      if (
        ts.isExportDeclaration(statement) &&
        statement.moduleSpecifier !== undefined &&
        ts.isStringLiteralLike(statement.moduleSpecifier)
      )
        specifiers.add(statement.moduleSpecifier.text);
    }
    return specifiers;
  };
  const project: Project = new Project({
    compilerOptions: { allowJs: true, noLib: true, types: [], noEmit: true, target: ts.ScriptTarget.Latest },
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
    resolutionHost: () => ({
      resolveModuleNames: (moduleNames, containingFile) => {
        const specifiers = reExported(project.getSourceFile(containingFile)?.compilerNode);
        return moduleNames.map((name) => {
          const target = specifiers.has(name) ? resolveImport(loaded, name, containingFile) : undefined;
          const extension = target && SOURCE_EXTENSIONS.find((candidate) => target.endsWith(candidate));
          return target && extension
            ? {
                resolvedFileName: target,
                // TS.Extension's members are these very strings ('.ts', '.tsx', ...).
                // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
                extension: extension as TS.Extension,
                isExternalLibraryImport: false,
              }
            : undefined;
        });
      },
    }),
  });
  return project;
}

/** Resolves an import specifier written in `file` to an analysed file, or undefined. */
export function resolveImport(project: LoadedProject, specifier: string, file: string): string | undefined {
  const config = project.configOf.get(file) ?? enclosingConfig(project, file) ?? project.configs[0];
  if (!config) return undefined;
  const workspaceEntry = project.workspacePackages.get(specifier);
  const { ts } = morph();
  const resolved = ts.resolveModuleName(specifier, file, config.options, ts.sys, config.resolutionCache).resolvedModule;
  let target = resolved?.resolvedFileName;
  if (target !== undefined) target = mapOutputToSource(project, realpathOrSelf(target));
  if ((target === undefined || !project.configOf.has(target)) && workspaceEntry !== undefined) target = workspaceEntry;
  if (target === undefined || !project.configOf.has(target)) {
    const subpath = workspaceSubpath(project, specifier);
    if (subpath) target = subpathSource(project, subpath.folder, subpath.subpath);
  }
  return target !== undefined && project.configOf.has(target) ? target : undefined;
}

const subpathSources = new WeakMap<LoadedProject, Map<string, string | undefined>>();

/** {@link workspaceSubpathSource} against the project's files, once per subpath: every file that imports it asks. */
function subpathSource(project: LoadedProject, folder: string, subpath: string): string | undefined {
  let known = subpathSources.get(project);
  if (!known) subpathSources.set(project, (known = new Map<string, string | undefined>()));
  const key = `${folder}\0${subpath}`;
  if (!known.has(key))
    known.set(
      key,
      workspaceSubpathSource(folder, subpath, (path) => project.configOf.has(path)),
    );
  return known.get(key);
}

/** For a file no tsconfig lists (a `.vue` component): the tsconfig of the deepest folder that holds it. */
function enclosingConfig(project: LoadedProject, file: string): ProjectConfig | undefined {
  let found: { config: ProjectConfig; depth: number } | undefined;
  for (const config of project.configs) {
    if (config.path === undefined) continue;
    const folder = dirname(config.path);
    if (!file.startsWith(folder + sep) || (found && found.depth >= folder.length)) continue;
    found = { config, depth: folder.length };
  }
  return found?.config;
}

/** `backend-lib/src/x` or `@acme/db/client`: a subpath of a workspace package, with the package's folder. */
export function workspaceSubpath(
  project: LoadedProject,
  specifier: string,
): { folder: string; subpath: string } | undefined {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  if (parts.length <= nameLength) return undefined;
  const name = parts.slice(0, nameLength).join('/');
  const folder = project.workspaceFolders.get(name) ?? project.packageFolders.get(name);
  return folder === undefined ? undefined : { folder, subpath: parts.slice(nameLength).join('/') };
}

/** The workspace package a file (absolute) belongs to, by name: the one whose folder holds it most closely. */
export function workspacePackageOf(project: LoadedProject, file: string): string | undefined {
  let found: { name: string; length: number } | undefined;
  for (const [name, folder] of project.workspaceFolders) {
    const inside = file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
    if (inside && folder.length > (found?.length ?? -1)) found = { name, length: folder.length };
  }
  return found?.name;
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
    const stem = join(rootDir ?? (config.path ? dirname(config.path) : project.root), relative(outDir, path)).replace(
      /\.(d\.ts|d\.mts|d\.cts|js|mjs|cjs)$/,
      '',
    );
    for (const extension of SOURCE_EXTENSIONS) {
      if (project.configOf.has(stem + extension)) return stem + extension;
    }
  }
  return path;
}
