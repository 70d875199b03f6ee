import type { Finding, HandlerEntry, Report } from './model.js';

/** `n thing` / `n things`. */
export function plural(count: number, noun: string, pluralNoun = noun + 's'): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

export function location(entry: Pick<Finding | HandlerEntry, 'file' | 'line' | 'column'>): string {
  return `${entry.file}:${entry.line}:${entry.column}`;
}

/** Splits findings into consecutive runs of the same file (findings are sorted by file). */
export function groupByFile(findings: readonly Finding[]): Finding[][] {
  const groups: Finding[][] = [];
  for (const finding of findings) {
    const last = groups.at(-1);
    if (last?.[0]?.file === finding.file) last.push(finding);
    else groups.push([finding]);
  }
  return groups;
}

/** "2 of 3 handlers protected", or undefined when the repository has no handlers. */
export function coverageLine(report: Report): string | undefined {
  const { handlers, protectedHandlers } = report.summary;
  if (handlers === 0) return undefined;
  return `${protectedHandlers} of ${plural(handlers, 'handler')} protected`;
}

export function list(values: readonly string[]): string {
  return values.length === 0 ? '-' : values.join(', ');
}

/** Text made safe inside HTML elements and quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A link to a file at a line (or a range of lines, GitHub's `#L3-L9`), under a prefix. */
export function fileHref(entry: Pick<Finding, 'file' | 'line' | 'endLine'>, linkBase: string): string {
  const uri = entry.file.split('/').map(encodeURIComponent).join('/');
  const anchor =
    entry.endLine !== undefined && entry.endLine !== entry.line
      ? `#L${entry.line}-L${entry.endLine}`
      : `#L${entry.line}`;
  return `${linkBase}${uri}${anchor}`;
}
