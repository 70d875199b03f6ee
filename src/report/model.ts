/**
 * The report `idempotency-check` writes: one versioned, documented shape that every formatter
 * reads. Paths are repo-relative POSIX, positions 1-based, every list sorted, no timestamps, so
 * two runs over the same tree produce byte-identical output.
 */

/** Bumped on any change a consumer of the JSON report could notice. */
export const REPORT_SCHEMA_VERSION = 1;

type Severity = 'error' | 'warning';

export interface Finding {
  /** The full rule id as ESLint reports it: `idempotency/no-per-attempt-key`. */
  ruleId: string;
  messageId?: string;
  message: string;
  severity: Severity;
  /** Repo-relative POSIX path. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  endLine?: number;
  endColumn?: number;
  /** Name of the innermost named function around the finding; part of the baseline identity. */
  enclosingFunction?: string;
  /** The source line(s) of the finding; part of the baseline identity. */
  snippet?: string;
  /** True when the rule offers a safe autofix for this finding (`--fix` applies it). */
  fixable?: boolean;
  /** What the rule's editor suggestions would do, each as it describes itself: the fixes a reader weighs. */
  suggestions?: string[];
  /** Present when an inline `eslint-disable` comment turned the finding off. */
  suppressed?: { justification?: string };
}

export type Verdict = 'protected' | 'unprotected' | 'unknown';

export interface HandlerEntry {
  file: string;
  line: number;
  column: number;
  /** The handler function's last line: what runs inside it (`--explain`, the Markdown link's range). */
  endLine?: number;
  /** The handler function's name, when it has one. */
  name?: string;
  /** The workspace package whose folder holds the handler's file, by its name (a monorepo's). */
  package?: string;
  /** `bullmq`, `sqs`, `lambda-sqs`, `amqplib`, `kafkajs`, `webhook`, ... */
  broker: string;
  /** Queue, topic or route, when it is a static string. */
  queue?: string;
  /**
   * Where another file registers the handler: the line of the registering call (`new Worker('q',
   * processJob)` in worker.ts), or of the serverless.yml or template entry that declares the Lambda.
   */
  registeredAt?: { file: string; line: number };
  /** Side effects the handler reaches through calls: `sql-write`, `http-write`, `stripe`, ... */
  effects: string[];
  /** Protections present: `claim`, `transaction`, `idempotency-key`, `timeout`, ... */
  protections: string[];
  verdict: Verdict;
  /** Why the verdict: the finding inside, the effect nothing covers, the call not followed. */
  reason: string;
  /**
   * For each effect made in another module, the functions a delivery goes through to reach it,
   * from the one the handler calls to the one that makes the write. Absent when every effect is
   * the handler's own.
   */
  paths?: EffectPath[];
  /**
   * For each protection made in another module, the functions a delivery goes through to the one
   * that makes it (the claim, the transaction, the keyed request). Absent when every protection is
   * the handler's own.
   */
  protectionPaths?: ProtectionPath[];
  /** Where each effect is made: the file and line of the call that makes it (the write, the request). */
  effectSites?: { effect: string; file: string; line: number }[];
}

/** One function on the way from a handler to what it reaches, where it is defined. */
export interface PathStep {
  file: string;
  line?: number;
  name: string;
}

/** How a handler reaches one effect: the functions on the way, each where it is defined. */
interface EffectPath {
  effect: string;
  via: PathStep[];
}

/** How a handler reaches one protection: the functions on the way to the one that makes it. */
interface ProtectionPath {
  protection: string;
  via: PathStep[];
}

export interface NotAnalysed {
  file: string;
  reason: string;
}

export interface StaleBaselineEntry {
  ruleId: string;
  file: string;
  enclosingFunction?: string;
  snippet?: string;
  /** How many of the entry's occurrences matched nothing. */
  count: number;
}

