import {
  activeFindings,
  compareStrings,
  createReport,
  type Finding,
  type Report,
  type StaleBaselineEntry,
} from './model.js';

/**
 * A baseline records the findings a repository already has, so CI fails only on new ones.
 * An entry's identity is rule, file, enclosing function and the whitespace-collapsed snippet;
 * never a line number, so entries survive code moving up or down. `count` tolerates that many
 * identical findings (the same line written twice in one function).
 */
export const BASELINE_SCHEMA_VERSION = 1;

interface BaselineEntry {
  ruleId: string;
  file: string;
  enclosingFunction?: string;
  /** Normalised: whitespace runs collapsed to one space, trimmed. */
  snippet?: string;
  count: number;
}

export interface Baseline {
  schemaVersion: typeof BASELINE_SCHEMA_VERSION;
  /** Sorted by file, ruleId, enclosingFunction, snippet. */
  entries: BaselineEntry[];
}

/** Collapses whitespace so re-indenting or re-wrapping a line keeps its baseline entry. */
export function normaliseSnippet(snippet: string | undefined): string | undefined {
  if (snippet === undefined) return undefined;
  return snippet.replace(/\s+/gu, ' ').trim();
}

type Identity = Pick<BaselineEntry, 'ruleId' | 'file' | 'enclosingFunction' | 'snippet'>;

/** A finding's line-independent identity, as one string (also the base of SARIF fingerprints). */
export function identityKey(finding: Identity): string {
  // JSON of an array cannot collide the way a joined string could.
  return JSON.stringify([
    finding.ruleId,
    finding.file,
    finding.enclosingFunction ?? null,
    normaliseSnippet(finding.snippet) ?? null,
  ]);
}

function compareEntries(a: Identity, b: Identity): number {
  return (
    compareStrings(a.file, b.file) ||
    compareStrings(a.ruleId, b.ruleId) ||
    compareStrings(a.enclosingFunction ?? '', b.enclosingFunction ?? '') ||
    compareStrings(a.snippet ?? '', b.snippet ?? '')
  );
}

/** An entry with a fixed key order and no undefined fields, so the JSON is stable. */
function entryOf(identity: Identity, count: number): BaselineEntry {
  const entry: Identity = { ruleId: identity.ruleId, file: identity.file };
  if (identity.enclosingFunction !== undefined) entry.enclosingFunction = identity.enclosingFunction;
  const snippet = normaliseSnippet(identity.snippet);
  if (snippet !== undefined) entry.snippet = snippet;
  return { ...entry, count };
}

/**
 * Records the report's unsuppressed findings. Pass the report before any baseline was applied
 * (`--update-baseline` rewrites the baseline from scratch); suppressed findings need no entry.
 */
export function createBaseline(report: Pick<Report, 'findings'>): Baseline {
  const entries = new Map<string, BaselineEntry>();
  for (const finding of activeFindings(report)) {
    const key = identityKey(finding);
    const entry = entries.get(key);
    if (entry) entry.count += 1;
    else entries.set(key, entryOf(finding, 1));
  }
  return { schemaVersion: BASELINE_SCHEMA_VERSION, entries: [...entries.values()].sort(compareEntries) };
}

/**
 * Applies a baseline. Findings it tolerates are removed from `findings` (they are known debt and
 * would only bury the new ones) and counted in `baseline.tolerated`; what stays is new or
 * suppressed, so `summary.findings` is the number of new findings, the ones that fail the run.
 * Entries, or the part of an entry's count, that matched nothing are listed as stale.
 */
export function applyBaseline(report: Report, baseline: Baseline): Report {
  const remaining = new Map<string, { entry: BaselineEntry; count: number }>();
  for (const entry of baseline.entries) {
    const key = identityKey(entry);
    const seen = remaining.get(key);
    if (seen) seen.count += entry.count;
    else remaining.set(key, { entry, count: entry.count });
  }

  let tolerated = 0;
  const kept: Finding[] = [];
  // Findings are sorted, so of several identical findings the first ones are tolerated.
  for (const finding of report.findings) {
    const slot = finding.suppressed ? undefined : remaining.get(identityKey(finding));
    if (slot && slot.count > 0) {
      slot.count -= 1;
      tolerated += 1;
    } else {
      kept.push(finding);
    }
  }

  const stale: StaleBaselineEntry[] = [...remaining.values()]
    .filter((slot) => slot.count > 0)
    .map(({ entry, count }) => entryOf(entry, count))
    .sort(compareEntries);

  return createReport({
    tool: report.tool,
    rules: report.rules,
    findings: kept,
    handlers: report.handlers,
    notAnalysed: report.notAnalysed,
    files: report.summary.files,
    baseline: { tolerated, new: activeFindings({ findings: kept }).length, stale },
  });
}

/** Serialises a baseline as stable, diff-friendly JSON. */
export function formatBaseline(baseline: Baseline): string {
  const entries = baseline.entries.map((entry) => entryOf(entry, entry.count));
  return JSON.stringify({ schemaVersion: baseline.schemaVersion, entries }, null, 2) + '\n';
}

function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

function isEntry(value: unknown): value is BaselineEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.ruleId === 'string' &&
    typeof entry.file === 'string' &&
    isOptionalString(entry.enclosingFunction) &&
    isOptionalString(entry.snippet) &&
    Number.isInteger(entry.count) &&
    (entry.count as number) > 0
  );
}

/** Parses a baseline file's text; throws an Error with one clear line when it is not one. */
export function parseBaseline(text: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`baseline is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof data !== 'object' || data === null) throw new Error('baseline must be a JSON object');
  const { schemaVersion, entries } = data as { schemaVersion?: unknown; entries?: unknown };
  if (schemaVersion !== BASELINE_SCHEMA_VERSION) {
    throw new Error(
      `baseline schemaVersion ${JSON.stringify(schemaVersion)} is not supported (expected ${BASELINE_SCHEMA_VERSION})`,
    );
  }
  if (!Array.isArray(entries)) throw new Error('baseline entries must be an array');
  const bad = entries.findIndex((entry) => !isEntry(entry));
  if (bad !== -1)
    throw new Error(
      `baseline entry ${bad} needs ruleId, file, a positive integer count and string enclosingFunction/snippet`,
    );
  // Hand-edited files may carry unnormalised snippets or extra fields; keep only the identity.
  const parsed = (entries as BaselineEntry[]).map((entry) => entryOf(entry, entry.count));
  return { schemaVersion: BASELINE_SCHEMA_VERSION, entries: parsed.sort(compareEntries) };
}
