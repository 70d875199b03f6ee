import { describe, expect, it } from 'vitest';

import { formatHtml } from '../../src/report/html.js';
import { inventorySvg } from '../../src/report/html-graph.js';
import { formatMarkdown } from '../../src/report/markdown.js';
import { createReport, type HandlerEntry } from '../../src/report/model.js';
import { pluginRuleInfos } from '../../src/analysis/rule-meta.js';
import { emptyReport, sampleFindings, sampleReport } from './sample.js';

const tool = { name: 'idempotency-check', version: '0.1.0' };

/** Every `src` or `href` value of a page: what a browser would load or follow. */
function urls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
}

const charge: HandlerEntry = {
  file: 'apps/billing/src/worker.ts',
  line: 4,
  endLine: 20,
  column: 3,
  name: 'chargeJob',
  package: '@acme/billing',
  broker: 'bullmq',
  queue: 'payments',
  registeredAt: { file: 'apps/billing/src/main.ts', line: 12 },
  effects: ['sql-write', 'stripe'],
  protections: ['claim'],
  verdict: 'unprotected',
  reason: 'stripe would repeat on a redelivery',
  paths: [
    {
      effect: 'stripe',
      via: [
        { file: 'libs/pay/src/charge.ts', line: 7, name: 'charge' },
        { file: 'libs/pay/src/client.ts', line: 30, name: 'PayClient.create' },
      ],
    },
  ],
  protectionPaths: [{ protection: 'claim', via: [{ file: 'libs/jobs/src/claim.ts', line: 3, name: 'claimJob' }] }],
  effectSites: [{ effect: 'stripe', file: 'libs/pay/src/client.ts', line: 31 }],
};
const refund: HandlerEntry = {
  file: 'apps/billing/src/refund.ts',
  line: 2,
  column: 1,
  name: 'refundJob',
  package: '@acme/billing',
  broker: 'sqs',
  effects: ['stripe'],
  protections: [],
  verdict: 'protected',
  reason: 'a checked claim guards its effects',
  paths: [{ effect: 'stripe', via: [{ file: 'libs/pay/src/charge.ts', line: 7, name: 'charge' }] }],
};

const storyReport = createReport({
  tool,
  rules: pluginRuleInfos(),
  handlers: [charge, refund],
  findings: [
    {
      ruleId: 'idempotency/no-per-attempt-key',
      message: 'The key is minted per attempt <script>alert(1)</script>',
      severity: 'error',
      file: 'libs/pay/src/client.ts',
      line: 33,
      column: 9,
      enclosingFunction: 'create',
      snippet: 'const key = randomUUID(); // "quoted" & <b>',
      suggestions: ['Derive the key from the job id'],
    },
    {
      ruleId: 'idempotency/require-request-timeout',
      message: 'No timeout.',
      severity: 'warning',
      file: 'apps/web/src/page.ts',
      line: 3,
      column: 1,
      fixable: true,
    },
  ],
  files: 9,
});

