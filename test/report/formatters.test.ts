import { readFileSync } from 'node:fs';

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

import { applyBaseline } from '../../src/report/baseline.js';
import { escapeData, escapeProperty, formatGithub } from '../../src/report/github.js';
import { FORMAT_NAMES, formatters, isFormatName } from '../../src/report/index.js';
import { formatJson } from '../../src/report/json.js';
import { cell, formatMarkdown } from '../../src/report/markdown.js';
import { createReport, type Finding, type Report } from '../../src/report/model.js';
import { pluginRuleInfos } from '../../src/analysis/rule-meta.js';
import { formatSarif } from '../../src/report/sarif.js';
import { formatText } from '../../src/report/text.js';
import { emptyReport, sampleFindings, sampleReport } from './sample.js';

const snapshot = (name: string): string => `./__snapshots__/${name}`;

/** The sample with one finding tolerated and one entry stale (its code was fixed). */
function baselinedReport(): Report {
  return applyBaseline(sampleReport(), {
    schemaVersion: 1,
    entries: [
      {
        ruleId: 'idempotency/no-pool-transaction',
        file: 'src/billing/charge.ts',
        enclosingFunction: 'chargeCustomer',
        snippet: "await pool.query('BEGIN');",
        count: 1,
      },
      {
        ruleId: 'idempotency/require-rollback',
        file: 'src/billing/refund.ts',
        enclosingFunction: 'refund',
        snippet: "await client.query('BEGIN');",
        count: 2,
      },
    ],
  });
}

describe('formatters', () => {
  it('are registered under their --format names', () => {
    expect(FORMAT_NAMES).toEqual(['text', 'json', 'sarif', 'markdown', 'github', 'html']);
    expect(isFormatName('sarif')).toBe(true);
    expect(isFormatName('toString')).toBe(false);
  });

  it('are pure: the same report gives the same bytes, each ending in one newline', () => {
    for (const name of FORMAT_NAMES) {
      const format = formatters[name];
      const first = format(sampleReport(), {});
      expect(format(sampleReport(), {}), name).toBe(first);
      expect(first.endsWith('\n') && !first.endsWith('\n\n'), name).toBe(true);
    }
  });
});

