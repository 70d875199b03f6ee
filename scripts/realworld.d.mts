// Types of scripts/realworld.mjs, for test/scripts/realworld.test.ts.

export interface FindingLabel {
  type: 'finding';
  repo: string;
  commit: string;
  path: string;
  line: number;
  rule: string;
  verdict: boolean;
  reason: string;
}

export interface HandlerLabel {
  type: 'handler';
  repo: string;
  commit: string;
  path: string;
  line: number;
  kind: 'consumer' | 'webhook';
  framework: string;
  verdict: boolean;
  reason: string;
  alt?: number[];
}

export type Label = FindingLabel | HandlerLabel;

export interface LabelError {
  file: string;
  line: number;
  message: string;
}

/** The parts of an `idempotency-check --format json` report that score() reads. */
export interface ScoredReport {
  findings?: { ruleId: string; file: string; line: number; snippet?: string; [key: string]: unknown }[];
  handlers?: { file: string; line: number; broker: string; name?: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

export interface FindingCounts {
  reported: number;
  tp: number;
  fp: number;
  unlabelled: number;
  precision: number | null;
  /** Verdict-true labels, found or not. */
  truePositives: number;
  /** Verdict-true labels some finding matched. */
  found: number;
  missed: number;
  recall: number | null;
}

export interface InventoryCounts {
  rows: number;
  rowsTrue: number;
  rowsFalse: number;
  rowsUnlabelled: number;
  precision: number | null;
  groundTruth: number;
  listed: number;
  recall: number | null;
}

export interface ScoreResult {
  rules: (FindingCounts & { rule: string })[];
  total: FindingCounts;
  inventory: { all: InventoryCounts; consumer: InventoryCounts; webhook: InventoryCounts };
  testFiles: { findings: number; tp: number; fp: number; unlabelled: number; rows: number };
  apps: { app: string; findings: FindingCounts; inventory: InventoryCounts; testFindings: number }[];
  unlabelled: {
    findings: { app: string; path: string; line: number; rule: string; snippet: string }[];
    rows: { app: string; path: string; line: number; broker: string; name: string }[];
  };
  missed: {
    findings: { app: string; path: string; line: number; rule: string; reason: string }[];
    handlers: { app: string; path: string; line: number; kind: string; framework: string; reason: string }[];
  };
  ignoredLabels: number;
}

export const HANDLER_WINDOW: number;
export const USAGE: string;
export function score(
  reports: Map<string, ScoredReport> | Record<string, ScoredReport>,
  labels: readonly Label[],
): ScoreResult;
export function parseLabels(text: string, file?: string): { labels: Label[]; errors: LabelError[] };
export function labelProblems(label: unknown): string[];
export function labelKey(label: Label): string;
export function nearestHandlerLabel(candidates: readonly HandlerLabel[], line: number): HandlerLabel | undefined;
export function isTestPath(path: string): boolean;
export function rowKind(row: { broker: string }): 'consumer' | 'webhook';
export function ruleName(ruleId: string): string;
export function formatText(
  result: ScoreResult,
  run?: { apps: { app: string; status: string; seconds?: number }[] },
  options?: { unlabelled?: boolean },
): string;
export interface Options {
  apps: string;
  cli: string | undefined;
  app: string[];
  cliArg: string[];
  unlabelled: boolean;
  json: boolean;
  reportsDir: string | undefined;
  rerun: boolean;
  fallbackTsconfig: boolean;
  labels: string | undefined;
  help: boolean;
}
/** Throws on a bad argument, with a one-line message. */
export function parseArgs(argv: readonly string[]): Options;
export function main(argv?: string[]): number;
