import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import type * as TS from 'typescript';

import type { IdempotencySettings } from '../model/settings.js';
import { summariesMayMatter } from '../model/summary-relevance.js';
import { mayRegister } from '../model/handler/may-register.js';
import { mayInform } from '../model/prefilter.js';
import { fileRoleDecision, type RoleDecision } from '../model/roles.js';
import { nearestManifest } from '../model/roles/package.js';
import type { Finding, HandlerEntry, NotAnalysed } from '../report/model.js';
import { DEFAULT_FILE_BUDGET_MS } from './budget.js';
import { cacheFor } from './cache.js';
import { emptyFacts } from './facts.js';
import { FilePasses, type FilePassOptions, type FilePassOutcome, type FilePassTask } from './file-pass.js';
import { toPosix } from './files.js';
import { ImportGraph, type FileState } from './graph.js';
import { inventory } from './inventory.js';
import type { RuleConfigLookup } from './lint.js';
import { LintPool } from './lint-pool.js';
import { createPrefilter } from './prefilter.js';
import { typedPrograms } from './programs.js';
import { type ProjectProblem, loadProject, workspacePackageOf } from './project.js';
import { computedLoadFolders } from '../model/modules.js';
import { reachedSkippedFiles } from './reach.js';
import { reachedDeferredFiles } from './shard.js';
import {
  DEFAULT_MAX_FILE_SIZE,
  exportedNames,
  firstSyntaxError,
  implementedNames,
  runsNothing,
  globalsRead,
  importBindings,
  typeImportBindings,
  type ImportBinding,
  moduleSpecifiers,
  parseOnly,
  readSource,
} from './sources.js';

/**
 * The passes of the whole-program analysis behind `idempotency-check`. Pass 1 runs the plugin's rules and
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
  /** Given the project's files, the rules and settings per file; the plugin's defaults without it. */
  ruleConfig?: (files: readonly string[]) => RuleConfigLookup;
  /** Skip files the text prefilter rules out (default true; false is for tests that compare). */
  prefilter?: boolean;
  /** `--cache`: the file that keeps pass results between runs (not used with `fix`). */
  cache?: string;
  /**
   * `--shard`, `--files-from`: the files (repo-relative POSIX) whose results are reported. The
   * others are read only as far as the share's cross-file facts need them.
   */
  share?: (relativePath: string) => boolean;
  /**
   * `--jobs`: the threads the untyped passes use, this one among them (default 1: every file in
   * this thread). Typed runs and `--fix` use one.
   */
  jobs?: number;
  /**
   * `--file-budget`: milliseconds one pass over one file may take before it is given up and the
   * file listed as not analysed (default {@link DEFAULT_FILE_BUDGET_MS}; 0 for none).
   */
  fileBudget?: number;
}

/** How long the passes over one file took, for `--timing` and the bench. */
interface FileTiming {
  /** Repo-relative POSIX path. */
  file: string;
  ms: number;
  /** How many times the rules ran over it: 2 when it was linted again with other modules' facts. */
  passes: number;
}

interface FileFix {
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
  /** Files analysed: those of the share, with `share`. */
  files: number;
  /** With `share`: files analysed in the whole project, the share's and the others. */
  projectFiles: number;
  fixes: FileFix[];
  /** The cross-file settings computed for each file that has any, by repo-relative path. */
  settings: Record<string, IdempotencySettings>;
  /** Tsconfigs read in part or skipped (also in notAnalysed). */
  projectProblems: readonly ProjectProblem[];
  /** With `cache`: how many files' results came from it, how many were computed, and why an old cache was dropped. */
  cache?: { hits: number; misses: number; discarded?: string };
  /** Every file the rules ran over (not those from the cache), slowest first. */
  timings: FileTiming[];
  /** The threads the passes ran on, this one among them. */
  threads: number;
}

