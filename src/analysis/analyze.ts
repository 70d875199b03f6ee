import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';

import type * as TS from 'typescript';

import { ts } from './typescript.js';

import type { IdempotencySettings, ImportedName } from '../model/settings.js';
import type { FunctionSummary, ImportedRegistration } from '../model/effects.js';
import type { Finding, HandlerEntry, NotAnalysed, Verdict } from '../report/model.js';
import { createFactsRule, emptyFacts, type ExportFact, type FileFacts } from './facts.js';
import { RuleRunner, toFindings, type FileLintResult } from './lint.js';
import { mayInform, mayMatter } from '../model/prefilter.js';
import { loadProject, realpathOrSelf, resolveImport, toPosix, type LoadedProject } from './project.js';

/**
 * The whole-program analysis behind `idempotency-check`. Pass 1 runs the plugin's rules and
 * the facts rule over every file; the import graph then turns each file's imports into the
 * `settings.idempotency` the rules read (which imports are pools, per-attempt helpers, ...);
 * pass 2 re-runs the rules only over the files whose settings are not empty. The handler
 * inventory is assembled from the facts, following calls across files. Nothing here prints.
 */

export interface AnalyzeOptions {
  root: string;
  /** Absolute files or folders to restrict the scan to; empty for the whole root. */
  paths: readonly string[];
  tsconfig?: string;
  ignore: readonly string[];
  /** Load the type checker and hand its program to the rules. */
  types: boolean;
  /** `apply`: fix and report what remains; `dry-run`: compute the fixes, change nothing. */
  fix?: 'apply' | 'dry-run';
  includeSuppressed: boolean;
  /** Files larger than this many bytes are listed as not analysed (default {@link DEFAULT_MAX_FILE_SIZE}). */
  maxFileSize?: number;
  onProgress?: (done: number, total: number) => void;
  /** Skip files the text prefilter rules out (default true; false is for tests that compare). */
  prefilter?: boolean;
}

/** 1 MiB: larger sources are generated (bundles, API clients) and would dominate the scan. */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface FileFix {
  /** Repo-relative POSIX path. */
  file: string;
  /** Absolute path. */
  path: string;
  before: string;
  after: string;
}

export interface AnalysisResult {
  findings: Finding[];
  handlers: HandlerEntry[];
  notAnalysed: NotAnalysed[];
  files: number;
  fixes: FileFix[];
  /** The cross-file settings computed for each file that has any, by repo-relative path. */
  settings: Record<string, IdempotencySettings>;
}

/** How many levels of calls into other files the inventory follows. */
const CROSS_FILE_DEPTH = 2;

interface FileState {
  path: string;
  relative: string;
  facts: FileFacts;
  findings: Finding[];
  fixable: boolean;
  /** Not parsed in pass 1: the prefilter found nothing a rule could start from. */
  skipped: boolean;
  /** For a skipped file: the module specifiers it imports, read from TypeScript's parse. */
  specifiers?: string[];
  /** For a skipped file: it holds tokens of facts an importer may need ({@link mayInform}). */
  informs?: boolean;
}

