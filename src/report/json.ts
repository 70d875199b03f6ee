import type { Finding, HandlerEntry, PathStep, Report } from './model.js';

/**
 * Copies `value`'s keys in the order `keys` lists them, leaving out undefined ones, so the
 * JSON does not depend on the order in which the analysis happened to build its objects.
 */
function ordered<T extends object>(value: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out;
}

const FINDING_KEYS: readonly (keyof Finding)[] = [
  'ruleId',
  'messageId',
  'message',
  'severity',
  'file',
  'line',
  'column',
  'endLine',
  'endColumn',
  'enclosingFunction',
  'snippet',
  'fixable',
  'suggestions',
  'suppressed',
];

const HANDLER_KEYS: readonly (keyof HandlerEntry)[] = [
  'file',
  'line',
  'column',
  'endLine',
  'name',
  'package',
  'broker',
  'queue',
  'registeredAt',
  'effects',
  'protections',
  'verdict',
  'reason',
  'paths',
  'protectionPaths',
  'effectSites',
];

/** A path's steps with their keys in one order. */
function steps(via: readonly PathStep[]): PathStep[] {
  return via.map((step) => ({
    file: step.file,
    ...(step.line === undefined ? {} : { line: step.line }),
    name: step.name,
  }));
}

/** The versioned report as JSON: stable key order, 2-space indent, trailing newline. */
export function formatJson(report: Report): string {
  const out = {
    schemaVersion: report.schemaVersion,
    tool: { name: report.tool.name, version: report.tool.version },
    shard: report.shard && { index: report.shard.index, count: report.shard.count },
    summary: ordered(report.summary, ['files', 'findings', 'suppressed', 'handlers', 'protectedHandlers']),
    baseline: report.baseline && {
      tolerated: report.baseline.tolerated,
      new: report.baseline.new,
      stale: report.baseline.stale.map((entry) =>
        ordered(entry, ['ruleId', 'file', 'enclosingFunction', 'snippet', 'count']),
      ),
    },
    findings: report.findings.map((finding) => {
      const out = ordered(finding, FINDING_KEYS);
      if (finding.suppressed) out.suppressed = ordered(finding.suppressed, ['justification']);
      return out;
    }),
    handlers: report.handlers.map((handler) => {
      const out = ordered(handler, HANDLER_KEYS);
      if (handler.paths) out.paths = handler.paths.map((path) => ({ effect: path.effect, via: steps(path.via) }));
      if (handler.effectSites)
        out.effectSites = handler.effectSites.map((site) => ({
          effect: site.effect,
          file: site.file,
          line: site.line,
        }));
      if (handler.protectionPaths)
        out.protectionPaths = handler.protectionPaths.map((path) => ({
          protection: path.protection,
          via: steps(path.via),
        }));
      return out;
    }),
    notAnalysed: report.notAnalysed.map((entry) => ordered(entry, ['file', 'reason'])),
  };
  return JSON.stringify(out, null, 2) + '\n';
}
