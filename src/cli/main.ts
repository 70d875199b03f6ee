import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

import { analyze, type AnalysisResult } from '../analysis/analyze.js';
import { unifiedDiff } from '../analysis/diff.js';
import { ProjectError } from '../analysis/project.js';
import { INFORMATION_URI, pluginRuleInfos } from '../analysis/rule-meta.js';
import { applyBaseline, createBaseline, formatBaseline, parseBaseline } from '../report/baseline.js';
import { formatters } from '../report/index.js';
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
}

const EXIT_CLEAN = 0;
const EXIT_FINDINGS = 1;
const EXIT_ERROR = 2;

/** Runs the CLI: returns 0 (clean), 1 (findings) or 2 (usage or internal error). */
export function main(argv: readonly string[], io: CliIo): number {
  try {
    return run(argv, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ProjectError) {
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

  let baseline;
  const baselinePath = options.baseline === undefined ? undefined : resolve(io.cwd, options.baseline);
  if (baselinePath !== undefined && !options.updateBaseline) {
    if (!existsSync(baselinePath))
      throw new UsageError(`Baseline not found: ${options.baseline} (create it with --update-baseline)`);
    try {
      baseline = parseBaseline(readFileSync(baselinePath, 'utf8'));
    } catch (error) {
      throw new UsageError(`${options.baseline}: ${(error as Error).message}`);
    }
  }

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
    ...(options.cache === undefined ? {} : { cache: resolve(io.cwd, options.cache) }),
    ...(progress ? { onProgress: progress } : {}),
  });
  if (result.cache?.discarded !== undefined)
    io.stderr.write(`idempotency-check: ${options.cache}: ${result.cache.discarded}; starting a new cache\n`);

  for (const problem of result.projectProblems)
    io.stderr.write(`idempotency-check: ${problem.file}: ${problem.reason}\n`);
  // A run that checked nothing must not pass a gate.
  if (result.files === 0) {
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
  if (options.fix) applyFixes(result, io);

  let report = createReport({
    tool: { name: 'idempotency-check', version: packageInfo.version, informationUri: INFORMATION_URI },
    rules: pluginRuleInfos(),
    findings: result.findings,
    handlers: result.handlers,
    notAnalysed: result.notAnalysed,
    files: result.files,
  });

  if (options.updateBaseline && baselinePath !== undefined) {
    const created = createBaseline(report);
    mkdirSync(dirname(baselinePath), { recursive: true });
    writeFileSync(baselinePath, formatBaseline(created));
    io.stderr.write(`Wrote ${created.entries.length} baseline entries to ${options.baseline}\n`);
    return EXIT_CLEAN;
  }
  if (baseline) report = applyBaseline(report, baseline);

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

function listsImports(settings: Record<string, unknown>): boolean {
  return Object.values(settings).some((value) => Array.isArray(value) && value.length > 0);
}

/** Findings that fail the run: unsuppressed, at or above `--severity`. */
function countsAgainst(report: Report, options: CliOptions): number {
  return activeFindings(report).filter((finding) => options.severity === 'warning' || finding.severity === 'error')
    .length;
}

function format(report: Report, format: Format, options: CliOptions, color: boolean): string {
  return formatters[format](report, {
    color,
    includeSuppressed: options.suppressed,
    quiet: options.quiet,
    ...(options.linkBase === undefined ? {} : { linkBase: options.linkBase }),
  });
}

function writeOutputs(report: Report, options: CliOptions, io: CliIo, result: AnalysisResult): void {
  const color = colorEnabled(io.env, io.isTTY);
  for (const output of options.outputs) {
    if (output.file !== undefined) {
      const path = resolve(io.cwd, output.file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, format(report, output.format, options, false));
    } else if (options.fixDryRun) {
      // The diff is what a dry run is asked for; it takes stdout's place.
      io.stdout.write(result.fixes.map((fix) => unifiedDiff(fix.file, fix.before, fix.after)).join(''));
    } else {
      io.stdout.write(format(report, output.format, options, color));
    }
  }
  if (options.fixDryRun && options.outputs.every((output) => output.file !== undefined)) {
    io.stdout.write(result.fixes.map((fix) => unifiedDiff(fix.file, fix.before, fix.after)).join(''));
  }
  if (options.fixDryRun) io.stderr.write(`${result.fixes.length} file(s) would change\n`);
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