export function analyze(options: AnalyzeOptions): AnalysisResult {
  const project = loadProject(options);
  const runner = new RuleRunner(project.root);
  const sink = { current: emptyFacts() };
  const internalRules = { facts: createFactsRule(sink) };
  const notAnalysed: NotAnalysed[] = [];
  const states = new Map<string, FileState>();
  const total = project.files.length;
  const prefilter = options.prefilter ?? true;

  // The prefilter first: only the files it keeps are parsed by the Linter, and in typed mode
  // only they are the programs' roots (TypeScript adds what they import, for their types).
  const kept: { path: string; relative: string; text: string }[] = [];
  for (const path of project.files) {
    const relativePath = toPosix(relative(project.root, path));
    const text = readSource(path, relativePath, options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, notAnalysed);
    if (text === undefined) continue;
    if (!prefilter || mayMatter(text)) {
      kept.push({ path, relative: relativePath, text });
      continue;
    }
    // Not worth a full parse, but a file that does not parse is still reported as such.
    const source = parseOnly(path, text);
    const syntaxError = firstSyntaxError(source);
    if (syntaxError !== undefined) notAnalysed.push({ file: relativePath, reason: syntaxError });
    else states.set(path, { path, relative: relativePath, facts: emptyFacts(), findings: [], fixable: false, skipped: true, specifiers: moduleSpecifiers(source), informs: mayInform(text) });
  }
  const programs = options.types ? typedPrograms(project, new Set(kept.map((file) => file.path))) : undefined;
  const inProgram = new Set(programs?.flatMap((program) => program.getSourceFiles().map((source) => source.fileName)));
  /** Typed options for a file a program holds; a file reached later may not be in one, and is linted from syntax. */
  const runOptionsFor = (path: string): { programs?: TS.Program[] } => (programs && inProgram.has(path) ? { programs } : {});

  /** Pass 1 for one file: the plugin's rules and the facts rule. */
  const lint = (path: string, relativePath: string, text: string): FileState | undefined => {
    sink.current = emptyFacts();
    const result = runSafely(() => runner.run(path, text, { ...runOptionsFor(path), internalRules }));
    if (typeof result === 'string' || result.fatal !== undefined) {
      notAnalysed.push({ file: relativePath, reason: typeof result === 'string' ? result : (result.fatal ?? 'not parsed') });
      return undefined;
    }
    return {
      path,
      relative: relativePath,
      facts: sink.current,
      findings: toFindings(result, relativePath, options.includeSuppressed),
      fixable: result.messages.some((message) => message.fix !== undefined),
      skipped: false,
    };
  };

  // Pass 1: every file the prefilter keeps, plugin rules and facts together.
  const skippedCount = total - kept.length;
  kept.forEach((file, index) => {
    options.onProgress?.(skippedCount + index, total);
    const state = lint(file.path, file.relative, file.text);
    if (state) states.set(file.path, state);
  });
  kept.length = 0;
  options.onProgress?.(total, total);

  // Skipped files that other files' facts reach after all, until nothing more is reached.
  for (let reached = reachedSkippedFiles(project, states); reached.length > 0; reached = reachedSkippedFiles(project, states)) {
    for (const state of reached) {
      const text = readFileSync(state.path, 'utf8');
      const linted = lint(state.path, state.relative, text);
      if (linted) states.set(state.path, linted);
      else states.delete(state.path);
    }
  }

  const graph = new ImportGraph(project, states);

  // Pass 2: files whose imports carry cross-file facts, and files with fixes to apply.
  const fixes: FileFix[] = [];
  const computed: Record<string, IdempotencySettings> = {};
  for (const state of states.values()) {
    const settings = graph.settingsFor(state);
    const hasSettings = Object.keys(settings).length > 0;
    if (hasSettings) computed[state.relative] = settings;
    if (!hasSettings && !(options.fix && state.fixable)) continue;
    const text = readFileSync(state.path, 'utf8');
    sink.current = emptyFacts();
    // A program describes the text as it was, so fixing passes re-parse without types.
    const passOptions = options.fix ? {} : runOptionsFor(state.path);
    const result = runSafely(() => runner.run(state.path, text, { ...passOptions, internalRules, settings, fix: options.fix === 'apply' }));
    if (typeof result === 'string' || result.fatal !== undefined) {
      if (state.skipped) {
        states.delete(state.path);
        notAnalysed.push({ file: state.relative, reason: typeof result === 'string' ? result : (result.fatal ?? 'not parsed') });
      }
      continue;
    }
    // With the settings, a function registered in another file is known as a handler here.
    state.facts.handlers = sink.current.handlers;
    if (hasSettings || options.fix === 'apply') state.findings = toFindings(result, state.relative, options.includeSuppressed);
    let fixed = result.fixed;
    if (options.fix === 'dry-run') fixed = runner.run(state.path, text, { settings, fix: true }).fixed;
    if (fixed !== undefined) fixes.push({ file: state.relative, path: state.path, before: text, after: fixed });
  }

  const findings = [...states.values()].flatMap((state) => state.findings);
  return {
    findings,
    handlers: inventory(states, graph, findings),
    notAnalysed: notAnalysed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    files: states.size,
    fixes: fixes.sort((a, b) => (a.file < b.file ? -1 : 1)),
    settings: computed,
  };
}

