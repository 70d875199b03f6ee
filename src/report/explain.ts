import type { HandlerEntry, PathStep, Report } from './model.js';
import { storyOf, type HandlerStory } from './story.js';
import { location, plural } from './format-util.js';

/**
 * `idempotency-check --explain <file:line | file | name>`: the story of one handler, as text. What
 * delivers to it, the verdict and why, each effect a redelivery repeats with the functions the
 * delivery goes through to reach it (each where it is defined), the protections on the way, and
 * the findings inside those functions.
 */

/** The handlers a `--explain` target names, and how it named them; none with suggestions when nothing matches. */
export type ExplainMatch =
  { handlers: HandlerEntry[]; nearest?: { line: number } } | { handlers: []; suggestions: HandlerEntry[] };

const AT = /^(?<file>.+?):(?<line>\d+)(?::\d+)?$/;

/** Forward slashes, no leading `./`: the report's own spelling of a repo-relative path. */
function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
}

/**
 * `file:line` (or `file:line:column`): the handler that starts on that line, else the nearest one
 * above it in the file; `file`: every handler in it; otherwise a handler's name or its queue.
 */
export function selectHandlers(handlers: readonly HandlerEntry[], target: string): ExplainMatch {
  const at = AT.exec(target.trim());
  const file = normalise(at?.groups?.file ?? target.trim());
  const inFile = handlers.filter((handler) => handler.file === file);
  if (at?.groups && inFile.length > 0) {
    const line = Number(at.groups.line);
    const exact = inFile.filter((handler) => handler.line === line);
    if (exact.length > 0) return { handlers: exact };
    const above = inFile.filter((handler) => handler.line < line).sort((a, b) => b.line - a.line)[0];
    if (above) return { handlers: [above], nearest: { line } };
  }
  if (!at && inFile.length > 0) return { handlers: inFile };
  const named = handlers.filter((handler) => handler.name === target || handler.queue === target);
  if (named.length > 0) return { handlers: named };
  const needle = (at ? file : target).toLowerCase();
  const suggestions = handlers
    .filter(
      (handler) =>
        handler.file === file ||
        handler.file.toLowerCase().includes(needle) ||
        (handler.name?.toLowerCase().includes(needle) ?? false) ||
        (handler.queue?.toLowerCase().includes(needle) ?? false),
    )
    .slice(0, 5);
  return { handlers: [], suggestions };
}

/** How the handler reaches a step: the functions on the way, or the handler itself. */
function route(via: readonly PathStep[]): string {
  return via.length === 0
    ? 'in the handler itself'
    : `via ${via.map((step) => `${step.name} (${step.file}${step.line === undefined ? '' : `:${step.line}`})`).join(' → ')}`;
}

/** One line per effect or protection, each with the way the handler reaches it and, when known, the call that makes it. */
function routes(steps: HandlerStory['effects']): string[] {
  const width = Math.max(...steps.map((step) => step.name.length));
  return steps.map(
    (step) =>
      `    ${step.name.padEnd(width)}  ${route(step.via)}${step.at ? `, at ${step.at.file}:${step.at.line}` : ''}`,
  );
}

/** One handler's story, as lines of text. */
function explainHandler(handler: HandlerEntry, report: Report): string[] {
  const story = storyOf(handler, report);
  const name = handler.name === undefined ? '' : ` \`${handler.name}\``;
  const queue = handler.queue === undefined ? '' : ` for \`${handler.queue}\``;
  const lines = [`${location(handler)}  ${handler.broker} handler${name}${queue}`];
  const at = handler.registeredAt;
  if (at) lines.push(`  registered at ${at.file}:${at.line}`);
  lines.push(`  verdict: ${handler.verdict}: ${handler.reason}`, '');
  if (story.effects.length === 0) lines.push('  A redelivery repeats no write or request the analysis sees.');
  else
    lines.push(`  What a redelivery runs again (${plural(story.effects.length, 'effect')}):`, ...routes(story.effects));
  if (story.protections.length === 0) lines.push('  Protections on the way: none');
  else lines.push(`  Protections on the way (${story.protections.length}):`, ...routes(story.protections));
  if (story.findings.length > 0) {
    lines.push(`  Findings in these functions (${story.findings.length}):`);
    for (const finding of story.findings) lines.push(`    ${location(finding)}  ${finding.ruleId}  ${finding.message}`);
  }
  return lines;
}

/** The stories of the handlers a target names, or why none. */
export function formatExplanation(report: Report, target: string): { text: string } | { error: string } {
  const match = selectHandlers(report.handlers, target);
  if (match.handlers.length === 0) {
    const hint =
      'suggestions' in match && match.suggestions.length > 0
        ? `; did you mean ${match.suggestions.map((handler) => `${location(handler)} (${handler.name ?? handler.broker})`).join(', ')}?`
        : report.handlers.length === 0
          ? '; the analysis found no consumer or webhook handler'
          : `; give a handler's file:line, its file, its name or its queue (${plural(report.handlers.length, 'handler')} in the inventory)`;
    return { error: `no handler matches '${target}'${hint}` };
  }
  const blocks = match.handlers.map((handler) => explainHandler(handler, report).join('\n'));
  const note =
    'nearest' in match && match.nearest
      ? `No handler starts on line ${match.nearest.line}; the nearest one above it:\n\n`
      : '';
  return { text: `${note}${blocks.join('\n\n')}\n` };
}
