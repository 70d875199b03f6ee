import { describe, expect, it } from 'vitest';

import {
  isTestPath,
  nearestHandlerLabel,
  parseArgs,
  parseLabels,
  score,
  type HandlerLabel,
  type Label,
  type FindingLabel,
  type ScoredReport,
} from '../../scripts/realworld.mjs';

const REPO = 'acme/shop';
const OTHER = 'acme/billing';
const COMMIT = 'a'.repeat(40);

function report(
  findings: [file: string, line: number, rule: string][],
  handlers: [file: string, line: number, broker: string][] = [],
): ScoredReport {
  return {
    findings: findings.map(([file, line, rule]) => ({
      ruleId: `idempotency/${rule}`,
      file,
      line,
      column: 1,
      snippet: `code at ${line}`,
    })),
    handlers: handlers.map(([file, line, broker]) => ({ file, line, column: 1, broker })),
  };
}

function finding(path: string, line: number, rule: string, verdict: boolean, repo = REPO): FindingLabel {
  return { type: 'finding', repo, commit: COMMIT, path, line, rule, verdict, reason: 'r' };
}

function handler(path: string, line: number, verdict: boolean, extra: Partial<HandlerLabel> = {}): HandlerLabel {
  return {
    type: 'handler',
    repo: REPO,
    commit: COMMIT,
    path,
    line,
    kind: 'consumer',
    framework: 'bullmq',
    verdict,
    reason: 'r',
    ...extra,
  };
}

function jsonl(...labels: object[]): string {
  return labels.map((label) => JSON.stringify(label)).join('\n');
}

describe('score: findings', () => {
  it('counts TP, FP, unlabelled and missed per rule and in total', () => {
    const reports = {
      [REPO]: report([
        ['src/a.ts', 10, 'require-request-timeout'],
        ['src/a.ts', 20, 'require-request-timeout'],
        ['src/a.ts', 30, 'require-request-timeout'],
        ['src/b.ts', 5, 'no-per-attempt-key'],
      ]),
    };
    const labels: Label[] = [
      finding('src/a.ts', 10, 'require-request-timeout', true),
      finding('src/a.ts', 20, 'require-request-timeout', false),
      finding('src/c.ts', 7, 'require-request-timeout', true),
      finding('src/c.ts', 8, 'require-request-timeout', true),
      finding('src/b.ts', 9, 'no-per-attempt-key', false),
    ];
    const result = score(reports, labels);
    expect(
      result.rules.map(({ rule, reported, tp, fp, unlabelled, missed }) => ({
        rule,
        reported,
        tp,
        fp,
        unlabelled,
        missed,
      })),
    ).toEqual([
      { rule: 'no-per-attempt-key', reported: 1, tp: 0, fp: 0, unlabelled: 1, missed: 0 },
      { rule: 'require-request-timeout', reported: 3, tp: 1, fp: 1, unlabelled: 1, missed: 2 },
    ]);
    const timeout = result.rules[1]!;
    expect(timeout.precision).toBe(0.5);
    expect(timeout.recall).toBeCloseTo(1 / 3);
    // No true label for no-per-attempt-key: no recall; nothing labelled among its findings: no precision.
    expect(result.rules[0]).toMatchObject({ precision: null, recall: null });
    expect(result.total).toMatchObject({ reported: 4, tp: 1, fp: 1, unlabelled: 2, missed: 2, precision: 0.5 });
    expect(result.unlabelled.findings).toEqual([
      { app: REPO, path: 'src/a.ts', line: 30, rule: 'require-request-timeout', snippet: 'code at 30' },
      { app: REPO, path: 'src/b.ts', line: 5, rule: 'no-per-attempt-key', snippet: 'code at 5' },
    ]);
    expect(result.missed.findings.map((entry) => `${entry.path}:${entry.line}`)).toEqual(['src/c.ts:7', 'src/c.ts:8']);
  });

  it('matches on repo, path, rule and exact line only', () => {
    const reports = { [REPO]: report([['src/a.ts', 10, 'require-request-timeout']]), [OTHER]: report([]) };
    const near = [
      finding('src/a.ts', 11, 'require-request-timeout', true),
      finding('src/a.ts', 10, 'no-per-attempt-key', true),
      finding('src/b.ts', 10, 'require-request-timeout', true),
      finding('src/a.ts', 10, 'require-request-timeout', true, OTHER),
    ];
    const result = score(reports, near);
    expect(result.total).toMatchObject({ reported: 1, tp: 0, fp: 0, unlabelled: 1, missed: 4, recall: 0 });
  });

  it('ignores the labels of apps that were not scored, so they are not counted as missed', () => {
    const result = score(new Map([[REPO, report([])]]), [finding('src/a.ts', 1, 'require-rollback', true, OTHER)]);
    expect(result.total.missed).toBe(0);
    expect(result.rules).toEqual([]);
    expect(result.ignoredLabels).toBe(1);
  });

  it('reports one line per app and counts findings in test files', () => {
    const reports = {
      [REPO]: report([
        ['test/a.ts', 1, 'require-request-timeout'],
        ['src/a.spec.ts', 2, 'require-request-timeout'],
        ['src/a.ts', 3, 'require-request-timeout'],
      ]),
      [OTHER]: report([['e2e/pay.ts', 4, 'require-request-timeout']]),
    };
    const result = score(reports, [finding('test/a.ts', 1, 'require-request-timeout', false)]);
    expect(result.testFiles).toMatchObject({ findings: 3, fp: 1, unlabelled: 2 });
    expect(result.apps.map((app) => [app.app, app.findings.reported, app.testFindings])).toEqual([
      [OTHER, 1, 1],
      [REPO, 3, 2],
    ]);
  });
});

