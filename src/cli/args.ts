import { parseArgs } from 'node:util';

import { FORMAT_NAMES, isFormatName, type FormatName } from '../report/index.js';

/** Report formats the CLI can write: the formatters' names, from their one dispatch in `src/report/`. */
const FORMATS: readonly FormatName[] = FORMAT_NAMES;
export type Format = FormatName;

interface OutputTarget {
  format: Format;
  /** File to write, relative to the working directory; undefined for stdout. */
  file?: string;
}

export interface CliOptions {
  /** `merge`: combine shard reports (the paths) into one report instead of analysing. */
  command: 'check' | 'merge';
  /** Paths to analyse, as given; `['.']` when none. With `merge`, the shard reports. */
  paths: string[];
  /** `--shard i/n`: analyse and report the i-th of n shares of the files. */
  shard?: { index: number; count: number };
  /** `--files-from <file|->`: report only the files listed there (one path a line; `-` for stdin). */
  filesFrom?: string;
  outputs: OutputTarget[];
  /** The run fails when more than this many findings count (default 0: any finding fails). */
  maxFindings: number;
  /** The lowest severity that counts towards failing the run. */
  severity: 'error' | 'warning';
  baseline?: string;
  updateBaseline: boolean;
  fix: boolean;
  fixDryRun: boolean;
  types: boolean;
  tsconfig?: string;
  ignore: string[];
  /** Bytes; larger files are listed as not analysed. Undefined for the default. */
  maxFileSize?: number;
  /** `--file-budget`: milliseconds one pass over one file may take (0 for none). Undefined for the default. */
  fileBudget?: number;
  /** `--explain`: print the story of the handlers this names (`file:line`, a file, a name or a queue) instead of the report. */
  explain?: string;
  /** `--jobs`: threads for the untyped passes, this one among them. Undefined for one. */
  jobs?: number;
  /** `--timing`: print the slowest files to stderr. */
  timing: boolean;
  /** Take the rules and settings from the project's ESLint config (runs its code). */
  eslintConfig: boolean;
  /** The text report holds the findings and the summary only. */
  quiet: boolean;
  /** `--link-base`: the prefix of the Markdown and HTML reports' file links (a blob URL at the commit). */
  linkBase?: string;
  /** `--fail-on-not-analysed`: files that could not be analysed fail the run (exit 1) like findings. */
  failOnNotAnalysed: boolean;
  /** False with `--no-suppressed`: findings turned off by `eslint-disable` are left out of the report. */
  suppressed: boolean;
  /** `--cache`: the cache file (`--cache-location`, default `.idempotency-check-cache`); undefined without. */
  cache?: string;
  version: boolean;
  help: boolean;
}

/** Bad command-line input: main prints the message as one line and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const HELP = `Usage: idempotency-check [options] [paths...]
       idempotency-check merge [report options] <shard reports...>

Checks a repository for code that makes a redelivered queue message harmful, and
inventories its consumer handlers. A single directory argument is the repository
root; otherwise the root is the working directory and only the given paths are read.

Options:
  --format <name>        text | json | sarif | markdown | github | html (repeatable;
                         default text)
  --output <file>        write the n-th --format to this file (repeatable, pairs in order;
                         formats without an --output go to stdout, at most one of them)
  --max-findings <n>     fail only when more than n findings count (default 0)
  --severity <level>     lowest severity that counts: warning (default) | error
  --baseline <file>      tolerate the findings recorded in this file; new ones fail
  --update-baseline      write the current findings to --baseline and exit 0
  --fix                  apply the rules' safe autofixes and report what changed
  --fix-dry-run          print the autofixes as a unified diff, change nothing
  --types                load the type checker (sharper results, slower)
  --tsconfig <file>      tsconfig to load instead of <root>/tsconfig.json
  --ignore <pattern>     skip files a .gitignore pattern matches (repeatable;
                         node_modules, build output at a package root and .gitignore'd paths are
                         always skipped)
  --max-file-size <size> list larger files as not analysed (default 1mb; e.g. 500kb, 4mb)
  --file-budget <time>   list a file whose analysis takes longer as not analysed and go on
                         (default 5s; e.g. 500ms, 20s; 0 for no limit)
  --jobs <n>             threads that lint files (default 1; --types and --fix use one)
  --timing               print the slowest files and their times to stderr
  --explain <handler>    print what a redelivery of one handler repeats, the path to each
                         effect, its protections and findings, instead of the report
                         (<handler>: file:line, a file, a handler's name or its queue)
  --no-suppressed        leave findings turned off by eslint-disable out of the report
  --cache                keep results between runs; unchanged files are not analysed again
  --cache-location <file>  the cache file (default .idempotency-check-cache)
  --eslint-config        take rules, severities, options and settings from the project's
                         eslint.config.* through its own ESLint (this runs the config's code;
                         by default they come from idempotency.config.json or package.json
                         "idempotency", which are only read)
  --shard <i>/<n>        analyse the whole project, report the i-th of n shares of
                         its files (JSON shard reports combine with merge)
  --files-from <file|->  report only the files listed there, one a line (- for stdin),
                         e.g. git diff --name-only
  --quiet, -q            text report: the findings and the summary only (no inventory)
  --link-base <url>      prefix of the Markdown and HTML reports' file links, e.g.
                         https://github.com/o/r/blob/<sha>/ (default: relative links)
  --fail-on-not-analysed exit 1 when any file could not be analysed (default: listed only)
  --version              print the version
  --help                 print this help

merge reads the JSON reports of every shard of one --shard run and writes the
report an unsharded run writes, in any format; --format, --output, --baseline,
--severity, --max-findings, --quiet, --link-base, --no-suppressed and
--fail-on-not-analysed apply to it as to a run.

Exit codes: 0 clean, 1 findings, 2 usage or internal error.
`;

function isFormat(value: string): value is Format {
  return isFormatName(value);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 * 1024, m: 1024 * 1024 };

/** `500kb`, `4mb`, `1048576` → bytes. */
function parseSize(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const factor = match ? SIZE_UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  if (!match || factor === undefined)
    throw new UsageError(`--max-file-size expects a size such as 500kb or 4mb, got '${raw}'`);
  return Math.floor(Number(match[1]) * factor);
}

