import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';

import { analyze, type AnalysisResult } from '../analysis/analyze.js';
import { unifiedDiff } from '../analysis/diff.js';
import { ProjectError } from '../analysis/project.js';
import { INFORMATION_URI, pluginRuleInfos } from '../analysis/rule-meta.js';
import { formatExplanation } from '../report/explain.js';
import { applyBaseline, createBaseline, formatBaseline, parseBaseline, type Baseline } from '../report/baseline.js';
import { toPosix } from '../analysis/files.js';
import { shardOf } from '../analysis/shard.js';
import { formatters } from '../report/index.js';
import { MergeError, mergeShardReports, parseShardReport } from '../report/merge.js';
import { activeFindings, createReport, type Report } from '../report/model.js';
import { packageInfo } from '../util/package-info.js';
import { loadEslintConfig, loadStaticConfig } from './config.js';
import { HELP, parseCliArgs, UsageError, type CliOptions, type Format } from './args.js';

/** Everything `main` touches outside itself, so tests run it in-process. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (colour). */
  isTTY: boolean;
  /** Whether stderr is a terminal (progress); defaults to `isTTY`. */
  stderrIsTTY?: boolean;
  /** Reads all of stdin (`--files-from -`); defaults to the process's. */
  readStdin?: () => string;
}

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_ERROR = 2;

/** Runs the CLI: returns 0 (clean), 1 (findings) or 2 (usage or internal error). */
export function main(argv: readonly string[], io: CliIo): number {
  try {
    return run(argv, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ProjectError || error instanceof MergeError) {
      io.stderr.write(`idempotency-check: ${error.message}\n`);
    } else {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      io.stderr.write(`idempotency-check: internal error: ${message.split('\n')[0]}\n`);
      if (io.env.DEBUG) io.stderr.write(`${message}\n`);
    }
    return EXIT_ERROR;
  }
}

function run(argv: readonly string[], io: CliIo): number {
  const options = parseCliArgs(argv);
  if (options.help) {
    io.stdout.write(HELP);
    return EXIT_CLEAN;
  }
  if (options.version) {
    io.stdout.write(`${packageInfo.version}\n`);
    return EXIT_CLEAN;
  }
  if (options.command === 'merge') return merge(options, io);

  const paths = options.paths.map((path) => resolve(io.cwd, path));
  for (const [index, path] of paths.entries()) {
    if (!existsSync(path)) throw new UsageError(`Path not found: ${options.paths[index]}`);
  }
  // One folder given: it is the repository root. Otherwise the working directory is, and the paths restrict the scan.
  const [first] = paths;
  const single = paths.length === 1 && first !== undefined && statSync(first).isDirectory() ? first : undefined;
  const root = single ?? io.cwd;
  const tsconfig = options.tsconfig === undefined ? undefined : resolve(io.cwd, options.tsconfig);
  if (tsconfig !== undefined && !existsSync(tsconfig)) throw new UsageError(`tsconfig not found: ${options.tsconfig}`);

  const baselinePath = options.baseline === undefined ? undefined : resolve(io.cwd, options.baseline);
  const baseline = options.updateBaseline ? undefined : readBaseline(options, io);
  const share = shareOf(options, io, root);

  // The rules and settings the project gives: its ESLint config when asked, else the static config.
  const staticConfig = options.eslintConfig ? undefined : loadStaticConfig(root);
  const ruleConfig = options.eslintConfig
    ? (files: readonly string[]) => loadEslintConfig(root, files)
    : staticConfig && (() => () => staticConfig.config);

  const progress = progressReporter(io);
  const result = analyze({
    ...(ruleConfig === undefined ? {} : { ruleConfig }),
    // Imports the user lists (a pool from './db') can make a file matter without any word the prefilter knows.
    ...(staticConfig && listsImports(staticConfig.config.settings) ? { prefilter: false } : {}),
    root,
    paths: single === undefined ? paths : [],
    ...(tsconfig === undefined ? {} : { tsconfig }),
    ignore: options.ignore,
    types: options.types,
    ...(options.fix ? { fix: 'apply' as const } : options.fixDryRun ? { fix: 'dry-run' as const } : {}),
    includeSuppressed: options.suppressed,
    ...(options.maxFileSize === undefined ? {} : { maxFileSize: options.maxFileSize }),
    ...(options.fileBudget === undefined ? {} : { fileBudget: options.fileBudget }),
    ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
    ...(options.cache === undefined ? {} : { cache: resolve(io.cwd, options.cache) }),
    ...(progress ? { onProgress: progress } : {}),
    ...(share === undefined ? {} : { share }),
  });
  if (result.cache?.discarded !== undefined)
    io.stderr.write(`idempotency-check: ${options.cache}: ${result.cache.discarded}; starting a new cache\n`);

  if (options.timing) io.stderr.write(formatTimings(result.timings, result.threads));
  for (const problem of result.projectProblems)
    io.stderr.write(`idempotency-check: ${problem.file}: ${problem.reason}\n`);
  // A run that checked nothing must not pass a gate; a share without files is only a small share.
  if (result.projectFiles === 0) {
    const [first] = result.notAnalysed.filter(
      (entry) => !result.projectProblems.some((problem) => problem.file === entry.file),
    );
    const more = result.notAnalysed.length - 1;
    io.stderr.write(
      first
        ? `idempotency-check: nothing was analysed: ${first.file}: ${first.reason}${more > 0 ? ` (and ${more} more)` : ''}\n`
        : `idempotency-check: nothing was analysed: no source file under ${relative(io.cwd, root) || '.'} (after ignores)\n`,
    );
    return EXIT_ERROR;
  }
  if (share !== undefined && result.files === 0)
    io.stderr.write(
      `idempotency-check: ${options.shard ? `shard ${options.shard.index}/${options.shard.count} holds` : '--files-from lists'} no file the project analyses\n`,
    );
  if (options.fix) applyFixes(result, io);

  let report = createReport({
    tool: TOOL,
    rules: pluginRuleInfos(),
    findings: result.findings,
    handlers: result.handlers,
    notAnalysed: result.notAnalysed,
    files: result.files,
    ...(options.shard ? { shard: options.shard } : {}),
  });

  if (options.updateBaseline && baselinePath !== undefined) {
    const created = createBaseline(report);
    mkdirSync(dirname(baselinePath), { recursive: true });
    writeFileSync(baselinePath, formatBaseline(created));
    io.stderr.write(`Wrote ${created.entries.length} baseline entries to ${options.baseline}\n`);
    return EXIT_CLEAN;
  }
  if (baseline) report = applyBaseline(report, baseline);
  if (options.explain !== undefined) {
    const explained = formatExplanation(report, options.explain);
    if ('error' in explained) {
      io.stderr.write(`idempotency-check: ${explained.error}\n`);
      return EXIT_ERROR;
    }
    io.stdout.write(explained.text);
    return EXIT_CLEAN;
  }
  return finish(report, options, io, result);
}

