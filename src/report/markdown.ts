import { activeFindings, type Finding, type HandlerEntry, type Report, type Verdict } from './model.js';
import { coverageLine, fileHref, list, location, plural } from './format-util.js';
import { ruleInfo } from './rules.js';

export interface MarkdownOptions {
  /**
   * Prefix for links to files, e.g. `https://github.com/o/r/blob/<sha>/`. Default: links
   * relative to the repository root.
   */
  linkBase?: string;
  /** Rows per table before the rest is cut, keeping a PR comment under GitHub's size limit. */
  maxRows?: number;
  /** The file name of the HTML report the same run writes, which the Markdown points a reader to. */
  htmlReport?: string;
}

/** Lists longer than this fold into `<details>`, so a clean run's comment stays short. */
const COLLAPSE_AFTER = 10;
const DEFAULT_MAX_ROWS = 200;

const VERDICT_EMOJI: Record<Verdict, string> = { protected: '✅', unprotected: '❌', unknown: '❔' };

/**
 * Makes text safe in a table cell: pipes escaped, line breaks flattened, and HTML outside
 * backtick code spans neutralised (inside them GitHub shows the characters as they are).
 */
export function cell(text: string): string {
  return text
    .replace(/\r?\n/gu, ' ')
    .split('`')
    .map((part, i) =>
      i % 2 === 1 ? part : part.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
    )
    .join('`')
    .replaceAll('|', '\\|');
}

/**
 * Wraps text in a code span for a table cell: a double fence when the text holds a backtick,
 * pipes escaped (GitHub splits cells before it reads code spans).
 */
function code(text: string): string {
  const flat = text.replace(/\r?\n/gu, ' ').replaceAll('|', '\\|');
  return flat.includes('`') ? `\`\` ${flat} \`\`` : `\`${flat}\``;
}

function fileLink(entry: Pick<Finding, 'file' | 'line' | 'column' | 'endLine'>, linkBase: string): string {
  return `[${code(location(entry))}](${fileHref(entry, linkBase)})`;
}

function ruleLink(report: Report, ruleId: string): string {
  const rule = ruleInfo(report, ruleId);
  return rule.url ? `[${code(rule.name)}](${rule.url})` : code(rule.name);
}

function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], maxRows: number): string[] {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of rows.slice(0, maxRows)) lines.push(`| ${row.join(' | ')} |`);
  if (rows.length > maxRows) lines.push('', `…and ${rows.length - maxRows} more; see the full report.`);
  return lines;
}

/** A titled block; folded into `<details>` when the list is long. */
function section(title: string, count: number, body: readonly string[], open: boolean): string[] {
  if (count <= COLLAPSE_AFTER && open) return [`#### ${title}`, '', ...body];
  return ['<details>', `<summary>${cell(title)}</summary>`, '', ...body, '', '</details>'];
}

function findingRow(report: Report, finding: Finding, linkBase: string): string[] {
  const row = [fileLink(finding, linkBase), ruleLink(report, finding.ruleId), cell(finding.message)];
  if (finding.suppressed) row.push(cell(finding.suppressed.justification ?? ''));
  return row;
}

function handlerRow(handler: HandlerEntry, linkBase: string): string[] {
  return [
    `${VERDICT_EMOJI[handler.verdict]} ${handler.verdict}`,
    fileLink(handler, linkBase) + (handler.name ? ` ${code(handler.name)}` : ''),
    cell(handler.broker),
    handler.queue ? code(handler.queue) : '-',
    cell(list(handler.effects)),
    cell(list(handler.protections)),
  ];
}

function headline(report: Report): string {
  const active = activeFindings(report);
  const parts = [
    active.length === 0
      ? '✅ **No findings**'
      : `❌ **${plural(active.length, report.baseline ? 'new finding' : 'finding')}** in ${plural(new Set(active.map((finding) => finding.file)).size, 'file')}`,
  ];
  if (report.summary.suppressed > 0) parts.push(`${report.summary.suppressed} suppressed`);
  if (report.baseline) parts.push(`${report.baseline.tolerated} tolerated by the baseline`);
  parts.push(`${plural(report.summary.files, 'file')} analysed`);
  if (report.notAnalysed.length > 0) parts.push(`⚠️ ${report.notAnalysed.length} not analysed`);
  const coverage = coverageLine(report);
  if (coverage) parts.push(`**${coverage}**`);
  return parts.join(' · ');
}

/** A report for a PR comment or a GitHub job summary (`$GITHUB_STEP_SUMMARY`). */
export function formatMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const linkBase = options.linkBase ?? '';
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  const blocks: string[][] = [[`### ${report.tool.name}`, '', headline(report)]];
  if (options.htmlReport !== undefined && report.handlers.length + report.findings.length > 0)
    blocks.push([
      `Each handler's story (what a redelivery repeats, the path to it, what guards it) and a picture of them all: ${code(options.htmlReport)}, the HTML report of this run.`,
    ]);

  const active = activeFindings(report);
  if (active.length > 0) {
    const rows = active.map((finding) => findingRow(report, finding, linkBase));
    blocks.push(
      section(
        `Findings (${active.length})`,
        active.length,
        markdownTable(['Location', 'Rule', 'Message'], rows, maxRows),
        true,
      ),
    );
  }

  const suppressed = report.findings.filter((finding) => finding.suppressed);
  if (suppressed.length > 0) {
    const rows = suppressed.map((finding) => findingRow(report, finding, linkBase));
    blocks.push(
      section(
        `Suppressed (${suppressed.length})`,
        suppressed.length,
        markdownTable(['Location', 'Rule', 'Message', 'Justification'], rows, maxRows),
        false,
      ),
    );
  }

  if (report.notAnalysed.length > 0) {
    const rows = report.notAnalysed.map((entry) => [code(entry.file), cell(entry.reason)]);
    blocks.push(
      section(
        `Not analysed (${report.notAnalysed.length})`,
        rows.length,
        markdownTable(['File', 'Reason'], rows, maxRows),
        true,
      ),
    );
  }

  const stale = report.baseline?.stale ?? [];
  if (stale.length > 0) {
    const rows = stale.map((entry) => [
      code(entry.file),
      ruleLink(report, entry.ruleId),
      entry.enclosingFunction ? code(entry.enclosingFunction) : '-',
      entry.snippet ? code(entry.snippet) : '-',
      String(entry.count),
    ]);
    const table = markdownTable(['File', 'Rule', 'Function', 'Snippet', 'Count'], rows, maxRows);
    const staleCount = stale.reduce((sum, entry) => sum + entry.count, 0);
    blocks.push(
      section(
        `Stale baseline entries (${staleCount})`,
        stale.length,
        ['Fixed since the baseline was written; `--update-baseline` drops them.', '', ...table],
        false,
      ),
    );
  }

  if (report.handlers.length > 0) {
    const rows = report.handlers.map((handler) => handlerRow(handler, linkBase));
    const table = markdownTable(['Verdict', 'Handler', 'Broker', 'Queue', 'Effects', 'Protections'], rows, maxRows);
    blocks.push(section(`Handlers: ${coverageLine(report) ?? ''}`, rows.length, table, true));
  }

  return blocks.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}