describe('html', () => {
  it('is one page that loads nothing: inline style and script, a policy that forbids fetching', () => {
    const html = formatHtml(sampleReport());
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`,
    );
    expect(html).not.toMatch(/<(?:link|img|iframe)\b|<script\s+src|@import|url\(http/i);
    // Every link is in the page, to a file of the repository, or to a rule's documentation.
    for (const url of urls(html)) expect(url, url).toMatch(/^(?:#|src\/|https:\/\/github\.com\/)/);
  });

  it('has the summary, every handler and every finding, each with an anchor', () => {
    const report = sampleReport();
    const html = formatHtml(report);
    expect(html).toContain('<caption>Handlers by verdict</caption>');
    expect(html).toContain('<caption>Findings by rule</caption>');
    for (const [index] of report.handlers.entries()) expect(html).toContain(`<article id="handler-${index + 1}"`);
    expect(html.match(/<article id="finding-\d+"/g)).toHaveLength(report.summary.findings);
    // The suppressed finding is listed apart, with its justification.
    expect(html).toContain('<summary>Suppressed (1)</summary>');
    expect(html).toContain('import is replayed by hand, never redelivered');
    expect(html).toContain('<section id="not-analysed"');
    expect(html).toContain('src/legacy/broken.ts');
  });

  it("tells each handler's story: the path to each effect, where each protection is made, the findings on the way", () => {
    const html = formatHtml(storyReport, { linkBase: 'https://github.com/o/r/blob/abc/' });
    // Handlers sort by file: refund.ts is the first, worker.ts the second.
    const start = html.indexOf('<article id="handler-2"');
    const story = html.slice(start, html.indexOf('</article>', start));
    expect(story).toContain('for <code>payments</code> in package <code>@acme/billing</code>');
    expect(story).toContain('href="https://github.com/o/r/blob/abc/apps/billing/src/worker.ts#L4-L20"');
    expect(story).toContain(
      ', registered at <a href="https://github.com/o/r/blob/abc/apps/billing/src/main.ts#L12">apps/billing/src/main.ts:12</a>',
    );
    // The effect's route, step by step, each a link to where the function is.
    expect(story).toMatch(
      /<strong>stripe<\/strong> <ol class="route"><li><a href="https:\/\/github\.com\/o\/r\/blob\/abc\/libs\/pay\/src\/charge\.ts#L7"><code>charge<\/code><\/a>.*<\/li><li><a [^>]*><code>PayClient\.create<\/code>/,
    );
    expect(story).toContain('<strong>sql-write</strong> <span class="at">in the handler itself</span>');
    // The route ends at the call that makes the effect.
    expect(story).toContain(
      '</ol> <span class="at">→ made at <a href="https://github.com/o/r/blob/abc/libs/pay/src/client.ts#L31">libs/pay/src/client.ts:31</a></span>',
    );
    expect(story).toMatch(/<strong>claim<\/strong> <ol class="route"><li><a [^>]*claim\.ts#L3"><code>claimJob<\/code>/);
    // The finding inside PayClient.create, a function on the way, links to its entry.
    expect(story).toContain('Findings on the way (1)');
    expect(story).toContain('<a href="#finding-2">libs/pay/src/client.ts:33:9 no-per-attempt-key</a>');
  });

  it('escapes what the code and messages hold', () => {
    const html = formatHtml(storyReport);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('minted per attempt &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<pre><code>const key = randomUUID(); // &quot;quoted&quot; &amp; &lt;b&gt;</code></pre>');
    // A message's backtick spans are code, as in the other formats' Markdown.
    expect(formatHtml(sampleReport())).toContain('minted per attempt with <code>randomUUID()</code>, so a redelivery');
  });

  it('gives each finding its fix: the autofix, the suggestions, else the rule page', () => {
    const html = formatHtml(storyReport);
    expect(html).toContain('<li>Derive the key from the job id</li>');
    expect(html).toContain('<code>idempotency-check --fix</code> rewrites it.');
    const withoutFix = formatHtml(sampleReport());
    expect(withoutFix).toMatch(
      /see <a href="https:\/\/github\.com\/[^"]+no-pool-transaction\.md">the rule's page<\/a>/,
    );
  });

  it('offers filters by verdict, broker and package, hidden until the script can apply them', () => {
    const html = formatHtml(storyReport);
    expect(html).toMatch(/<form id="filters" class="filters" hidden/);
    expect(html).toContain('<option value="unprotected">unprotected</option>');
    expect(html).toContain('<option value="sqs">sqs</option>');
    expect(html).toContain('<option value="@acme/billing">@acme/billing</option>');
    expect(html).toContain('data-verdict="unprotected" data-broker="bullmq" data-package="@acme/billing"');
    // No package select for a repository without workspace packages.
    expect(formatHtml(sampleReport())).not.toContain('id="filter-package"');
  });

  it('ranks what to fix first: the findings on the paths of the most handlers that are not protected', () => {
    const helper = (name: string, line: number): HandlerEntry => ({
      file: `src/workers/${name}.ts`,
      line,
      column: 1,
      endLine: line + 5,
      name,
      broker: 'bullmq',
      effects: ['http-write'],
      protections: [],
      verdict: 'unprotected',
      reason: 'http-write would repeat',
      paths: [{ effect: 'http-write', via: [{ file: 'src/lib/pay.ts', line: 1, name: 'charge' }] }],
    });
    const finding = (file: string, line: number, enclosingFunction: string) => ({
      ruleId: 'idempotency/require-request-timeout',
      message: 'No timeout.',
      severity: 'error' as const,
      file,
      line,
      column: 3,
      enclosingFunction,
    });
    const handlers = Array.from({ length: 10 }, (_, index) => helper(`w${index}`, 1));
    // One handler is protected: the helper's finding is on nine handlers' paths that matter.
    handlers[0] = { ...handlers[0]!, verdict: 'protected' };
    const report = createReport({
      tool,
      rules: pluginRuleInfos(),
      handlers,
      findings: [finding('src/workers/w3.ts', 2, 'w3'), finding('src/lib/pay.ts', 2, 'charge')],
      files: 11,
    });
    const html = formatHtml(report);
    const section = html.slice(
      html.indexOf('<section id="fix-first"'),
      html.indexOf('</section>', html.indexOf('<section id="fix-first"')),
    );
    const rows = [
      ...section.matchAll(/<tr><td><a href="#(finding-\d+)">[^<]*<\/a><\/td><td>(\d+)<\/td><td>(.*?)<\/td><\/tr>/g),
    ];
    // pay.ts's finding (finding-1, by file) first, on nine paths; w3's own after, on one.
    expect(rows.map((row) => [row[1], row[2]])).toEqual([
      ['finding-1', '9'],
      ['finding-2', '1'],
    ]);
    // Eight handlers named, then how many more.
    expect(rows[0]![3]).toMatch(/^(?:<a href="#handler-\d+">w\d<\/a>, ){7}<a href="#handler-\d+">w\d<\/a> and 1 more$/);
    expect(html).toContain('<li><a href="#fix-first">Fix first</a></li>');
    // Nothing to rank when every handler is protected.
    const safe = formatHtml(
      createReport({
        ...report,
        handlers: handlers.map((entry) => ({ ...entry, verdict: 'protected' as const })),
        files: 11,
      }),
    );
    expect(safe).not.toContain('id="fix-first"');
  });

  it('says so when there is nothing to report', () => {
    const html = formatHtml(emptyReport());
    expect(html).toContain('No findings');
    expect(html).not.toContain('<section id="graph"');
    expect(html).not.toContain('<form id="filters"');
    expect(html).not.toContain('<section id="handlers"');
  });
});

describe('the inventory picture', () => {
  it('draws broker → handler → functions → effect, one node per shared function and effect', () => {
    const svg = inventorySvg(storyReport.handlers)!;
    const nodes = [...svg.matchAll(/<g class="node ([a-z ]+)" data-h="([\d ]+)">/g)].map((match) => [
      match[1],
      match[2],
    ]);
    // Handlers sort by file: refund.ts (index 0) before worker.ts (index 1).
    expect(nodes).toEqual([
      ['broker', '0'],
      ['handler protected', '0'],
      ['function', '0 1'],
      ['effect', '0 1'],
      ['broker', '1'],
      ['handler unprotected', '1'],
      ['effect', '1'],
      ['function', '1'],
    ]);
    // Two broker → handler, two handler → charge, charge → stripe, handler → sql-write,
    // charge → PayClient.create, PayClient.create → stripe.
    expect(svg.match(/<path class="edge"/g)).toHaveLength(8);
    expect(svg).toContain(
      '<a href="#handler-2"><title>chargeJob: bullmq handler at apps/billing/src/worker.ts:4 (unprotected)</title>',
    );
    expect(svg).toMatch(/^<svg [^>]*width="\d+(?:\.\d)?" height="\d+(?:\.\d)?"/);
  });

  it('is laid out the same way every time', () => {
    expect(inventorySvg(storyReport.handlers)).toBe(inventorySvg(storyReport.handlers));
    expect(inventorySvg([])).toBeUndefined();
  });
});

describe('markdown', () => {
  it('points to the HTML report the same run writes', () => {
    expect(formatMarkdown(sampleReport(), { htmlReport: 'idempotency.html' })).toContain(
      '`idempotency.html`, the HTML report of this run.',
    );
    expect(formatMarkdown(sampleReport())).not.toContain('HTML report');
    expect(sampleFindings.length).toBeGreaterThan(0);
  });
});
