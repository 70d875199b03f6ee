import { createHash } from 'node:crypto';

import type { ArtifactLocation, Invocation, Log, Notification, Region, ReportingDescriptor, Result } from 'sarif';

import { identityKey } from './baseline.js';
import { compareStrings, type Finding, type Report, type RuleInfo } from './model.js';
import { ruleInfo } from './rules.js';

export interface SarifOptions {
  /**
   * Emit suppressed findings with `suppressions` (default true). GitHub code scanning ignores
   * suppressions and would raise them as alerts, so the CLI may turn this off for it.
   */
  includeSuppressed?: boolean;
  /**
   * Metadata for rules outside the plugin that the analysis reports under their own ids (the
   * whole-program config checks), so their results get a description too.
   */
  extraRules?: readonly RuleInfo[];
}

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Where the paths are relative to; the uploader (or a SARIF viewer) binds it to the checkout. */
const SRCROOT = '%SRCROOT%';
const FINGERPRINT_KEY = 'idempotencyFinding/v1';

/** Percent-encodes each path segment, keeping the separators: a relative URI reference. */
function uriOf(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

function artifactLocation(file: string): ArtifactLocation {
  return { uri: uriOf(file), uriBaseId: SRCROOT };
}

function reportingDescriptor(rule: RuleInfo): ReportingDescriptor {
  const descriptor: ReportingDescriptor = { id: rule.id, name: rule.name };
  if (rule.description) descriptor.shortDescription = { text: rule.description };
  if (rule.url) descriptor.helpUri = rule.url;
  // Every rule carries help: its doc's explanation when the report has it, else its description; and the link.
  const text = `${rule.description ?? rule.id}.${rule.url ? ` See ${rule.url}.` : ''}`;
  const link = rule.url ? `\n\n[Documentation](${rule.url})` : '';
  descriptor.help = { text, markdown: rule.help === undefined ? text : `${rule.help}${link}` };
  return descriptor;
}

function region(finding: Finding): Region {
  const out: Region = { startLine: finding.line, startColumn: finding.column };
  if (finding.endLine !== undefined) out.endLine = finding.endLine;
  if (finding.endColumn !== undefined) out.endColumn = finding.endColumn;
  return out;
}

/**
 * Fingerprints from the same line-independent identity the baseline uses, so an alert keeps
 * its identity when code moves; identical findings get `:2`, `:3`, ... as GitHub's own hashes do.
 */
function fingerprints(findings: readonly Finding[]): string[] {
  const seen = new Map<string, number>();
  return findings.map((finding) => {
    const hash = createHash('sha256').update(identityKey(finding)).digest('hex').slice(0, 32);
    const occurrence = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, occurrence);
    return `${hash}:${occurrence}`;
  });
}

/** SARIF 2.1.0 for code scanning and SARIF viewers. */
export function formatSarif(report: Report, options: SarifOptions = {}): string {
  const includeSuppressed = options.includeSuppressed ?? true;
  const findings = report.findings.filter((finding) => includeSuppressed || !finding.suppressed);

  // Every rule the report describes, so a rule's index does not change with what one run found;
  // then any other rule ids the analysis reported.
  const rules = [...report.rules];
  const extra = [...new Set(findings.map((finding) => finding.ruleId))]
    .filter((id) => !rules.some((rule) => rule.id === id))
    .sort(compareStrings);
  rules.push(...extra.map((id) => options.extraRules?.find((rule) => rule.id === id) ?? ruleInfo(report, id)));
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));

  const prints = fingerprints(findings);
  const results = findings.map((finding, index): Result => {
    const result: Result = {
      ruleId: finding.ruleId,
      ...(ruleIndex.has(finding.ruleId) ? { ruleIndex: ruleIndex.get(finding.ruleId) } : {}),
      level: finding.severity,
      message: { text: finding.message },
      locations: [{ physicalLocation: { artifactLocation: artifactLocation(finding.file), region: region(finding) } }],
      partialFingerprints: { [FINGERPRINT_KEY]: prints[index] ?? '' },
    };
    if (finding.suppressed) {
      result.suppressions = [
        finding.suppressed.justification
          ? { kind: 'inSource', justification: finding.suppressed.justification }
          : { kind: 'inSource' },
      ];
    }
    return result;
  });

  const notifications = report.notAnalysed.map((entry): Notification => ({
    level: 'warning',
    message: { text: `Not analysed: ${entry.reason}` },
    locations: [{ physicalLocation: { artifactLocation: artifactLocation(entry.file) } }],
  }));

  const invocation: Invocation =
    notifications.length > 0
      ? { executionSuccessful: true, toolExecutionNotifications: notifications }
      : { executionSuccessful: true };
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            semanticVersion: report.tool.version,
            ...(report.tool.informationUri === undefined ? {} : { informationUri: report.tool.informationUri }),
            rules: rules.map(reportingDescriptor),
          },
        },
        invocations: [invocation],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