describe('score: handler inventory', () => {
  it('matches a row within 3 lines of a label, not 4', () => {
    const reports = {
      [REPO]: report(
        [],
        [
          ['src/w.ts', 13, 'bullmq'],
          ['src/w.ts', 40, 'bullmq'],
        ],
      ),
    };
    const result = score(reports, [handler('src/w.ts', 10, true), handler('src/w.ts', 44, true)]);
    expect(result.inventory.all).toMatchObject({
      rows: 2,
      rowsTrue: 1,
      rowsUnlabelled: 1,
      groundTruth: 2,
      listed: 1,
      recall: 0.5,
    });
    expect(result.unlabelled.rows).toEqual([{ app: REPO, path: 'src/w.ts', line: 40, broker: 'bullmq', name: '' }]);
    expect(result.missed.handlers.map((entry) => entry.line)).toEqual([44]);
  });

  it('matches a row at the registration through an alt line', () => {
    const reports = { [REPO]: report([], [['src/boot.ts', 80, 'bullmq']]) };
    const result = score(reports, [handler('src/boot.ts', 12, true, { alt: [30, 81] })]);
    expect(result.inventory.all).toMatchObject({ rowsTrue: 1, groundTruth: 1, listed: 1, recall: 1 });
  });

  it('gives each row the nearest label only', () => {
    // Listed out of order, so the tie-break cannot lean on the order of the list.
    const labels = [handler('src/w.ts', 14, true), handler('src/w.ts', 10, false)];
    const result = score(
      {
        [REPO]: report(
          [],
          [
            ['src/w.ts', 12, 'bullmq'],
            ['src/w.ts', 13, 'bullmq'],
          ],
        ),
      },
      labels,
    );
    // Row 12 is 2 from each label: the tie goes to the lower line (false); row 13 is nearer 14 (true).
    expect(result.inventory.all).toMatchObject({ rows: 2, rowsTrue: 1, rowsFalse: 1, precision: 0.5 });
    expect(nearestHandlerLabel(labels, 11)).toBe(labels[1]);
    expect(nearestHandlerLabel(labels, 12)).toBe(labels[1]);
    expect(nearestHandlerLabel(labels, 13)).toBe(labels[0]);
    expect(nearestHandlerLabel(labels, 18)).toBeUndefined();
  });

  it("prefers a label's own line to another label's alt line at the same distance", () => {
    const viaAlt = handler('src/w.ts', 1, false, { alt: [22] });
    const own = handler('src/w.ts', 18, true);
    expect(nearestHandlerLabel([viaAlt, own], 20)).toBe(own);
    expect(nearestHandlerLabel([viaAlt, own], 21)).toBe(viaAlt);
  });

  it('counts a handler listed by two rows once in the ground truth', () => {
    const result = score(
      {
        [REPO]: report(
          [],
          [
            ['src/w.ts', 10, 'bullmq'],
            ['src/w.ts', 12, 'bullmq'],
          ],
        ),
      },
      [handler('src/w.ts', 11, true)],
    );
    expect(result.inventory.all).toMatchObject({ rows: 2, rowsTrue: 2, groundTruth: 1, listed: 1 });
  });

  it('splits rows by the broker the checker reports and ground truth by the label kind', () => {
    const reports = {
      [REPO]: report(
        [],
        [
          ['src/hook.ts', 5, 'webhook'],
          ['src/w.ts', 5, 'generic'],
          ['src/route.ts', 9, 'webhook'],
        ],
      ),
    };
    const labels = [
      handler('src/hook.ts', 5, true, { kind: 'webhook', framework: 'stripe-webhook' }),
      // The checker calls this one `generic`; the labeller says it is a webhook receiver.
      handler('src/w.ts', 5, true, { kind: 'webhook', framework: 'express' }),
      handler('src/route.ts', 9, false, { kind: 'webhook', framework: 'express' }),
      handler('src/queue.ts', 3, true),
    ];
    const { inventory } = score(reports, labels);
    expect(inventory.webhook).toMatchObject({ rows: 2, rowsTrue: 1, rowsFalse: 1, groundTruth: 2, listed: 2 });
    expect(inventory.consumer).toMatchObject({
      rows: 1,
      rowsTrue: 1,
      rowsFalse: 0,
      groundTruth: 1,
      listed: 0,
      recall: 0,
    });
    expect(inventory.all).toMatchObject({ rows: 3, groundTruth: 3, listed: 2 });
  });

  it('does not match a handler label in another file', () => {
    const result = score({ [REPO]: report([], [['src/w.ts', 10, 'bullmq']]) }, [handler('src/x.ts', 10, true)]);
    expect(result.inventory.all).toMatchObject({ rowsUnlabelled: 1, listed: 0, groundTruth: 1 });
  });
});

