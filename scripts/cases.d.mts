// Types of scripts/cases.mjs, for test/scripts/cases.test.ts.

export interface Case {
  repo: string;
  commit: string | null;
  path: string;
  line: number | null;
  rule: string;
  verdict: boolean;
  shape: string;
  reason: string;
  /** Other files of the repository the case needs; scored through idempotency-check. */
  with?: string[];
  source?: string;
}

export interface CaseError {
  file: string;
  line: number;
  message: string;
}

export interface CaseCounts {
  rule: string;
  found: number;
  missed: number;
  negatives: number;
  falsePositives: number;
  unreadable: number;
}

export interface CaseScore {
  rows: (CaseCounts & { shape: string })[];
  rules: CaseCounts[];
  /** Every rule's cases of one database library (the first word of their shapes) together. */
  libraries: (Omit<CaseCounts, 'rule'> & { library: string })[];
  misses: Case[];
  falsePositives: (Case & { reportedAt: number[] })[];
}

export const CASE_WINDOW: number;
export const LIBRARIES: readonly string[];
export function libraryOf(shape: string): string | undefined;
export const USAGE: string;
export function caseProblems(value: unknown): string[];
export function parseCases(text: string, file?: string): { cases: Case[]; errors: CaseError[] };
export function manifestCases(text: string, file?: string): Case[];
export function caseFile(filesDir: string, entry: Case): string;
export function bring(options: { files: string; mirrors?: string }, entry: Case): string[];
export function scoreCases(
  cases: Case[],
  messages: Map<string, { ruleId: string | null; line: number }[] | undefined>,
  fileOf?: (entry: Case) => string,
): CaseScore;
export function formatText(result: CaseScore, options?: { details?: boolean }): string;
export function parseArgs(argv: string[]): { help?: true; error?: string; options?: Record<string, unknown> };
export function main(argv?: string[]): Promise<number>;
