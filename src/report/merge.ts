import {
  createReport,
  REPORT_SCHEMA_VERSION,
  type Finding,
  type HandlerEntry,
  type NotAnalysed,
  type Report,
  type ReportParts,
} from './model.js';

/**
 * `idempotency-check merge`: the JSON reports of the shards of one `--shard i/n` run, combined
 * into the report an unsharded run writes. Each shard reports a disjoint share of the files with
 * complete cross-file facts, so combining is concatenation; the tsconfigs read in part, which
 * every shard reports, are kept once.
 */

/** What one shard's JSON report holds, read back. */
interface ShardReport {
  name: string;
  version: string;
  shard: { index: number; count: number };
  files: number;
  findings: Finding[];
  handlers: HandlerEntry[];
  notAnalysed: NotAnalysed[];
}

/** Bad input for merge: the CLI prints it as one line and exits 2. */
export class MergeError extends Error {
  override name = 'MergeError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one shard's JSON report; `label` names it in messages. */
export function parseShardReport(text: string, label: string): ShardReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new MergeError(`${label} is not JSON: write the shard reports with --format json`);
  }
  if (!isRecord(data) || data.schemaVersion !== REPORT_SCHEMA_VERSION)
    throw new MergeError(`${label} is not an idempotency-check JSON report of schemaVersion ${REPORT_SCHEMA_VERSION}`);
  const { tool, shard, summary, findings, handlers, notAnalysed, baseline } = data;
  if (!isRecord(tool) || typeof tool.name !== 'string' || typeof tool.version !== 'string')
    throw new MergeError(`${label} has no tool name and version`);
  if (!isRecord(shard) || typeof shard.index !== 'number' || typeof shard.count !== 'number')
    throw new MergeError(`${label} is not a shard report: run it with --shard <i>/<n>`);
  if (baseline !== undefined)
    throw new MergeError(`${label} had a baseline applied: run the shards without --baseline and give it to merge`);
  if (!isRecord(summary) || typeof summary.files !== 'number') throw new MergeError(`${label} has no summary.files`);
  if (!Array.isArray(findings) || !Array.isArray(handlers) || !Array.isArray(notAnalysed))
    throw new MergeError(`${label} lacks findings, handlers or notAnalysed`);
  return {
    name: tool.name,
    version: tool.version,
    shard: { index: shard.index, count: shard.count },
    files: summary.files,
    // The JSON writer's own output: its entries have the shapes it wrote.
    findings: findings as Finding[],
    handlers: handlers as HandlerEntry[],
    notAnalysed: notAnalysed as NotAnalysed[],
  };
}

/** Combines every shard of one run; throws MergeError when one is missing, repeated or of another run. */
export function mergeShardReports(reports: readonly ShardReport[], parts: Pick<ReportParts, 'tool' | 'rules'>): Report {
  const [first] = reports;
  if (first === undefined) throw new MergeError('merge needs the JSON reports of the shards');
  const count = first.shard.count;
  const seen = new Set<number>();
  for (const report of reports) {
    if (report.name !== parts.tool.name || report.version !== parts.tool.version)
      throw new MergeError(
        `shard ${report.shard.index}/${report.shard.count} was written by ${report.name} ${report.version}; merge with the same version (${parts.tool.version})`,
      );
    if (report.shard.count !== count)
      throw new MergeError(`the reports are of different splits: ${count} and ${report.shard.count} shards`);
    if (seen.has(report.shard.index)) throw new MergeError(`shard ${report.shard.index}/${count} is given twice`);
    seen.add(report.shard.index);
  }
  const missing = Array.from({ length: count }, (_, index) => index + 1).filter((index) => !seen.has(index));
  if (missing.length > 0)
    throw new MergeError(`shard ${missing.map((index) => `${index}/${count}`).join(', ')} missing`);
  const notAnalysed = new Map<string, NotAnalysed>();
  for (const entry of reports.flatMap((report) => report.notAnalysed))
    notAnalysed.set(JSON.stringify([entry.file, entry.reason]), entry);
  return createReport({
    ...parts,
    findings: reports.flatMap((report) => report.findings),
    handlers: reports.flatMap((report) => report.handlers),
    notAnalysed: [...notAnalysed.values()],
    files: reports.reduce((sum, report) => sum + report.files, 0),
  });
}
