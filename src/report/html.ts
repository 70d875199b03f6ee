import {
  activeFindings,
  compareStrings,
  type Finding,
  type HandlerEntry,
  type PathStep,
  type Report,
} from './model.js';
import { coverageLine, escapeHtml, fileHref, location, plural } from './format-util.js';
import { inventorySvg } from './html-graph.js';
import { ruleInfo } from './rules.js';
import { storyOf, type HandlerStory } from './story.js';

export interface HtmlOptions {
  /** Prefix for links to files, as for the Markdown report. Default: relative to the repository root. */
  linkBase?: string;
}

/**
 * `--format html`: one self-contained page for a reviewer. A summary; the inventory as a picture;
 * each handler's story (what delivers to it, each effect a redelivery repeats and the functions on
 * the way, the protections and where they are made, the verdict, the findings on that path); every
 * finding with its code and what would fix it. Styles and the filter script are inline and a
 * Content-Security-Policy forbids every fetch, so it works offline and as a CI artifact; the tables
 * and the picture are plain HTML and SVG that read without the script.
 */
export function formatHtml(report: Report, options: HtmlOptions = {}): string {
  const linkBase = options.linkBase ?? '';
  const title = `${report.tool.name} report`;
  const active = activeFindings(report);
  const findingIds = new Map(active.map((finding, index) => [finding, `finding-${index + 1}`]));
  const stories = report.handlers.map((handler) => storyOf(handler, report));
  const fixFirst = fixFirstSection(report, stories, findingIds);
  const body = [
    '<a class="skip" href="#handlers">Skip to the handlers</a>',
    `<header><h1>${escapeHtml(title)}</h1><p class="headline">${escapeHtml(headline(report))}</p>`,
    nav(report, fixFirst !== ''),
    '</header>',
    '<main>',
    summarySection(report),
    fixFirst,
    report.handlers.length > 0 ? filtersForm(report.handlers) : '',
    graphSection(report.handlers),
    handlersSection(report, stories, linkBase, findingIds),
    findingsSection(report, active, linkBase, findingIds),
    notAnalysedSection(report),
    '</main>',
    `<footer><p>${escapeHtml(`${report.tool.name} ${report.tool.version}`)} · ${escapeHtml(plural(report.summary.files, 'file'))} analysed</p></footer>`,
  ];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Nothing loads from anywhere: the page is its own styles, script and pictures.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...body.filter((part) => part !== ''),
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A rule's message or a verdict's reason: escaped, with its backtick spans as code. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function headline(report: Report): string {
  const active = report.summary.findings;
  const parts = [active === 0 ? 'No findings' : plural(active, report.baseline ? 'new finding' : 'finding')];
  if (report.summary.suppressed > 0) parts.push(`${report.summary.suppressed} suppressed`);
  if (report.baseline) parts.push(`${report.baseline.tolerated} tolerated by the baseline`);
  parts.push(`${plural(report.summary.files, 'file')} analysed`);
  if (report.notAnalysed.length > 0) parts.push(`${report.notAnalysed.length} not analysed`);
  const coverage = coverageLine(report);
  if (coverage) parts.push(coverage);
  return parts.join(' · ');
}

function nav(report: Report, fixFirst: boolean): string {
  const links: [string, string][] = [['summary', 'Summary']];
  if (fixFirst) links.push(['fix-first', 'Fix first']);
  if (report.handlers.length > 0)
    links.push(['graph', 'Picture'], ['handlers', `Handlers (${report.handlers.length})`]);
  links.push(['findings', `Findings (${report.summary.findings})`]);
  if (report.notAnalysed.length > 0) links.push(['not-analysed', `Not analysed (${report.notAnalysed.length})`]);
  return `<nav aria-label="Sections"><ul>${links.map(([id, text]) => `<li><a href="#${id}">${escapeHtml(text)}</a></li>`).join('')}</ul></nav>`;
}

function table(
  caption: string,
  header: readonly string[],
  rows: readonly string[][],
  attributes: string[] = [],
): string {
  const head = `<thead><tr>${header.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('')}</tr></thead>`;
  const bodyRows = rows.map(
    (row, index) => `<tr${attributes[index] ?? ''}>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`,
  );
  return `<table><caption>${escapeHtml(caption)}</caption>${head}<tbody>${bodyRows.join('')}</tbody></table>`;
}

function summarySection(report: Report): string {
  const parts = ['<section id="summary" aria-labelledby="summary-title"><h2 id="summary-title">Summary</h2>'];
  parts.push('<div class="tables">');
  if (report.handlers.length > 0) {
    const counts = (['unprotected', 'unknown', 'protected'] as const).map((verdict) => [
      `<span class="verdict ${verdict}">${verdict}</span>`,
      String(report.handlers.filter((handler) => handler.verdict === verdict).length),
    ]);
    parts.push(table('Handlers by verdict', ['Verdict', 'Handlers'], counts));
  }
  const byRule = new Map<string, number>();
  for (const finding of activeFindings(report)) byRule.set(finding.ruleId, (byRule.get(finding.ruleId) ?? 0) + 1);
  const ruleRows = [...byRule]
    .sort(([a, countA], [b, countB]) => countB - countA || compareStrings(a, b))
    .map(([ruleId, count]) => [ruleLink(report, ruleId), String(count)]);
  parts.push(
    ruleRows.length > 0
      ? table('Findings by rule', ['Rule', 'Findings'], ruleRows)
      : '<p>No findings: no rule reports anything the run would fail on.</p>',
  );
  parts.push(
    table(
      'Files',
      ['', 'Files'],
      [
        ['analysed', String(report.summary.files)],
        [
          report.notAnalysed.length > 0 ? '<a href="#not-analysed">not analysed</a>' : 'not analysed',
          String(report.notAnalysed.length),
        ],
      ],
    ),
  );
  parts.push('</div></section>');
  return parts.join('\n');
}

/** How many findings the fix-first list shows, and how many of each one's handlers it names. */
const FIX_FIRST = 10;
const NAMED_HANDLERS = 8;

/**
 * What to fix first: the findings on the paths of the most handlers a redelivery can hurt (not
 * protected), each with those handlers. One fix in a helper that many handlers reach makes them
 * all safer at once.
 */
function fixFirstSection(
  report: Report,
  stories: readonly HandlerStory[],
  findingIds: ReadonlyMap<Finding, string>,
): string {
  const reach = new Map<Finding, { handler: HandlerEntry; index: number }[]>();
  report.handlers.forEach((handler, index) => {
    if (handler.verdict === 'protected') return;
    for (const finding of stories[index]?.findings ?? [])
      reach.set(finding, [...(reach.get(finding) ?? []), { handler, index }]);
  });
  if (reach.size === 0) return '';
  // Most handlers first; among equals, the report's order (by file and line).
  const order = new Map(report.findings.map((finding, index) => [finding, index]));
  const ranked = [...reach]
    .sort(([a, x], [b, y]) => y.length - x.length || (order.get(a) ?? 0) - (order.get(b) ?? 0))
    .slice(0, FIX_FIRST);
  const rows = ranked.map(([finding, handlers]) => [
    findingRef(finding, findingIds),
    String(handlers.length),
    handlers
      .slice(0, NAMED_HANDLERS)
      .map(
        ({ handler, index }) =>
          `<a href="#handler-${index + 1}">${escapeHtml(handler.name ?? handler.queue ?? location(handler))}</a>`,
      )
      .join(', ') + (handlers.length > NAMED_HANDLERS ? ` and ${handlers.length - NAMED_HANDLERS} more` : ''),
  ]);
  return [
    '<section id="fix-first" aria-labelledby="fix-first-title"><h2 id="fix-first-title">Fix first</h2>',
    '<p>The findings on the paths of the most handlers that are not protected: fixing one makes every handler listed with it safer.</p>',
    table('Findings by the handlers whose redelivery reaches them', ['Finding', 'Handlers', 'Which'], rows),
    '</section>',
  ].join('\n');
}

/** The package a handler's file is in, for the filter: its workspace package, else none. */
function packageOf(handler: HandlerEntry): string {
  return handler.package ?? '';
}

function options(values: readonly string[]): string {
  return values.map((value) => `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`).join('');
}

/** Filters for the picture and the handlers; hidden until the script shows them, since only it can apply them. */
function filtersForm(handlers: readonly HandlerEntry[]): string {
  const distinct = (values: string[]): string[] => [...new Set(values)].sort(compareStrings);
  const verdicts = distinct(handlers.map((handler) => handler.verdict));
  const brokers = distinct(handlers.map((handler) => handler.broker));
  const packages = distinct(handlers.map(packageOf).filter((name) => name !== ''));
  const select = (id: string, label: string, values: string[]): string =>
    `<label for="filter-${id}">${label}</label> <select id="filter-${id}" name="${id}"><option value="">all</option>${options(values)}</select>`;
  const fields = [select('verdict', 'Verdict', verdicts), select('broker', 'Broker', brokers)];
  if (packages.length > 0) fields.push(select('package', 'Package', packages));
  return `<form id="filters" class="filters" hidden aria-label="Filter the handlers">${fields.join(' ')} <output id="filter-count" for="filter-verdict filter-broker${packages.length > 0 ? ' filter-package' : ''}"></output></form>`;
}

function graphSection(handlers: readonly HandlerEntry[]): string {
  const svg = inventorySvg(handlers);
  if (svg === undefined) return '';
  return [
    '<section id="graph" aria-labelledby="graph-title"><h2 id="graph-title">What each handler reaches</h2>',
    '<p>From each broker, the handlers it delivers to (coloured by verdict), the functions a delivery goes through, and on the right the effects a redelivery repeats. A handler links to its story.</p>',
    `<figure><div class="canvas">${svg}</div><figcaption>${escapeHtml(legend())}</figcaption></figure>`,
    '</section>',
  ].join('\n');
}

function legend(): string {
  return 'Left: brokers (bold) · red: unprotected handlers · amber: unknown · green: protected · plain boxes: functions on the way · rounded: effects';
}

function stepLink(step: PathStep, linkBase: string): string {
  const href =
    step.line === undefined ? `${linkBase}${step.file}` : fileHref({ file: step.file, line: step.line }, linkBase);
  const at = step.line === undefined ? step.file : `${step.file}:${step.line}`;
  return `<a href="${escapeHtml(href)}"><code>${escapeHtml(step.name)}</code></a> <span class="at">${escapeHtml(at)}</span>`;
}

/** An effect or protection, how the delivery gets there, and the call that makes it when known. */
function routeItem(step: HandlerStory['effects'][number], linkBase: string): string {
  const { name, via, at } = step;
  const route =
    via.length === 0
      ? '<span class="at">in the handler itself</span>'
      : `<ol class="route">${via.map((entry) => `<li>${stepLink(entry, linkBase)}</li>`).join('')}</ol>`;
  const site = at
    ? ` <span class="at">→ made at <a href="${escapeHtml(fileHref(at, linkBase))}">${escapeHtml(`${at.file}:${at.line}`)}</a></span>`
    : '';
  return `<li><strong>${escapeHtml(name)}</strong> ${route}${site}</li>`;
}

function findingRef(finding: Finding, ids: ReadonlyMap<Finding, string>): string {
  const id = ids.get(finding);
  const text = `${location(finding)} ${finding.ruleId.slice(finding.ruleId.indexOf('/') + 1)}`;
  return id ? `<a href="#${id}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

function handlerData(handler: HandlerEntry, index: number): string {
  return ` data-index="${index}" data-verdict="${handler.verdict}" data-broker="${escapeHtml(handler.broker)}" data-package="${escapeHtml(packageOf(handler))}"`;
}

function handlersSection(
  report: Report,
  stories: readonly HandlerStory[],
  linkBase: string,
  findingIds: ReadonlyMap<Finding, string>,
): string {
  if (report.handlers.length === 0) return '';
  const rows = report.handlers.map((handler, index) => [
    `<span class="verdict ${handler.verdict}">${handler.verdict}</span>`,
    `<a href="#handler-${index + 1}">${escapeHtml(handler.name ?? location(handler))}</a>`,
    escapeHtml(handler.broker),
    handler.queue ? `<code>${escapeHtml(handler.queue)}</code>` : '-',
    escapeHtml(handler.effects.join(', ') || '-'),
    escapeHtml(handler.protections.join(', ') || '-'),
  ]);
  const parts = [
    '<section id="handlers" aria-labelledby="handlers-title">',
    `<h2 id="handlers-title">Handlers: ${escapeHtml(coverageLine(report) ?? '')}</h2>`,
    table(
      'Every consumer and webhook handler, with its verdict',
      ['Verdict', 'Handler', 'Broker', 'Queue or route', 'Effects', 'Protections'],
      rows,
      report.handlers.map((handler, index) => handlerData(handler, index)),
    ),
  ];
  report.handlers.forEach((handler, index) => {
    const story = stories[index] ?? storyOf(handler, report);
    const label = handler.name ?? handler.queue ?? location(handler);
    const entry = [
      `${escapeHtml(handler.broker)} handler`,
      handler.queue === undefined ? '' : ` for <code>${escapeHtml(handler.queue)}</code>`,
      handler.package === undefined ? '' : ` in package <code>${escapeHtml(handler.package)}</code>`,
      `, at <a href="${escapeHtml(fileHref(handler, linkBase))}">${escapeHtml(location(handler))}</a>`,
      handler.registeredAt === undefined
        ? ''
        : `, registered at <a href="${escapeHtml(fileHref(handler.registeredAt, linkBase))}">${escapeHtml(`${handler.registeredAt.file}:${handler.registeredAt.line}`)}</a>`,
    ].join('');
    const effects =
      story.effects.length === 0
        ? '<p>A redelivery repeats no write or request the analysis sees.</p>'
        : `<ul class="routes">${story.effects.map((step) => routeItem(step, linkBase)).join('')}</ul>`;
    const protections =
      story.protections.length === 0
        ? '<p>None.</p>'
        : `<ul class="routes">${story.protections.map((step) => routeItem(step, linkBase)).join('')}</ul>`;
    const findings =
      story.findings.length === 0
        ? '<p>None.</p>'
        : `<ul>${story.findings.map((finding) => `<li>${findingRef(finding, findingIds)}: ${prose(finding.message)}</li>`).join('')}</ul>`;
    parts.push(
      `<article id="handler-${index + 1}" class="handler"${handlerData(handler, index)} aria-labelledby="handler-${index + 1}-title">`,
      `<h3 id="handler-${index + 1}-title"><span class="verdict ${handler.verdict}">${handler.verdict}</span> <code>${escapeHtml(label)}</code></h3>`,
      `<p>${entry}</p>`,
      `<p class="reason"><strong>Why:</strong> ${prose(handler.reason)}</p>`,
      `<h4>What a redelivery runs again (${story.effects.length})</h4>`,
      effects,
      `<h4>Protections on the way (${story.protections.length})</h4>`,
      protections,
      `<h4>Findings on the way (${story.findings.length})</h4>`,
      findings,
      '</article>',
    );
  });
  parts.push('</section>');
  return parts.join('\n');
}

function ruleLink(report: Report, ruleId: string): string {
  const rule = ruleInfo(report, ruleId);
  const name = `<code>${escapeHtml(rule.name)}</code>`;
  return rule.url ? `<a href="${escapeHtml(rule.url)}">${name}</a>` : name;
}

/** What would fix a finding: the autofix, the rule's suggestions, else the rule's page. */
function fixOf(report: Report, finding: Finding): string {
  const items: string[] = [];
  if (finding.fixable) items.push('<li><code>idempotency-check --fix</code> rewrites it.</li>');
  for (const suggestion of finding.suggestions ?? []) items.push(`<li>${prose(suggestion)}</li>`);
  if (items.length > 0) return `<p><strong>Fix:</strong></p><ul class="fixes">${items.join('')}</ul>`;
  const rule = ruleInfo(report, finding.ruleId);
  return rule.url
    ? `<p><strong>Fix:</strong> see <a href="${escapeHtml(rule.url)}">the rule's page</a> for the correct pattern.</p>`
    : '';
}

function findingsSection(
  report: Report,
  active: readonly Finding[],
  linkBase: string,
  ids: ReadonlyMap<Finding, string>,
): string {
  const parts = [
    `<section id="findings" aria-labelledby="findings-title"><h2 id="findings-title">Findings (${active.length})</h2>`,
  ];
  if (active.length === 0) parts.push('<p>None.</p>');
  for (const finding of active) {
    const id = ids.get(finding) ?? '';
    parts.push(
      `<article id="${id}" class="finding ${finding.severity}" aria-labelledby="${id}-title">`,
      `<h3 id="${id}-title">${ruleLink(report, finding.ruleId)} <a href="${escapeHtml(fileHref(finding, linkBase))}">${escapeHtml(location(finding))}</a></h3>`,
      `<p>${prose(finding.message)}</p>`,
      finding.snippet === undefined ? '' : `<pre><code>${escapeHtml(finding.snippet)}</code></pre>`,
      fixOf(report, finding),
      '</article>',
    );
  }
  const suppressed = report.findings.filter((finding) => finding.suppressed);
  if (suppressed.length > 0) {
    const rows = suppressed.map((finding) => [
      `<a href="${escapeHtml(fileHref(finding, linkBase))}">${escapeHtml(location(finding))}</a>`,
      ruleLink(report, finding.ruleId),
      prose(finding.message),
      escapeHtml(finding.suppressed?.justification ?? ''),
    ]);
    parts.push(
      `<details><summary>Suppressed (${suppressed.length})</summary>`,
      table('Findings an eslint-disable comment turned off', ['Location', 'Rule', 'Message', 'Justification'], rows),
      '</details>',
    );
  }
  parts.push('</section>');
  return parts.filter((part) => part !== '').join('\n');
}

function notAnalysedSection(report: Report): string {
  if (report.notAnalysed.length === 0) return '';
  const rows = report.notAnalysed.map((entry) => [`<code>${escapeHtml(entry.file)}</code>`, escapeHtml(entry.reason)]);
  return [
    `<section id="not-analysed" aria-labelledby="not-analysed-title"><h2 id="not-analysed-title">Not analysed (${report.notAnalysed.length})</h2>`,
    table('Files the run could not analyse, and why', ['File', 'Reason'], rows),
    '</section>',
  ].join('\n');
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--muted:#59636e;--line:#d1d9e0;--bad:#cf222e;--warn:#9a6700;--good:#1a7f37;--panel:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#3d444d;--bad:#ff7b72;--warn:#d29922;--good:#3fb950;--panel:#151b23}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:78rem;padding:0 1.25rem 3rem}
a{color:inherit}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
pre{background:var(--panel);border:1px solid var(--line);padding:.5rem .75rem;overflow:auto}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.25rem .5rem}
header{border-bottom:1px solid var(--line);margin-bottom:1rem}.headline{font-size:1.05rem}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0}
.tables{display:flex;flex-wrap:wrap;gap:2rem;align-items:flex-start}
table{border-collapse:collapse;margin:.5rem 0}caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid var(--line);padding:.3rem .6rem;text-align:left;vertical-align:top}
.verdict{font-weight:600;margin-right:.5rem}.verdict.unprotected{color:var(--bad)}.verdict.unknown{color:var(--warn)}.verdict.protected{color:var(--good)}
.filters{position:sticky;top:0;background:var(--bg);padding:.5rem 0;border-bottom:1px solid var(--line);z-index:1}
.filters select{margin-right:1rem}
.canvas{overflow:auto;max-height:80vh;border:1px solid var(--line);background:var(--panel)}
svg.inventory text{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;fill:var(--fg);dominant-baseline:central;text-anchor:middle}
svg.inventory rect{fill:var(--bg);stroke:var(--muted)}
svg.inventory .handler rect{stroke-width:2}svg.inventory .unprotected rect{stroke:var(--bad)}svg.inventory .unknown rect{stroke:var(--warn)}svg.inventory .protected rect{stroke:var(--good)}
svg.inventory .effect rect,svg.inventory .broker rect{fill:var(--panel)}svg.inventory .broker text{font-weight:700}
svg.inventory .edge{fill:none;stroke:var(--muted)}svg.inventory marker path{fill:var(--muted)}
svg.inventory a:focus rect{stroke-width:4}
.handler,.finding{border-top:1px solid var(--line);padding-top:.5rem}
.routes li{margin:.25rem 0}ol.route{display:inline;padding:0;list-style:none}ol.route li{display:inline}
ol.route li+li::before{content:" → ";color:var(--muted)}.at{color:var(--muted);font-size:.9em}
[hidden]{display:none!important}
`;

/**
 * Filters: a handler is shown when it matches every chosen value; a node or edge of the picture
 * when any handler it belongs to is shown. Written for the page's own markup, no dependencies.
 */
const SCRIPT = `
(() => {
  const form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  const count = document.getElementById('filter-count');
  const apply = () => {
    const wanted = {};
    for (const select of form.querySelectorAll('select')) if (select.value) wanted[select.name] = select.value;
    const shown = new Set();
    const rows = document.querySelectorAll('#handlers tr[data-index]');
    for (const row of rows) {
      const match = Object.entries(wanted).every(([key, value]) => row.dataset[key] === value);
      row.hidden = !match;
      if (match) shown.add(row.dataset.index);
    }
    for (const article of document.querySelectorAll('article.handler'))
      article.hidden = !shown.has(article.dataset.index);
    for (const element of document.querySelectorAll('svg.inventory [data-h]'))
      element.style.display = element.dataset.h.split(' ').some((index) => shown.has(index)) ? '' : 'none';
    count.textContent = shown.size + ' of ' + rows.length + ' handlers';
  };
  form.addEventListener('change', apply);
  apply();
})();
`;
