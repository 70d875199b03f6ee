import { styleText } from 'node:util';

import { activeFindings, type Finding, type HandlerEntry, type Report, type Verdict } from './model.js';
import { coverageLine, groupByFile, list, location, plural } from './format-util.js';

export interface TextOptions {
  /** Style with ANSI colours. The CLI decides (NO_COLOR, TTY); the formatter never looks. */
  color?: boolean;
  /** Only the findings and the summary line (`--quiet`): no suppressed list, inventory or stale baseline. */
  quiet?: boolean;
}

type Style = Parameters<typeof styleText>[0];
type Paint = (style: Style, text: string) => string;

// validateStream: false keeps the function pure: newer Node versions would otherwise drop
// colours on their own when process.stdout is not a TTY.
const paintWith: Paint = (style, text) => (text === '' ? text : styleText(style, text, { validateStream: false }));
const plain: Paint = (_style, text) => text;

interface Cell {
  text: string;
  style?: Style;
}

/** Left-aligned columns, two spaces apart, styled after padding so widths stay right. */
function table(rows: readonly (readonly Cell[])[], paint: Paint, indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.text.length)));
  return rows.map((row) => {
    const cells = row.map((cell, i) => {
      const padded = i === row.length - 1 ? cell.text : cell.text.padEnd(widths[i] ?? 0);
      return cell.style ? paint(cell.style, padded) : padded;
    });
    return (indent + cells.join('  ')).trimEnd();
  });
}

function findingRow(finding: Finding): Cell[] {
  const ruleStyle: Style = finding.severity === 'error' ? 'red' : 'yellow';
  const row: Cell[] = [
    { text: location(finding) },
    { text: finding.message },
    { text: finding.ruleId, style: ruleStyle },
  ];
  if (finding.suppressed?.justification) row.push({ text: `-- ${finding.suppressed.justification}`, style: 'dim' });
  return row;
}

const VERDICT_STYLE: Record<Verdict, Style> = { protected: 'green', unprotected: 'red', unknown: 'yellow' };

function handlerRow(handler: HandlerEntry): Cell[] {
  return [
    { text: location(handler) },
    { text: handler.name ?? '-' },
    { text: handler.broker },
    { text: handler.queue ?? '-' },
    { text: list(handler.effects) },
    { text: list(handler.protections) },
    { text: handler.verdict, style: VERDICT_STYLE[handler.verdict] },
  ];
}

function summaryLine(report: Report, paint: Paint): string {
  const active = activeFindings(report);
  const parts: string[] = [];
  if (active.length === 0) {
    parts.push(paint(['green', 'bold'], '✔ No findings'));
  } else {
    const errors = active.filter((finding) => finding.severity === 'error').length;
    const files = new Set(active.map((finding) => finding.file)).size;
    const severities = [
      errors > 0 ? plural(errors, 'error') : '',
      errors < active.length ? plural(active.length - errors, 'warning') : '',
    ];
    const noun = report.baseline ? 'new finding' : 'finding';
    const headline = `✖ ${plural(active.length, noun)} in ${plural(files, 'file')} (${severities.filter(Boolean).join(', ')})`;
    parts.push(paint([errors > 0 ? 'red' : 'yellow', 'bold'], headline));
  }
  if (report.summary.suppressed > 0) parts.push(`${report.summary.suppressed} suppressed`);
  if (report.baseline) parts.push(`${report.baseline.tolerated} tolerated by the baseline`);
  parts.push(`${plural(report.summary.files, 'file')} analysed`);
  if (report.notAnalysed.length > 0) parts.push(`${report.notAnalysed.length} not analysed`);
  return parts.join(' · ');
}

/** The human report: findings grouped by file, then what else needs attention, then the summary. */
export function formatText(report: Report, options: TextOptions = {}): string {
  const paint = options.color ? paintWith : plain;
  const heading = (text: string): string => paint('bold', text);
  const sections: string[][] = [];

  const active = activeFindings(report);
  for (const group of groupByFile(active)) sections.push(table(group.map(findingRow), paint, ''));

  if (options.quiet) {
    sections.push([summaryLine(report, paint)]);
    return sections.map((lines) => lines.join('\n')).join('\n\n') + '\n';
  }

  const suppressed = report.findings.filter((finding) => finding.suppressed);
  if (suppressed.length > 0) {
    sections.push([heading(`Suppressed (${suppressed.length})`), ...table(suppressed.map(findingRow), paint)]);
  }

  if (report.notAnalysed.length > 0) {
    const rows = report.notAnalysed.map((entry) => [
      { text: entry.file },
      { text: entry.reason, style: 'dim' as const },
    ]);
    sections.push([heading(`Not analysed (${report.notAnalysed.length})`), ...table(rows, paint)]);
  }

  const stale = report.baseline?.stale ?? [];
  if (stale.length > 0) {
    const rows = stale.map((entry) => [
      { text: entry.file },
      { text: entry.ruleId },
      { text: entry.enclosingFunction ? `in ${entry.enclosingFunction}` : '' },
      { text: `${entry.count > 1 ? `${entry.count}× ` : ''}${entry.snippet ?? ''}`, style: 'dim' as const },
    ]);
    const title = `Stale baseline entries (${stale.reduce((sum, entry) => sum + entry.count, 0)}): fixed since; --update-baseline drops them`;
    sections.push([heading(title), ...table(rows, paint)]);
  }

  if (report.handlers.length > 0) {
    const header = ['location', 'handler', 'broker', 'queue', 'effects', 'protections', 'verdict'].map((text) => ({
      text,
      style: 'dim' as const,
    }));
    sections.push([
      heading(`Handlers: ${coverageLine(report) ?? ''}`),
      ...table([header, ...report.handlers.map(handlerRow)], paint),
    ]);
  }

  sections.push([summaryLine(report, paint)]);
  return sections.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}