const TOOL = { name: 'idempotency-check', version: packageInfo.version, informationUri: INFORMATION_URI };

/** `merge`: the shards' JSON reports as one report, gated as a run is. */
function merge(options: CliOptions, io: CliIo): number {
  const shards = options.paths.map((path) => {
    const file = resolve(io.cwd, path);
    if (!existsSync(file)) throw new UsageError(`Report not found: ${path}`);
    return parseShardReport(readFileSync(file, 'utf8'), path);
  });
  let report = mergeShardReports(shards, { tool: TOOL, rules: pluginRuleInfos() });
  const baseline = readBaseline(options, io);
  if (baseline) report = applyBaseline(report, baseline);
  return finish(report, options, io);
}

function readBaseline(options: CliOptions, io: CliIo): Baseline | undefined {
  if (options.baseline === undefined) return undefined;
  const path = resolve(io.cwd, options.baseline);
  if (!existsSync(path))
    throw new UsageError(`Baseline not found: ${options.baseline} (create it with --update-baseline)`);
  try {
    return parseBaseline(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${options.baseline}: ${(error as Error).message}`);
  }
}

/**
 * The files whose results the run reports: the `--shard`'s share (by {@link shardOf}) of those
 * `--files-from` lists (paths relative to the working directory, one a line), undefined for all.
 */
function shareOf(options: CliOptions, io: CliIo, root: string): ((file: string) => boolean) | undefined {
  const { shard, filesFrom } = options;
  let listed: Set<string> | undefined;
  if (filesFrom !== undefined) {
    let text;
    try {
      text =
        filesFrom === '-'
          ? (io.readStdin ?? (() => readFileSync(0, 'utf8')))()
          : readFileSync(resolve(io.cwd, filesFrom), 'utf8');
    } catch (error) {
      throw new UsageError(
        `--files-from ${filesFrom}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    listed = new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .map((line) => toPosix(relative(root, resolve(io.cwd, line)))),
    );
  }
  if (shard === undefined && listed === undefined) return undefined;
  return (file) =>
    (listed === undefined || listed.has(file)) && (shard === undefined || shardOf(file, shard.count) === shard.index);
}