interface BaselineSummary {
  /** Findings matched by a baseline entry; they are no longer in `findings`. */
  tolerated: number;
  /** Unsuppressed findings the baseline does not know; these fail the run. */
  new: number;
  /** Baseline entries (or the part of their count) that matched nothing: the code was fixed. */
  stale: StaleBaselineEntry[];
}

interface ReportSummary {
  /** Files analysed. */
  files: number;
  /** Unsuppressed findings: the ones that fail a run. */
  findings: number;
  /** Findings turned off by an inline `eslint-disable` comment (still listed in `findings`). */
  suppressed: number;
  handlers: number;
  protectedHandlers: number;
}

/** What the report knows of a rule, from the plugin's meta. */
export interface RuleInfo {
  /** Full rule id: `idempotency/no-per-attempt-key`. */
  id: string;
  /** The rule's name without the namespace: `no-per-attempt-key`. */
  name: string;
  description?: string;
  /** The rule's documentation page. */
  url?: string;
  /** Markdown: what the rule reports and why, from its doc (SARIF `help`). */
  help?: string;
}

interface ToolInfo {
  name: string;
  version: string;
  /** The tool's home page (SARIF's `informationUri`). */
  informationUri?: string;
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  tool: ToolInfo;
  /** The rules the run checked, sorted by id; not part of the JSON report. */
  rules: RuleInfo[];
  /** Sorted by file, line, column, ruleId. Suppressed findings stay here, flagged. */
  findings: Finding[];
  /** Sorted by file, line, column. */
  handlers: HandlerEntry[];
  /** Files that could not be parsed or loaded, sorted by file. */
  notAnalysed: NotAnalysed[];
  summary: ReportSummary;
  /** Present when a baseline was applied. */
  baseline?: BaselineSummary;
  /** Present in a `--shard i/n` run's report: which share of the files it holds (`merge` combines them). */
  shard?: ReportShard;
}

interface ReportShard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface ReportParts {
  tool: ToolInfo;
  /** The rules the run checked (SARIF lists them all, in this order). */
  rules?: readonly RuleInfo[];
  findings: readonly Finding[];
  handlers?: readonly HandlerEntry[];
  notAnalysed?: readonly NotAnalysed[];
  /** Number of files analysed. */
  files: number;
  baseline?: BaselineSummary;
  shard?: ReportShard;
}

/** Code-unit comparison: the same order on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareFindings(a: Finding, b: Finding): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.ruleId, b.ruleId) ||
    compareStrings(a.message, b.message)
  );
}

function compareHandlers(a: HandlerEntry, b: HandlerEntry): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.broker, b.broker) ||
    compareStrings(a.name ?? '', b.name ?? '')
  );
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareStrings);
}

/** The unsuppressed findings: the ones that fail a run. */
export function activeFindings(report: Pick<Report, 'findings'>): Finding[] {
  return report.findings.filter((finding) => !finding.suppressed);
}

/** Builds a report from the analysis' parts: sorts every list and computes the summary. */
export function createReport(parts: ReportParts): Report {
  const findings = [...parts.findings].sort(compareFindings);
  const handlers = (parts.handlers ?? [])
    .map((handler) => ({
      ...handler,
      effects: sortedUnique(handler.effects),
      protections: sortedUnique(handler.protections),
    }))
    .sort(compareHandlers);
  const notAnalysed = [...(parts.notAnalysed ?? [])].sort(
    (a, b) => compareStrings(a.file, b.file) || compareStrings(a.reason, b.reason),
  );
  const suppressed = findings.filter((finding) => finding.suppressed).length;
  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { ...parts.tool },
    rules: [...(parts.rules ?? [])],
    findings,
    handlers,
    notAnalysed,
    summary: {
      files: parts.files,
      findings: findings.length - suppressed,
      suppressed,
      handlers: handlers.length,
      protectedHandlers: handlers.filter((handler) => handler.verdict === 'protected').length,
    },
  };
  if (parts.baseline) report.baseline = parts.baseline;
  if (parts.shard) report.shard = { ...parts.shard };
  return report;
}