/** Reads one source, or lists it as not analysed (too large, unreadable, binary). */
function readSource(path: string, relativePath: string, limit: number, notAnalysed: NotAnalysed[]): string | undefined {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > limit) {
      notAnalysed.push({ file: relativePath, reason: `${megabytes(size)} is over the ${megabytes(limit)} limit (raise it with --max-file-size)` });
      return undefined;
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    notAnalysed.push({ file: relativePath, reason: `cannot read: ${(error as Error).message}` });
    return undefined;
  }
  if (text.slice(0, 8192).includes('\u0000')) {
    notAnalysed.push({ file: relativePath, reason: 'binary file' });
    return undefined;
  }
  return text;
}

/** TypeScript's own parse, without the ESTree conversion. */
function parseOnly(path: string, text: string): TS.SourceFile {
  const kind = /\.[cm]?jsx?$/.test(path) ? ts.ScriptKind.JSX : path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  // JSDoc is not parsed: it holds no syntax errors, and typescript-eslint skips it without types too.
  return ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, kind);
}

/** The parser's first syntax error, formatted as the Linter reports it. */
function firstSyntaxError(source: TS.SourceFile): string | undefined {
  // parseDiagnostics is internal but has held the parser's errors since TypeScript 1.x.
  const diagnostic = (source as unknown as { parseDiagnostics?: readonly TS.DiagnosticWithLocation[] }).parseDiagnostics?.[0];
  if (!diagnostic) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
  return `Parsing error: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} (${line + 1}:${character + 1})`;
}

/** The module specifiers of a file's top-level imports, re-exports and `require` calls. */
function moduleSpecifiers(source: TS.SourceFile): string[] {
  const specifiers: string[] = [];
  const requireOf = (node: TS.Node | undefined): void => {
    let target = node;
    while (target && (ts.isPropertyAccessExpression(target) || ts.isAwaitExpression(target) || ts.isParenthesizedExpression(target))) target = target.expression;
    if (target && ts.isCallExpression(target) && (target.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(target.expression) && target.expression.text === 'require'))) {
      const first = target.arguments[0];
      if (first && ts.isStringLiteralLike(first)) specifiers.push(first.text);
    }
  };
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteralLike(statement.moduleSpecifier)) {
      specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference) && ts.isStringLiteralLike(statement.moduleReference.expression)) {
      specifiers.push(statement.moduleReference.expression.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) requireOf(declaration.initializer);
    } else if (ts.isExpressionStatement(statement)) {
      requireOf(ts.isBinaryExpression(statement.expression) ? statement.expression.right : statement.expression);
    }
  }
  return specifiers;
}

/**
 * The skipped files that the analysed files' facts reach: imported by an analysed file when
 * they may inform it, reached by a handler's imports (two files deep, as the inventory follows
 * calls), registered as a handler by another file, or importing an analysed file that exports a
 * fact (a pool, a client, a helper defined elsewhere).
 */