/** Writes the report's outputs and decides the exit code. */
function finish(report: Report, options: CliOptions, io: CliIo, result?: AnalysisResult): number {
  writeOutputs(report, options, io, result);
  if (options.failOnNotAnalysed && report.notAnalysed.length > 0) {
    io.stderr.write(
      `idempotency-check: ${report.notAnalysed.length} file(s) could not be analysed (--fail-on-not-analysed)\n`,
    );
    return EXIT_FINDINGS;
  }
  return countsAgainst(report, options) > options.maxFindings ? EXIT_FINDINGS : EXIT_CLEAN;
}

/**
 * Colour as Node decides it (`tty.WriteStream#getColorDepth`): FORCE_COLOR wins when set ('', 1,
 * 2, 3 or true turn colour on, anything else off), then NODE_DISABLE_COLORS, NO_COLOR and
 * TERM=dumb turn it off, then a terminal turns it on.
 */
export function colorEnabled(env: CliIo['env'], isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return ['', '1', '2', '3', 'true'].includes(force);
  if (env.NODE_DISABLE_COLORS !== undefined || env.NO_COLOR !== undefined || env.TERM === 'dumb') return false;
  return isTTY;
}

/** The user's settings name other modules' imports: a list of them, or summaries of them. */
function listsImports(settings: Record<string, unknown>): boolean {
  return Object.entries(settings).some(([key, value]) =>
    key === 'summaries'
      ? typeof value === 'object' && value !== null && Object.keys(value).length > 0
      : Array.isArray(value) && value.length > 0,
  );
}

/** Findings that fail the run: unsuppressed, at or above `--severity`. */
function countsAgainst(report: Report, options: CliOptions): number {
  return activeFindings(report).filter((finding) => options.severity === 'warning' || finding.severity === 'error')
    .length;
}

function format(report: Report, format: Format, options: CliOptions, color: boolean): string {
  // The Markdown report points a reader to the HTML report the same run writes beside it.
  const htmlFile = options.outputs.find((output) => output.format === 'html')?.file;
  return formatters[format](report, {
    color,
    includeSuppressed: options.suppressed,
    quiet: options.quiet,
    ...(options.linkBase === undefined ? {} : { linkBase: options.linkBase }),
    ...(htmlFile === undefined ? {} : { htmlReport: basename(htmlFile) }),
  });
}

function writeOutputs(report: Report, options: CliOptions, io: CliIo, result?: AnalysisResult): void {
  const fixes = result?.fixes ?? [];
  const color = colorEnabled(io.env, io.isTTY);
  for (const output of options.outputs) {
    if (output.file !== undefined) {
      const path = resolve(io.cwd, output.file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, format(report, output.format, options, false));
    } else if (options.fixDryRun) {
      // The diff is what a dry run is asked for; it takes stdout's place.
      io.stdout.write(fixes.map((fix) => unifiedDiff(fix.file, fix.before, fix.after)).join(''));
    } else {
      io.stdout.write(format(report, output.format, options, color));
    }
  }
  if (options.fixDryRun && options.outputs.every((output) => output.file !== undefined)) {
    io.stdout.write(fixes.map((fix) => unifiedDiff(fix.file, fix.before, fix.after)).join(''));
  }
  if (options.fixDryRun) io.stderr.write(`${fixes.length} file(s) would change\n`);
}

function applyFixes(result: AnalysisResult, io: CliIo): void {
  for (const fix of result.fixes) {
    writeFileSync(fix.path, fix.after);
    io.stderr.write(`fixed ${fix.file}\n`);
  }
  io.stderr.write(`${result.fixes.length} file(s) changed by --fix\n`);
}

/** `files done / total` on stderr, only for a terminal and never in CI. */
function progressReporter(io: CliIo): ((done: number, total: number) => void) | undefined {
  const tty = io.stderrIsTTY ?? io.isTTY;
  if (!tty || io.env.CI !== undefined) return undefined;
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    io.stderr.write(done < total ? `\rAnalysing ${done}/${total} files` : '\r\u001b[K');
  };
}

/** How many of the slowest files `--timing` lists. */
const TIMING_ROWS = 10;

/** `--timing`: the slowest files, their share of the rules' time, on stderr. */
function formatTimings(timings: AnalysisResult['timings'], threads: number): string {
  const total = timings.reduce((sum, timing) => sum + timing.ms, 0);
  const rows = timings
    .slice(0, TIMING_ROWS)
    .map(
      (timing) =>
        `${timing.ms.toFixed(0).padStart(8)} ms ${((100 * timing.ms) / (total || 1)).toFixed(1).padStart(5)} %  ${timing.file}`,
    );
  const again = timings.filter((timing) => timing.passes > 1).length;
  return `idempotency-check: rules ran over ${timings.length} files (${again} again with other modules' facts)${threads > 1 ? ` on ${threads} threads` : ''} in ${(total / 1000).toFixed(1)} s; slowest:\n${rows.join('\n')}\n`;
}
