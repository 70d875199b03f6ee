import { formatGithub } from './github.js';
import { formatHtml, type HtmlOptions } from './html.js';
import { formatJson } from './json.js';
import { formatMarkdown, type MarkdownOptions } from './markdown.js';
import type { Report } from './model.js';
import { formatSarif, type SarifOptions } from './sarif.js';
import { formatText, type TextOptions } from './text.js';

export type FormatName = 'text' | 'json' | 'sarif' | 'markdown' | 'github' | 'html';

/** Every formatter's options in one bag; each formatter reads the ones it knows. */
type FormatOptions = TextOptions & SarifOptions & MarkdownOptions & HtmlOptions;

export type Formatter = (report: Report, options?: FormatOptions) => string;

/** The report formats, by `--format` name. Pure: a report in, a string out. */
export const formatters: Record<FormatName, Formatter> = {
  text: formatText,
  json: formatJson,
  sarif: formatSarif,
  markdown: formatMarkdown,
  github: formatGithub,
  html: formatHtml,
};

export const FORMAT_NAMES = Object.keys(formatters) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(formatters, name);
}