function reachedSkippedFiles(project: LoadedProject, states: ReadonlyMap<string, FileState>): FileState[] {
  const reached = new Map<string, FileState>();
  const skippedTarget = (specifier: string, from: string): FileState | undefined => {
    const target = resolveLocal(project, specifier, from);
    const state = target === undefined ? undefined : states.get(target);
    return state?.skipped ? state : undefined;
  };
  const exportsFacts = new Set<string>();
  const handlerReach = new Map<string, number>();
  for (const state of states.values()) {
    if (state.skipped) continue;
    if ([...state.facts.exports.values()].some((fact) => fact.kinds.length > 0)) exportsFacts.add(state.path);
    if (state.facts.handlers.length > 0) handlerReach.set(state.path, CROSS_FILE_DEPTH);
    for (const registered of state.facts.importedHandlers) {
      const target = skippedTarget(registered.specifier, state.path);
      if (target) reached.set(target.path, target);
    }
  }
  // Files a handler's calls may lead into, breadth first.
  const queue = [...handlerReach.keys()];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const depth = handlerReach.get(file) ?? 0;
    const state = states.get(file);
    if (!state || depth <= 0) continue;
    const specifiers = state.skipped ? (state.specifiers ?? []) : [...state.facts.imports.map((binding) => binding.specifier), ...state.facts.reExports.map((entry) => entry.specifier)];
    for (const specifier of specifiers) {
      const target = resolveLocal(project, specifier, file);
      if (target === undefined || (handlerReach.get(target) ?? -1) >= depth - 1) continue;
      handlerReach.set(target, depth - 1);
      queue.push(target);
    }
  }
  for (const [file] of handlerReach) {
    const state = states.get(file);
    if (state?.skipped) reached.set(file, state);
  }
  // Only specifiers that can name a fact-exporting file are resolved: `./db.js` for `db.ts`,
  // `./db` for `db/index.ts`, and bare specifiers (workspace packages, `paths`).
  const factNames = new Set<string>();
  for (const file of exportsFacts) {
    const stem = basename(file).replace(/\.[^.]+$/, '');
    factNames.add(stem);
    if (stem === 'index') factNames.add(basename(dirname(file)));
  }
  const mayNameFactFile = (specifier: string): boolean =>
    !specifier.startsWith('.') || factNames.has(basename(specifier).replace(/\.[cm]?[jt]sx?$/, ''));
  for (const state of states.values()) {
    if (state.skipped) {
      if (factNames.size === 0) continue;
      const informed = (state.specifiers ?? []).some((specifier) => {
        const target = mayNameFactFile(specifier) ? resolveLocal(project, specifier, state.path) : undefined;
        return target !== undefined && exportsFacts.has(target);
      });
      if (informed) reached.set(state.path, state);
      continue;
    }
    // What each import names, followed through analysed barrels to the file that defines it.
    for (const binding of state.facts.imports) {
      const target = resolveLocal(project, binding.specifier, state.path);
      const defining = target === undefined ? undefined : skippedDefinition(project, states, target, binding.imported);
      if (defining?.informs) reached.set(defining.path, defining);
    }
  }
  return [...reached.values()];
}

/** The skipped file that defines `name` as exported from `file`, following analysed barrels' re-exports. */
function skippedDefinition(project: LoadedProject, states: ReadonlyMap<string, FileState>, file: string, name: string): FileState | undefined {
  if (name === '*') return states.get(file)?.skipped ? states.get(file) : undefined;
  return throughReExports(states, file, name, (specifier, from) => resolveLocal(project, specifier, from), (state, exported) => {
    if (state.skipped) return state;
    // Defined in an analysed file: its own facts are already known.
    return state.facts.exports.has(exported) ? STOP : undefined;
  });
}

const STOP = Symbol('stop');

/**
 * Follows `name` exported from `file` through re-exports (`export { a as b } from`, `export *
 * from`) until `answer` has an answer for a file, or returns {@link STOP} to end that branch.
 */