const TIME_UNITS: Record<string, number> = { '': 1000, s: 1000, ms: 1 };

/** `5s`, `500ms`, `20` (seconds), `0` → milliseconds. */
function parseDuration(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const factor = match ? TIME_UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  if (!match || factor === undefined)
    throw new UsageError(`--file-budget expects a time such as 5s or 500ms (0 for no limit), got '${raw}'`);
  return Math.round(Number(match[1]) * factor);
}

/** Parses argv (without node and script) into options; throws UsageError on bad input. */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  const merge = argv[0] === 'merge';
  let parsed;
  try {
    parsed = parseArgs({
      args: merge ? argv.slice(1) : [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', short: 'f', multiple: true },
        output: { type: 'string', short: 'o', multiple: true },
        'max-findings': { type: 'string' },
        severity: { type: 'string' },
        baseline: { type: 'string' },
        'update-baseline': { type: 'boolean' },
        fix: { type: 'boolean' },
        'fix-dry-run': { type: 'boolean' },
        types: { type: 'boolean' },
        tsconfig: { type: 'string' },
        ignore: { type: 'string', multiple: true },
        'no-suppressed': { type: 'boolean' },
        'eslint-config': { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        'link-base': { type: 'string' },
        'fail-on-not-analysed': { type: 'boolean' },
        'max-file-size': { type: 'string' },
        'file-budget': { type: 'string' },
        jobs: { type: 'string' },
        explain: { type: 'string' },
        timing: { type: 'boolean' },
        cache: { type: 'boolean' },
        'cache-location': { type: 'string' },
        shard: { type: 'string' },
        'files-from': { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // parseArgs' own messages are clear but long; keep the first sentence.
    const text = error instanceof Error ? error.message : String(error);
    // "Option '--max-findings' argument is ambiguous": a value that starts with a dash.
    const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(text);
    if (ambiguous?.[1] !== undefined) {
      const value = argv[argv.indexOf(ambiguous[1]) + 1] ?? '';
      throw new UsageError(`${ambiguous[1]} expects a value, got '${value}'`);
    }
    throw new UsageError((text.split('\n')[0]?.split('. ')[0] ?? text).replace(/\.$/, ''));
  }
  const { values, positionals } = parsed;

  const formats = values.format ?? ['text'];
  for (const format of formats) {
    if (!isFormat(format)) throw new UsageError(`Unknown format '${format}'; expected one of ${FORMATS.join(', ')}`);
  }
  const files = values.output ?? [];
  if (files.length > formats.length) {
    throw new UsageError(`${files.length} --output for ${formats.length} --format; give one --format per --output`);
  }
  if (files.length > 0 && values.format === undefined) {
    throw new UsageError('--output needs a --format for it (for example --format json --output report.json)');
  }
  const repeated = files.find((file, index) => files.indexOf(file) !== index);
  if (repeated !== undefined)
    throw new UsageError(`--output ${repeated} is given twice; each format needs its own file`);
  const outputs = (formats as Format[]).map((format, index): OutputTarget => {
    const file = files[index];
    return file === undefined ? { format } : { format, file };
  });
  if (outputs.filter((output) => output.file === undefined).length > 1) {
    throw new UsageError('Only one format can go to stdout; give an --output for the others');
  }

  let maxFindings = 0;
  const rawMax = values['max-findings'];
  if (rawMax !== undefined) {
    if (!/^\d+$/.test(rawMax)) throw new UsageError(`--max-findings expects a whole number, got '${rawMax}'`);
    maxFindings = Number(rawMax);
  }
  const severity = values.severity ?? 'warning';
  if (severity !== 'error' && severity !== 'warning') {
    throw new UsageError(`--severity expects error or warning, got '${severity}'`);
  }
  if (values['update-baseline'] && values.baseline === undefined) {
    throw new UsageError('--update-baseline needs --baseline <file>');
  }
  if (values.fix && values['fix-dry-run']) throw new UsageError('--fix and --fix-dry-run exclude each other');

  if (merge) {
    // What shapes the analysis was given to the shards; merge only combines their reports.
    const analysisOnly = [
      'fix',
      'fix-dry-run',
      'update-baseline',
      'types',
      'tsconfig',
      'ignore',
      'max-file-size',
      'file-budget',
      'jobs',
      'explain',
      'timing',
      'eslint-config',
      'cache',
      'cache-location',
      'shard',
      'files-from',
    ] as const;
    const given = analysisOnly.find((name) => values[name] !== undefined);
    if (given !== undefined) throw new UsageError(`--${given} is for the shard runs, not for merge`);
    if (positionals.length === 0) throw new UsageError('merge needs the JSON reports of the shards');
  }

  const options: CliOptions = {
    command: merge ? 'merge' : 'check',
    paths: positionals.length > 0 ? positionals : ['.'],
    outputs,
    maxFindings,
    severity,
    updateBaseline: values['update-baseline'] ?? false,
    fix: values.fix ?? false,
    fixDryRun: values['fix-dry-run'] ?? false,
    types: values.types ?? false,
    ignore: values.ignore ?? [],
    suppressed: !(values['no-suppressed'] ?? false),
    eslintConfig: values['eslint-config'] ?? false,
    quiet: values.quiet ?? false,
    failOnNotAnalysed: values['fail-on-not-analysed'] ?? false,
    timing: values.timing ?? false,
    version: values.version ?? false,
    help: values.help ?? false,
  };
  if (values.baseline !== undefined) options.baseline = values.baseline;
  if (values.tsconfig !== undefined) options.tsconfig = values.tsconfig;
  const linkBase = values['link-base'];
  if (linkBase !== undefined) {
    if (!options.outputs.some((output) => output.format === 'markdown' || output.format === 'html'))
      throw new UsageError('--link-base is for the Markdown and HTML reports; give --format markdown or html');
    options.linkBase = linkBase;
  }
  if (values['cache-location'] !== undefined && !values.cache) throw new UsageError('--cache-location needs --cache');
  if (values.cache) options.cache = values['cache-location'] ?? '.idempotency-check-cache';
  const rawShard = values.shard;
  if (rawShard !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(rawShard);
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || count < 1 || index < 1 || index > count)
      throw new UsageError(`--shard expects <i>/<n> with 1 <= i <= n, got '${rawShard}'`);
    options.shard = { index, count };
  }
  if (values['files-from'] !== undefined) options.filesFrom = values['files-from'];
  // A baseline is of the whole project; fixing is for one machine's tree, not a share of a CI matrix.
  const partial =
    rawShard === undefined ? (values['files-from'] === undefined ? undefined : '--files-from') : '--shard';
  if (partial !== undefined && values['update-baseline'])
    throw new UsageError(`--update-baseline records the whole project; it cannot be combined with ${partial}`);
  if (rawShard !== undefined && (values.fix || values['fix-dry-run']))
    throw new UsageError(`${values.fix ? '--fix' : '--fix-dry-run'} cannot be combined with --shard`);
  const rawSize = values['max-file-size'];
  if (rawSize !== undefined) options.maxFileSize = parseSize(rawSize);
  const rawBudget = values['file-budget'];
  if (rawBudget !== undefined) options.fileBudget = parseDuration(rawBudget);
  const explain = values.explain;
  if (explain !== undefined) {
    if (explain.trim() === '')
      throw new UsageError('--explain expects a handler: file:line, a file, a name or a queue');
    const other = values.format
      ? '--format'
      : values['update-baseline']
        ? '--update-baseline'
        : values.fix || values['fix-dry-run']
          ? '--fix'
          : rawShard !== undefined
            ? '--shard'
            : undefined;
    if (other !== undefined)
      throw new UsageError(
        `--explain prints one handler's story instead of the report; it cannot be combined with ${other}`,
      );
    options.explain = explain;
  }
  const rawJobs = values.jobs;
  if (rawJobs !== undefined) {
    if (!/^[1-9]\d{0,3}$/.test(rawJobs.trim()))
      throw new UsageError(`--jobs expects a number of threads, 1 or more, got '${rawJobs}'`);
    options.jobs = Number(rawJobs.trim());
  }
  return options;
}