export function analyze(options: AnalyzeOptions): AnalysisResult {
  const project = loadProject(options);
  const ruleConfig = options.ruleConfig?.(project.files);
  // A tsconfig read in part is reported beside the files that could not be analysed.
  const notAnalysed: NotAnalysed[] = project.problems.map((problem) => ({ ...problem }));
  const states = new Map<string, FileState>();
  const total = project.files.length;
  const prefilter = options.prefilter ?? true;
  const keeps = createPrefilter(ruleConfig);
  // A file's cached results hold for the rules, severities and settings its config gives it.
  const cache = cacheFor<CachedPasses>(options, project, (file) => ruleConfig?.(join(project.root, file)));

  // The prefilter first: only the files it keeps are parsed by the Linter, and in typed mode
  // only they are the programs' roots (TypeScript adds what they import, for their types).
  const kept: { path: string; relative: string; text: string }[] = [];
  for (const path of project.files) {
    const relativePath = toPosix(relative(project.root, path));
    const text = readSource(path, relativePath, options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, notAnalysed);
    if (text === undefined) continue;
    const matters = !prefilter || keeps(path, relativePath, text);
    // Outside the share, a file that matters waits, as a skipped file, until the share's facts reach it.
    const deferred = matters && options.share !== undefined && !options.share(relativePath);
    if (matters && !deferred) {
      kept.push({ path, relative: relativePath, text });
      continue;
    }
    // Not worth a full parse, but a file that does not parse is still reported as such.
    const skipped = cache.remember('skip', relativePath, text, (): Skipped => {
      const source = parseOnly(path, text);
      const syntaxError = firstSyntaxError(source);
      return syntaxError === undefined
        ? {
            specifiers: moduleSpecifiers(source),
            loads: moduleSpecifiers(source, true),
            imports: importBindings(source),
            typeImports: typeImportBindings(source),
            informs: mayInform(text),
            exportNames: exportedNames(source),
            implements: implementedNames(source),
            runsNothing: runsNothing(source),
          }
        : { syntaxError };
    });
    if (skipped.syntaxError !== undefined) notAnalysed.push({ file: relativePath, reason: skipped.syntaxError });
    else
      states.set(path, {
        path,
        relative: relativePath,
        // Its role from its path and text: an entry (a test set aside) gives the modules it loads theirs.
        facts: {
          ...emptyFacts(),
          role: skippedRole(path, relativePath, text),
          runsNothing: skipped.runsNothing ?? false,
          computedLoadFolders: computedLoadFolders(text),
        },
        findings: [],
        fixable: false,
        skipped: true,
        specifiers: skipped.specifiers ?? [],
        loads: skipped.loads ?? [],
        informs: skipped.informs ?? false,
        ...(skipped.imports === undefined ? {} : { imports: skipped.imports }),
        ...(skipped.typeImports?.length ? { typeImports: skipped.typeImports } : {}),
        ...(skipped.exportNames === undefined ? {} : { exportNames: skipped.exportNames }),
        ...(skipped.implements?.length ? { implements: skipped.implements } : {}),
        ...(deferred ? { deferred, registers: mayRegister(text) } : {}),
      });
  }
  // The programs are made when the first file is linted with types: a run whose every file comes
  // from the cache needs none.
  // A share's programs are those of the whole run, so every file sees the same types.
  const roots = new Set([
    ...kept.map((file) => file.path),
    ...[...states.values()].filter((state) => state.deferred).map((state) => state.path),
  ]);
  let typed: { programs: TS.Program[]; files: Set<string> } | undefined;
  /** Typed options for a file a program holds; a file reached later may not be in one, and is linted from syntax. */
  const runOptionsFor = (path: string): { programs?: TS.Program[] } => {
    if (!options.types) return {};
    if (typed === undefined) {
      const programs = typedPrograms(project, roots);
      // Making a checker binds every file of its program: work for the run, not for the first file's budget.
      for (const program of programs) program.getTypeChecker();
      typed = {
        programs,
        files: new Set(programs.flatMap((program) => program.getSourceFiles().map((source) => source.fileName))),
      };
    }
    return typed.files.has(path) ? { programs: typed.programs } : {};
  };

  const budget = options.fileBudget ?? DEFAULT_FILE_BUDGET_MS;
  const passes = new FilePasses(project.root, ruleConfig, budget, options.includeSuppressed);
  // Untyped passes spread over worker threads; a typed program and `--fix` stay in this thread.
  const jobs = options.types || options.fix ? 1 : (options.jobs ?? 1);
  const pool =
    jobs > 1
      ? new LintPool(
          jobs,
          { root: project.root, budgetMs: budget, includeSuppressed: options.includeSuppressed },
          ruleConfig,
        )
      : undefined;
  const spent = new Map<string, { ms: number; passes: number }>();
  /** Counts a pass's time against its file. */
  const record = (relativePath: string, ms: number): void => {
    const before = spent.get(relativePath) ?? { ms: 0, passes: 0 };
    spent.set(relativePath, { ms: before.ms + ms, passes: before.passes + 1 });
  };
  /**
   * The passes over these files, results in order: in this thread, typed with the programs (not
   * when fixing pass 2, whose programs describe the text before the fixes), or over the pool.
   */
  const runAll = (
    tasks: readonly FilePassTask[],
    pass: 1 | 2,
    onEach: (done: number) => void = () => {},
  ): Map<FilePassTask, FilePassOutcome> => {
    const typed = (path: string): FilePassOptions => (pass === 2 && options.fix ? {} : runOptionsFor(path));
    const ran = pool
      ? pool.runAll(tasks, passes, onEach)
      : tasks.map((task, index) => {
          // The programs are built, and their checker made, outside the first file's budget.
          const result = passes.run(task, { ...typed(task.path), fix: pass === 2 && options.fix === 'apply' });
          onEach(index + 1);
          return result;
        });
    for (const { task, ms } of ran) record(task.relative, ms);
    return new Map(ran.map(({ task, outcome }) => [task, outcome]));
  };
  /** What the pass over a task gave: every task handed to {@link runAll} has its outcome. */
  const outcomeOf = (ran: ReadonlyMap<FilePassTask, FilePassOutcome>, task: FilePassTask): FilePassOutcome => {
    const outcome = ran.get(task);
    if (outcome === undefined) throw new Error(`internal error: no pass over ${task.relative}`);
    return outcome;
  };

  /**
   * Pass 1 over files: the plugin's rules and the facts rule, or what the cache kept of them;
   * undefined for a file that could not be analysed (listed with its reason).
   */
  const lintAll = (
    files: readonly FilePassTask[],
    onEach?: (done: number) => void,
  ): { file: FilePassTask; state: FileState | undefined }[] => {
    const cached = files.map((file) => ({ file, passOne: cache.get('pass1', file.relative, file.text) }));
    const ran = runAll(
      cached.flatMap(({ file, passOne }) => (passOne === undefined ? [file] : [])),
      1,
      onEach,
    );
    return cached.map(({ file, passOne: kept }) => {
      let passOne = kept;
      if (passOne === undefined) {
        const outcome = outcomeOf(ran, file);
        passOne =
          'failure' in outcome
            ? { failure: outcome.failure }
            : {
                relative: file.relative,
                facts: outcome.facts,
                findings: outcome.findings,
                fixable: outcome.fixable,
                skipped: false,
              };
        // A file over the budget may finish on a faster machine or with a larger budget: not kept.
        if (!('failure' in outcome && outcome.overBudget === true))
          passOne = cache.put('pass1', file.relative, file.text, passOne);
      }
      if ('failure' in passOne) {
        notAnalysed.push({ file: file.relative, reason: passOne.failure });
        return { file, state: undefined };
      }
      return { file, state: { path: file.path, ...passOne } };
    });
  };

  // Pass 1: every file the prefilter keeps, plugin rules and facts together.
  const skippedCount = total - kept.length;
  options.onProgress?.(skippedCount, total);
  for (const { state } of lintAll(kept, (done) => options.onProgress?.(skippedCount + done, total)))
    if (state) states.set(state.path, state);
  kept.length = 0;
  options.onProgress?.(total, total);

  // Skipped files that other files' facts reach after all, until nothing more is reached.
  const graph = new ImportGraph(project, states);
  const { share } = options;
  const inShareFile = (file: string): boolean => share === undefined || share(file);
  const inShare = (state: FileState): boolean => inShareFile(state.relative);
  const reach = (): FileState[] => {
    const reached = reachedSkippedFiles(project, states, graph, inShare);
    if (share === undefined) return reached;
    const paths = new Set(reached.map((state) => state.path));
    return [...reached, ...reachedDeferredFiles(project, states, inShare).filter((state) => !paths.has(state.path))];
  };
  for (let reached = reach(); reached.length > 0; reached = reach()) {
    const files = reached.map((state) => ({
      path: state.path,
      relative: state.relative,
      text: readFileSync(state.path, 'utf8'),
    }));
    for (const { file, state } of lintAll(files)) {
      if (state) states.set(file.path, state);
      else states.delete(file.path);
    }
  }

  graph.settle();

  // Pass 2: files whose imports carry cross-file facts, and files with fixes to apply. What each
  // file needs is decided in order, the passes run together, and their results are applied in
  // the same order.
  const fixes: FileFix[] = [];
  const computed: Record<string, IdempotencySettings> = {};
  const tasks: FilePassTask[] = [];
  const steps: ((ran: ReadonlyMap<FilePassTask, FilePassOutcome>) => void)[] = [];
  for (const state of states.values()) {
    // A file outside the share gives pass 1's facts; its own findings are not reported.
    if (!inShare(state)) continue;
    const settings = graph.settingsFor(state);
    const hasSettings = Object.keys(settings).length > 0;
    if (hasSettings) computed[state.relative] = settings;
    if (!hasSettings && !(options.fix && state.fixable)) continue;
    const text = readFileSync(state.path, 'utf8');
    if (
      !(options.fix && state.fixable) &&
      !settingsMayMatter(settings, state, text, ruleConfig?.(state.path)?.settings)
    )
      continue;
    const settingsKey = JSON.stringify(settings);
    const cached = options.fix ? undefined : cache.get('pass2', state.relative, text, settingsKey);
    if (cached !== undefined) {
      steps.push(() => {
        if ('failure' in cached) {
          if (state.skipped) {
            states.delete(state.path);
            notAnalysed.push({ file: state.relative, reason: cached.failure });
          }
        } else {
          state.facts.handlers = cached.handlers;
          if (hasSettings) state.findings = cached.findings;
        }
      });
      continue;
    }
    const task: FilePassTask = { path: state.path, relative: state.relative, text, settings };
    tasks.push(task);
    steps.push((ran) => {
      const outcome = outcomeOf(ran, task);
      if ('failure' in outcome) {
        const overBudget = outcome.overBudget === true;
        if (!options.fix && !overBudget)
          cache.put('pass2', state.relative, text, { failure: outcome.failure }, settingsKey);
        if (state.skipped) {
          states.delete(state.path);
          notAnalysed.push({ file: state.relative, reason: outcome.failure });
        } else if (overBudget) {
          // Its findings stand as the file alone gives them; what other files tell it is missing.
          notAnalysed.push({
            file: state.relative,
            reason: `cross-file pass ${outcome.failure}; findings from the file alone`,
          });
        }
        return;
      }
      // With the settings, a function registered in another file is known as a handler here.
      state.facts.handlers = outcome.facts.handlers;
      if (hasSettings || options.fix === 'apply') state.findings = outcome.findings;
      if (!options.fix)
        cache.put(
          'pass2',
          state.relative,
          text,
          { handlers: state.facts.handlers, findings: state.findings },
          settingsKey,
        );
      let fixed = outcome.fixed;
      if (options.fix === 'dry-run') {
        const dry = passes.dryRun({ path: state.path, relative: state.relative, text, settings });
        record(state.relative, dry.ms);
        fixed = dry.fixed;
      }
      if (fixed !== undefined) fixes.push({ file: state.relative, path: state.path, before: text, after: fixed });
    });
  }
  const ran = runAll(tasks, 2);
  for (const step of steps) step(ran);
  pool?.close();

  const findings = [...states.values()].filter(inShare).flatMap((state) => state.findings);
  const cacheSummary = cache.finish();
  const tsconfigs = new Set(project.problems.map((problem) => problem.file));
  return {
    ...(cacheSummary === undefined ? {} : { cache: cacheSummary }),
    findings,
    handlers: inventory(states, graph, findings)
      .filter((handler) => inShareFile(handler.file))
      .map((handler) => {
        const name = workspacePackageOf(project, resolve(project.root, handler.file));
        return name === undefined ? handler : { ...handler, package: name };
      }),
    notAnalysed: notAnalysed
      .filter((entry) => tsconfigs.has(entry.file) || inShareFile(entry.file))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    projectProblems: project.problems,
    files: share === undefined ? states.size : [...states.values()].filter(inShare).length,
    projectFiles: states.size,
    fixes: fixes.sort((a, b) => (a.file < b.file ? -1 : 1)),
    settings: computed,
    threads: pool?.threadsUsed ?? 1,
    timings: [...spent]
      .map(([file, { ms, passes }]) => ({ file, ms, passes }))
      .sort((a, b) => b.ms - a.ms || (a.file < b.file ? -1 : 1)),
  };
}