function throughReExports<T>(
  states: ReadonlyMap<string, FileState>,
  file: string,
  name: string,
  resolve: (specifier: string, from: string) => string | undefined,
  answer: (state: FileState, name: string) => T | typeof STOP | undefined,
  depth = 0,
): T | undefined {
  const state = states.get(file);
  if (!state || depth > 8) return undefined;
  const own = answer(state, name);
  if (own === STOP) return undefined;
  if (own !== undefined) return own;
  for (const reExport of state.facts.reExports) {
    if (reExport.exported !== name && reExport.exported !== '*') continue;
    const target = resolve(reExport.specifier, file);
    const found = target === undefined ? undefined : throughReExports(states, target, reExport.imported === '*' ? name : reExport.imported, resolve, answer, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Relative specifiers, workspace packages and `paths` mappings can lead to files in the tree. */
function isLocalSpecifier(project: LoadedProject, specifier: string, from: string): boolean {
  return specifier.startsWith('.') || project.workspacePackages.has(specifier) || project.configOf.get(from)?.options.paths !== undefined;
}

function resolveLocal(project: LoadedProject, specifier: string, from: string): string | undefined {
  return isLocalSpecifier(project, specifier, from) ? resolveImport(project, specifier, from) : undefined;
}

function runSafely(run: () => FileLintResult): FileLintResult | string {
  try {
    return run();
  } catch (error) {
    // A crash on one file (a parser limit, a rule bug) must not end the scan.
    return `analysis failed: ${(error as Error).message.split('\n')[0]}`;
  }
}

/**
 * One TypeScript program per loaded tsconfig, handed to typescript-eslint in typed mode. Its
 * roots are the files the prefilter kept and the project's declaration files; an import of a
 * project file the prefilter set aside is left unresolved, so the program holds the kept files,
 * the packages they import and nothing else (what those files define reaches the rules through
 * the import graph's settings, not through types). Only the programs are built: no diagnostics
 * are asked for, and the checker binds lazily as rules ask for types.
 */
function typedPrograms(project: LoadedProject, roots: ReadonlySet<string>): TS.Program[] {
  const isDeclaration = (file: string): boolean => /\.d\.[cm]?ts$/.test(file);
  const setAside = (file: string): boolean => {
    const real = realpathOrSelf(file);
    return project.configOf.has(real) && !roots.has(real) && !isDeclaration(real);
  };
  const programs: TS.Program[] = [];
  for (const config of project.configs) {
    const files = config.path ? config.files : [...project.configOf].filter(([, owner]) => owner === config).map(([file]) => file);
    const rootNames = files.filter((file) => roots.has(file) || isDeclaration(file));
    if (!rootNames.some((file) => roots.has(file))) continue;
    const host = ts.createCompilerHost(config.options, true);
    const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => host.getCanonicalFileName(name), config.options);
    host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, options, containingSourceFile) =>
      literals.map((literal) => {
        const mode = ts.getModeForUsageLocation(containingSourceFile, literal, options);
        const { resolvedModule } = ts.resolveModuleName(literal.text, containingFile, options, host, cache, redirectedReference, mode);
        return resolvedModule && !resolvedModule.isExternalLibraryImport && setAside(resolvedModule.resolvedFileName) ? { resolvedModule: undefined } : { resolvedModule };
      });
    programs.push(ts.createProgram({ rootNames, options: config.options, host }));
  }
  return programs;
}

/** Resolves imports between analysed files and what each import denotes. */
class ImportGraph {
  constructor(
    private readonly project: LoadedProject,
    private readonly states: ReadonlyMap<string, FileState>,
  ) {}

  resolve(specifier: string, from: string): string | undefined {
    // Bare specifiers of packages outside the tree cost a resolution each; relative ones are the common case.
    return resolveImport(this.project, specifier, from);
  }

  /** The fact behind `name` exported from `file`, following re-exports and `export *`. */
  exportOf(file: string, name: string): { file: string; fact: ExportFact } | undefined {
    return throughReExports(this.states, file, name, (specifier, from) => this.resolve(specifier, from), (state, exported) => {
      const fact = state.facts.exports.get(exported);
      return fact ? { file: state.path, fact } : undefined;
    });
  }

  /** The `settings.idempotency` for one file, from what its imports resolve to. */
  settingsFor(state: FileState): IdempotencySettings {
    const lists: Required<IdempotencySettings> = { pools: [], perAttemptFunctions: [], keyHeaderSources: [], boundedClients: [], timeoutlessClients: [], timeoutlessClientFactories: [], consumerHandlers: [] };
    const add = (list: ImportedName[], entry: ImportedName): void => {
      if (!list.some((existing) => existing.from === entry.from && existing.name === entry.name)) list.push(entry);
    };
    for (const binding of state.facts.imports) {
      if (binding.imported === '*' || !isLocalSpecifier(this.project, binding.specifier, state.path)) continue;
      const target = this.resolve(binding.specifier, state.path);
      const found = target === undefined ? undefined : this.exportOf(target, binding.imported);
      if (!found) continue;
      const entry = { from: binding.specifier, name: binding.imported };
      for (const kind of found.fact.kinds) {
        if (kind === 'pool') add(lists.pools, entry);
        else if (kind === 'perAttemptFunction') add(lists.perAttemptFunctions, entry);
        else if (kind === 'keyHeaderSource') add(lists.keyHeaderSources, entry);
        else if (kind === 'timeoutlessClient') add(lists.timeoutlessClients, entry);
        else if (kind === 'timeoutlessClientFactory') add(lists.timeoutlessClientFactories, entry);
        else add(lists.boundedClients, entry);
      }
    }
    // Handlers registered elsewhere with a function this file exports.
    for (const registered of this.registrationsOf(state.path)) {
      add(lists.consumerHandlers, { from: registered.specifier, name: registered.imported });
    }
    const settings: IdempotencySettings = {};
    for (const [key, list] of Object.entries(lists) as [keyof IdempotencySettings, ImportedName[]][]) {
      if (list.length > 0) settings[key] = list;
    }
    return settings;
  }

  private registrations: Map<string, ImportedRegistration[]> | undefined;

  /** Registrations in any file of a function that `file` exports. */
  registrationsOf(file: string): ImportedRegistration[] {
    if (!this.registrations) {
      this.registrations = new Map();
      for (const other of this.states.values()) {
        for (const registered of other.facts.importedHandlers) {
          const target = this.resolve(registered.specifier, other.path);
          if (target === undefined) continue;
          const list = this.registrations.get(target) ?? [];
          list.push(registered);
          this.registrations.set(target, list);
        }
      }
    }
    return this.registrations.get(file) ?? [];
  }

  /** A summary merged with the summaries of the imported functions it calls, `depth` files deep. */
  expand(summary: FunctionSummary, file: string, depth: number, seen = new Set<string>()): { effects: Set<string>; protections: Set<string>; unresolved: boolean } {
    const effects = new Set(summary.effects);
    const protections = new Set(summary.protections);
    let unresolved = false;
    for (const call of summary.calls) {
      const target = this.resolve(call.specifier, file);
      if (target === undefined) continue;
      const key = `${target}\0${call.imported}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const found = this.exportOf(target, call.imported);
      if (!found?.fact.summary || depth <= 0) {
        unresolved = true;
        continue;
      }
      const inner = this.expand(found.fact.summary, found.file, depth - 1, seen);
      for (const effect of inner.effects) effects.add(effect);
      for (const protection of inner.protections) protections.add(protection);
      unresolved ||= inner.unresolved;
    }
    return { effects, protections, unresolved };
  }
}

/** Effects a claim or an idempotency key makes harmless when repeated. */
const KEYED_EFFECTS = new Set(['http-write']);

function inventory(states: ReadonlyMap<string, FileState>, graph: ImportGraph, findings: readonly Finding[]): HandlerEntry[] {
  const handlers: HandlerEntry[] = [];
  for (const state of states.values()) {
    for (const handler of state.facts.handlers) {
      const { effects, protections, unresolved } = graph.expand(handler.summary, state.path, CROSS_FILE_DEPTH);
      const inside = findings.some(
        (finding) => !finding.suppressed && finding.file === state.relative && finding.line >= handler.line && finding.line <= handler.endLine,
      );
      const entry: HandlerEntry = {
        file: state.relative,
        line: handler.line,
        column: handler.column,
        broker: handler.broker,
        effects: [...effects],
        protections: [...protections],
        verdict: verdictOf(effects, protections, unresolved, inside),
      };
      if (handler.name !== undefined) entry.name = handler.name;
      if (handler.queue !== undefined) entry.queue = handler.queue;
      // A function registered in another file: that registration names the broker and queue.
      const registration = handler.broker === 'generic' ? graph.registrationsOf(state.path).find((entry) => entry.imported === (handler.exportedAs ?? handler.name)) : undefined;
      if (registration) {
        entry.broker = registration.broker;
        if (registration.queue !== undefined) entry.queue = registration.queue;
      }
      handlers.push(entry);
    }
  }
  return handlers;
}

/**
 * protected: every effect is covered (a checked claim covers all; an idempotency key covers
 * outgoing writes) and no rule reports inside the handler. unprotected: a finding inside, or
 * an effect nothing covers. unknown: no effect seen, but calls lead where the analysis stops.
 */
export function verdictOf(effects: ReadonlySet<string>, protections: ReadonlySet<string>, unresolved: boolean, hasFindings: boolean): Verdict {
  if (hasFindings) return 'unprotected';
  if (effects.size === 0) return unresolved ? 'unknown' : 'protected';
  if (protections.has('claim')) return 'protected';
  for (const effect of effects) {
    const keyed = KEYED_EFFECTS.has(effect) || effect !== 'sql-write';
    if (!(keyed && protections.has('idempotency-key'))) return 'unprotected';
  }
  return 'protected';
}