describe('parseLabels', () => {
  const good = finding('src/a.ts', 3, 'require-request-timeout', true);
  const file = 'labels/acme__shop.jsonl';

  it('reads valid lines and skips blank ones', () => {
    const text = `${jsonl(good, handler('src/w.ts', 5, true, { alt: [9] }))}\n\n`;
    const { labels, errors } = parseLabels(text, file);
    expect(errors).toEqual([]);
    expect(labels).toHaveLength(2);
  });

  it('reports unknown and missing keys with the file and line', () => {
    const noReason: Partial<FindingLabel> = { ...good, line: 5 };
    delete noReason.reason;
    const text = jsonl(good, { ...good, line: 4, note: 'x' }, noReason, { ...good, line: 6, alt: [7] });
    expect(parseLabels(text, file).errors).toEqual([
      { file, line: 2, message: 'unknown key "note" for a finding label' },
      { file, line: 3, message: 'missing key "reason"' },
      { file, line: 4, message: 'unknown key "alt" for a finding label' },
    ]);
  });

  it('reports wrong types', () => {
    const text = jsonl(
      { ...good, line: '12' },
      { ...good, verdict: 'true' },
      handler('src/w.ts', 1, true, { kind: 'queue' as HandlerLabel['kind'] }),
      handler('src/w.ts', 2, true, { alt: [0] }),
      { ...good, type: 'note' },
      { ...good, rule: 'idempotency/require-request-timeout' },
      { ...good, path: './src/a.ts' },
      { ...good, commit: 'abc' },
    );
    const errors = parseLabels(text, file).errors;
    expect(errors.map((error) => error.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(errors[0]!.message).toMatch(/"line" must be a positive integer/);
    expect(errors[1]!.message).toMatch(/"verdict" must be true or false/);
    expect(errors[2]!.message).toMatch(/"kind" must be "consumer" or "webhook"/);
    expect(errors[3]!.message).toMatch(/"alt" must be a non-empty array of positive integers/);
    expect(errors[4]!.message).toMatch(/"type" must be "finding" or "handler"/);
  });

  it('reports a duplicate (repo, path, line, rule or kind) and points at the first', () => {
    const text = jsonl(
      good,
      { ...good, rule: 'no-per-attempt-key' },
      handler('src/w.ts', 5, true),
      handler('src/w.ts', 5, false, { kind: 'webhook' }),
      { ...good, verdict: false },
      handler('src/w.ts', 5, false),
    );
    const { labels, errors } = parseLabels(text, file);
    expect(labels).toHaveLength(4);
    expect(errors).toEqual([
      { file, line: 5, message: 'duplicate of line 1 (same repo, path, line 3 and rule require-request-timeout)' },
      { file, line: 6, message: 'duplicate of line 3 (same repo, path, line 5 and kind consumer)' },
    ]);
  });

  it('reports bad JSON, a label of another app and a second commit', () => {
    const text =
      jsonl(good, { ...good, line: 8, repo: OTHER }, { ...good, line: 9, commit: 'b'.repeat(40) }) + '\n{"type":';
    const errors = parseLabels(text, file).errors;
    expect(errors.map((error) => error.line)).toEqual([2, 3, 4]);
    expect(errors[0]!.message).toBe('"repo" is acme/billing but this file holds the labels of acme/shop');
    expect(errors[1]!.message).toBe(`"commit" ${'b'.repeat(40)} differs from ${COMMIT} on line 1`);
    expect(errors[2]!.message).toMatch(/^not valid JSON/);
  });
});

describe('isTestPath', () => {
  it('recognises test, e2e, spec, Cypress and Playwright paths', () => {
    for (const path of [
      'test/a.ts',
      'src/__tests__/a.ts',
      'apps/web/e2e/login.ts',
      'src/a.spec.ts',
      'src/a.test.tsx',
      'cypress/support/x.js',
      'tests/shared/util.ts',
      'playwright.config.ts',
    ]) {
      expect(isTestPath(path), path).toBe(true);
    }
    for (const path of [
      'src/testimonials.ts',
      'src/contest/a.ts',
      'src/latest.ts',
      'src/spectrum.ts',
      'src/workers/email.ts',
    ]) {
      expect(isTestPath(path), path).toBe(false);
    }
  });
});

describe('parseArgs', () => {
  it('takes repeatable values, even ones that start with --', () => {
    const options = parseArgs(['--app', 'acme/shop', '--app=acme/billing', '--cli-arg', '--types', '--json']);
    expect(options).toMatchObject({
      app: ['acme/shop', 'acme/billing'],
      cliArg: ['--types'],
      json: true,
      apps: '/tmp/apps',
    });
  });

  it("reads a held-out set's own apps list with --apps-tsv", () => {
    expect(parseArgs(['--apps-tsv', 'realworld/heldout/issue-24/apps.tsv'])).toMatchObject({
      appsTsv: 'realworld/heldout/issue-24/apps.tsv',
    });
    expect(() => parseArgs(['--apps-tsv'])).toThrow('--apps-tsv needs a value');
  });

  it('rejects unknown arguments, missing values and a malformed --app', () => {
    expect(() => parseArgs(['--bogus'])).toThrow('unknown argument "--bogus"');
    expect(() => parseArgs(['--reports-dir'])).toThrow('--reports-dir needs a value');
    expect(() => parseArgs(['--app', 'shop'])).toThrow('--app must be owner/name');
    expect(() => parseArgs(['--json=yes'])).toThrow('--json takes no value');
  });
});