describe('text', () => {
  it('groups findings by file and lists suppressed, not analysed and the handler inventory', async () => {
    await expect(formatText(sampleReport())).toMatchFileSnapshot(snapshot('sample.txt'));
  });

  it('says so when there is nothing to report', () => {
    expect(formatText(emptyReport())).toBe('✔ No findings · 3 files analysed\n');
  });

  it('shows the baseline and its stale entries', async () => {
    await expect(formatText(baselinedReport())).toMatchFileSnapshot(snapshot('baseline.txt'));
  });

  it('colours only when asked', () => {
    const ansi = /\u001b\[/u;
    expect(formatText(sampleReport())).not.toMatch(ansi);
    const coloured = formatText(sampleReport(), { color: true });
    expect(coloured).toMatch(ansi);
    expect(coloured).toContain('\u001b[31midempotency/no-pool-transaction');
    // Stripping the escapes leaves the plain report: colour changes nothing else.
    expect(coloured.replace(/\u001b\[\d+m/gu, '')).toBe(formatText(sampleReport()));
  });
});

describe('json', () => {
  it('writes the versioned report with a stable key order', async () => {
    await expect(formatJson(sampleReport())).toMatchFileSnapshot(snapshot('sample.json'));
  });

  it('carries the baseline summary with its stale entries', () => {
    expect(JSON.parse(formatJson(baselinedReport()))).toMatchObject({
      summary: { findings: 2 },
      baseline: {
        tolerated: 1,
        new: 2,
        stale: [
          {
            ruleId: 'idempotency/require-rollback',
            file: 'src/billing/refund.ts',
            enclosingFunction: 'refund',
            snippet: "await client.query('BEGIN');",
            count: 2,
          },
        ],
      },
    });
  });

  it('does not depend on the key order the analysis built its objects in', () => {
    const shuffled = sampleFindings.map(
      (finding) => Object.fromEntries(Object.entries(finding).reverse()) as unknown as Finding,
    );
    const report = createReport({ ...sampleReport(), findings: shuffled, files: 12 });
    expect(formatJson(report)).toBe(formatJson(sampleReport()));
  });

  it('round-trips to the report, less the rule metadata the other formatters read', () => {
    const { rules, tool, ...rest } = sampleReport();
    expect(rules.length).toBeGreaterThan(0);
    const { informationUri, ...toolInJson } = tool;
    expect(informationUri).toBeDefined();
    expect(JSON.parse(formatJson(sampleReport()))).toEqual(JSON.parse(JSON.stringify({ ...rest, tool: toolInJson })));
  });
});

describe('sarif', () => {
  // The official OASIS SARIF 2.1.0 schema (draft-07, $id .../oasis-tcs/sarif-spec/master/Schemata/
  // sarif-schema-2.1.0.json). Taken from the npm package @datadog/datadog-ci-plugin-sarif@5.25.0,
  // whose dist/bundle.js inlines it as the module `src/json-schema/sarif-schema-2.1.0.json`;
  // evaluated and written out as JSON unchanged. OASIS-licensed, vendored as test data only.
  const schema = JSON.parse(
    readFileSync(new URL('fixtures/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
  ) as object;
  const ajv = new Ajv({ allErrors: true, strict: false });
  // ajv-formats is not a dependency; these checks are what the schema's formats mean here.
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addFormat('uri-reference', (value: string) => !/\s/u.test(value) && URL.canParse(value, 'file:///root/'));
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  const validate = ajv.compile(schema);

  const expectValid = (text: string): void => {
    const valid = validate(JSON.parse(text));
    expect(validate.errors ?? [], 'SARIF schema errors').toEqual([]);
    expect(valid).toBe(true);
  };

  it('validates against the SARIF 2.1.0 schema', () => {
    expectValid(formatSarif(sampleReport()));
    expectValid(formatSarif(sampleReport(), { includeSuppressed: false }));
    expectValid(formatSarif(emptyReport()));
  });

  it('rejects what the schema forbids, so the validation is real', () => {
    const log = JSON.parse(formatSarif(sampleReport())) as { runs: { results: { level: string }[] }[] };
    log.runs[0]!.results[0]!.level = 'fatal';
    expect(validate(log)).toBe(false);
  });

  it('matches the snapshot', async () => {
    // The rule descriptors come from the rules' meta and are checked below; the snapshot keeps
    // to what this formatter decides, so editing a rule's description does not break it.
    const log = JSON.parse(formatSarif(sampleReport())) as { runs: { tool: { driver: { rules: unknown } } }[] };
    log.runs[0]!.tool.driver.rules = '<every plugin rule>';
    await expect(JSON.stringify(log, null, 2) + '\n').toMatchFileSnapshot(snapshot('sample.sarif'));
  });

  it('describes every plugin rule with its docs link and indexes results into them', () => {
    const log = JSON.parse(formatSarif(sampleReport())) as {
      runs: {
        tool: { driver: { rules: { id: string; helpUri?: string; shortDescription?: { text: string } }[] } };
        results: { ruleId: string; ruleIndex: number }[];
      }[];
    };
    const run = log.runs[0]!;
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(pluginRuleInfos().map((rule) => rule.id));
    for (const rule of run.tool.driver.rules) {
      expect(rule.helpUri).toMatch(new RegExp(`/docs/rules/${rule.id.replace('idempotency/', '')}\\.md$`, 'u'));
      expect(rule.shortDescription?.text).toMatch(/^(Enforce|Require|Disallow) /u);
    }
    for (const result of run.results) expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
  });

  it('appends rule ids from outside the plugin after its rules', () => {
    const report = createReport({
      ...sampleReport(),
      findings: [{ ...sampleFindings[0]!, ruleId: 'idempotency/visibility-timeout' }],
      files: 1,
    });
    const text = formatSarif(report);
    expectValid(text);
    const run = (
      JSON.parse(text) as {
        runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleIndex: number }[] }[];
      }
    ).runs[0]!;
    expect(run.results[0]!.ruleIndex).toBe(pluginRuleInfos().length);
    expect(run.tool.driver.rules.at(-1)).toEqual({
      id: 'idempotency/visibility-timeout',
      name: 'visibility-timeout',
      help: { text: 'idempotency/visibility-timeout.', markdown: 'idempotency/visibility-timeout.' },
    });

    const described = formatSarif(report, {
      extraRules: [
        {
          id: 'idempotency/visibility-timeout',
          name: 'visibility-timeout',
          description: 'Disallow short visibility timeouts',
        },
      ],
    });
    expectValid(described);
    const rules = (JSON.parse(described) as { runs: { tool: { driver: { rules: unknown[] } } }[] }).runs[0]!.tool.driver
      .rules;
    expect(rules.at(-1)).toEqual({
      id: 'idempotency/visibility-timeout',
      name: 'visibility-timeout',
      shortDescription: { text: 'Disallow short visibility timeouts' },
      help: { text: 'Disallow short visibility timeouts.', markdown: 'Disallow short visibility timeouts.' },
    });
  });

  it('gives every plugin rule help from its doc, with the link', () => {
    const log = JSON.parse(formatSarif({ ...sampleReport(), rules: pluginRuleInfos() })) as {
      runs: { tool: { driver: { rules: { id: string; help?: { text: string; markdown: string } }[] } } }[];
    };
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.map((rule) => rule.id)).toEqual(pluginRuleInfos().map((rule) => rule.id));
    for (const rule of rules) {
      expect(rule.help?.text, rule.id).toMatch(/^(Disallow|Require|Enforce) .+\. See https:\/\/github\.com\/.+\.md\.$/);
      expect(rule.help?.markdown, rule.id).toMatch(
        /\S[\s\S]{80,}\n\n\[Documentation\]\(https:\/\/github\.com\/.+\.md\)$/,
      );
    }
  });

  it('marks suppressed findings in source, or leaves them out', () => {
    type Log = { runs: { results: { ruleId: string; suppressions?: unknown }[] }[] };
    const withSuppressed = (JSON.parse(formatSarif(sampleReport())) as Log).runs[0]!.results;
    expect(withSuppressed.filter((result) => result.suppressions)).toEqual([
      expect.objectContaining({
        ruleId: 'idempotency/require-claim-check',
        suppressions: [{ kind: 'inSource', justification: 'import is replayed by hand, never redelivered' }],
      }),
    ]);
    const without = (JSON.parse(formatSarif(sampleReport(), { includeSuppressed: false })) as Log).runs[0]!.results;
    expect(without.map((result) => result.ruleId)).not.toContain('idempotency/require-claim-check');
    expect(without).toHaveLength(3);
  });

  it('keeps fingerprints through line drift and tells identical findings apart', () => {
    type Log = { runs: { results: { partialFingerprints: Record<string, string> }[] }[] };
    const prints = (findings: Finding[]): string[] =>
      (JSON.parse(formatSarif(createReport({ ...sampleReport(), findings, files: 1 }))) as Log).runs[0]!.results.map(
        (result) => Object.values(result.partialFingerprints)[0]!,
      );
    const finding = sampleFindings[1]!;
    const [original] = prints([finding]);
    const [moved] = prints([
      { ...finding, line: finding.line + 30, endLine: finding.line + 30, snippet: '\t\tconst  key = randomUUID();' },
    ]);
    expect(moved).toBe(original);
    const [first, second] = prints([finding, { ...finding, line: finding.line + 1 }]);
    expect(first).toBe(original);
    expect(second).toBe(original!.replace(/:1$/u, ':2'));
    const [otherFunction] = prints([{ ...finding, enclosingFunction: 'refund' }]);
    expect(otherFunction).not.toBe(original);
  });

  it('encodes paths as relative URIs under %SRCROOT%', () => {
    const report = createReport({
      ...sampleReport(),
      findings: [{ ...sampleFindings[0]!, file: 'src/my workers/#1.ts' }],
      files: 1,
    });
    const text = formatSarif(report);
    expectValid(text);
    expect(text).toContain('"uri": "src/my%20workers/%231.ts"');
    expect(text).toContain('"uriBaseId": "%SRCROOT%"');
  });
});

describe('markdown', () => {
  it('fits a PR comment: headline, findings table, folded suppressed list, handler inventory', async () => {
    await expect(formatMarkdown(sampleReport())).toMatchFileSnapshot(snapshot('sample.md'));
  });

  it('counts new findings against the baseline and folds its stale entries', async () => {
    await expect(formatMarkdown(baselinedReport())).toMatchFileSnapshot(snapshot('baseline.md'));
  });

  it('links files under a base when given one', () => {
    expect(formatMarkdown(sampleReport(), { linkBase: 'https://github.com/o/r/blob/abc123/' })).toContain(
      '[`src/billing/charge.ts:9:3`](https://github.com/o/r/blob/abc123/src/billing/charge.ts#L9)',
    );
  });

  it('links a multi-line finding to its line range', () => {
    const report = createReport({
      ...sampleReport(),
      findings: [{ ...sampleFindings[0]!, line: 3, endLine: 7 }],
      files: 1,
    });
    expect(formatMarkdown(report)).toContain('(src/workers/email.ts#L3-L7)');
  });

  it('folds long lists and cuts tables at maxRows', () => {
    const findings = Array.from({ length: 12 }, (_, i) => ({ ...sampleFindings[1]!, line: i + 1 }));
    const text = formatMarkdown(createReport({ ...sampleReport(), findings, files: 1 }), { maxRows: 5 });
    expect(text).toContain('<details>\n<summary>Findings (12)</summary>');
    expect(text.match(/^\| \[`src\/billing/gmu)).toHaveLength(5);
    expect(text).toContain('…and 7 more; see the full report.');
  });

  it('reports a clean run in one line', () => {
    expect(formatMarkdown(emptyReport())).toBe('### idempotency-check\n\n✅ **No findings** · 3 files analysed\n');
  });

  it('escapes table cells but leaves code spans as written', () => {
    expect(cell('a | b <script> `x<T> | y`\nnext')).toBe('a \\| b &lt;script&gt; `x<T> \\| y` next');
  });
});

describe('github', () => {
  it('writes one annotation per unsuppressed finding and a warning per file not analysed', async () => {
    await expect(formatGithub(sampleReport())).toMatchFileSnapshot(snapshot('sample.github.txt'));
  });

  it('writes nothing for a clean run', () => {
    expect(formatGithub(emptyReport())).toBe('');
  });

  it('escapes messages and properties the way the runner decodes them', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('dir:a,b/100%\n.ts')).toBe('dir%3Aa%2Cb/100%25%0A.ts');
    const finding: Finding = {
      ...sampleFindings[0]!,
      file: 'src/a,b:c.ts',
      message: 'first line\nsecond: 50%',
      ruleId: 'x/y',
    };
    const report = createReport({ tool: { name: 't', version: '1' }, findings: [finding], files: 1 });
    expect(formatGithub(report)).toBe(
      '::warning file=src/a%2Cb%3Ac.ts,line=22,col=11,endLine=22,endColumn=60,title=x/y::first line%0Asecond: 50%25\n',
    );
  });
});
