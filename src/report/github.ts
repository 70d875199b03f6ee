import { activeFindings, type Finding, type Report } from './model.js';

// Escaping as @actions/core's command.ts does it: the runner decodes these sequences.
/** Escapes a workflow command's message. */
export function escapeData(value: string): string {
  return value.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escapes a workflow command property value, where `:` and `,` are delimiters too. */
export function escapeProperty(value: string): string {
  return escapeData(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function command(name: string, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${name} ${props}::${escapeData(message)}`;
}

function annotation(finding: Finding): string {
  return command(
    finding.severity,
    {
      file: finding.file,
      line: finding.line,
      col: finding.column,
      endLine: finding.endLine,
      endColumn: finding.endColumn,
      title: finding.ruleId,
    },
    finding.message,
  );
}

/**
 * GitHub Actions workflow commands: one annotation per unsuppressed finding, a warning per file
 * that could not be analysed. Suppressed findings are left out: they are decided already.
 */
export function formatGithub(report: Report): string {
  const lines = activeFindings(report).map(annotation);
  for (const entry of report.notAnalysed) {
    lines.push(command('warning', { file: entry.file, title: 'idempotency-check: not analysed' }, entry.reason));
  }
  return lines.map((line) => line + '\n').join('');
}