/**
 * The role of a file pass 1 sets aside, from its path and text; the browser globals it reads come
 * from TypeScript's parse (made only when the role asks), as ESLint's scopes give them in pass 1.
 */
function skippedRole(path: string, relativePath: string, text: string): RoleDecision {
  let globals: Set<string> | undefined;
  return fileRoleDecision(relativePath, {
    text,
    manifest: nearestManifest(path),
    readsGlobal: (name) => (globals ??= globalsRead(parseOnly(path, text))).has(name),
  });
}

/** What pass 1 keeps of a file in the cache: its state without the absolute path, or why it failed. */
type PassOne = Omit<FileState, 'path'> | { failure: string };
/** What pass 2 keeps: the handlers and findings the settings gave, or why it failed. */
type PassTwo = { handlers: FileState['facts']['handlers']; findings: Finding[] } | { failure: string };
/** What the prefilter's parse of a file it sets aside finds: its first syntax error, or its imports. */
interface Skipped {
  syntaxError?: string;
  specifiers?: string[];
  loads?: string[];
  imports?: ImportBinding[];
  typeImports?: ImportBinding[];
  informs?: boolean;
  exportNames?: string[] | undefined;
  implements?: string[];
  runsNothing?: boolean;
}
/**
 * False when the cross-file settings cannot change what pass 2 would give for this file: they
 * hold only facts that refine a finding the file's text does not start (`summariesMayMatter`),
 * the file defines no handler (whose summary the settings could change), and the user's own
 * settings for it add nothing that could combine with them. Its pass-1 results stand.
 */
function settingsMayMatter(
  settings: IdempotencySettings,
  state: FileState,
  text: string,
  user: Record<string, unknown> | undefined,
): boolean {
  if (user !== undefined && Object.keys(user).length > 0) return true;
  if (Object.keys(settings).some((key) => key !== 'summaries')) return true;
  if (state.facts.handlers.length > 0) return true;
  return summariesMayMatter(settings.summaries ?? {}, text, state.relative);
}

interface CachedPasses {
  skip: Skipped;
  pass1: PassOne;
  pass2: PassTwo;
}
