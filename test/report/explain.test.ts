import { describe, expect, it } from 'vitest';

import { pluginRuleInfos } from '../../src/analysis/rule-meta.js';
import { formatExplanation, selectHandlers } from '../../src/report/explain.js';
import { createReport, type Finding, type HandlerEntry } from '../../src/report/model.js';
import { runCli } from '../cli/helpers.js';

const tool = { name: 'idempotency-check', version: '0.1.0' };

const charge: HandlerEntry = {
  file: 'src/workers/charge.ts',
  line: 10,
  endLine: 30,
  column: 3,
  name: 'chargeJob',
  broker: 'bullmq',
  queue: 'payments',
  effects: ['http-write', 'sql-write'],
  protections: ['timeout'],
  verdict: 'unprotected',
  reason: '`idempotency/no-per-attempt-key` reports inside it (line 14)',
  paths: [
    {
      effect: 'sql-write',
      via: [
        { file: 'src/billing/ledger.ts', line: 5, name: 'recordCharge' },
        { file: 'src/db/rows.ts', line: 12, name: 'Rows.insert' },
      ],
    },
  ],
  protectionPaths: [{ protection: 'timeout', via: [{ file: 'src/http/client.ts', line: 3, name: 'post' }] }],
};
const refund: HandlerEntry = {
  file: 'src/workers/charge.ts',
  line: 40,
  endLine: 50,
  column: 3,
  broker: 'bullmq',
  queue: 'refunds',
  effects: [],
  protections: [],
  verdict: 'protected',
  reason: 'no write or request that a redelivery would repeat',
};

function finding(file: string, line: number, enclosingFunction: string | undefined, ruleId: string): Finding {
  return {
    ruleId,
    message: `${ruleId} at ${line}`,
    severity: 'error',
    file,
    line,
    column: 5,
    ...(enclosingFunction === undefined ? {} : { enclosingFunction }),
  };
}

const report = createReport({
  tool,
  rules: pluginRuleInfos(),
  handlers: [charge, refund],
  findings: [
    finding('src/workers/charge.ts', 14, 'chargeJob', 'idempotency/no-per-attempt-key'),
    // In the file, outside the handler's lines: not part of its story.
    finding('src/workers/charge.ts', 35, 'helper', 'idempotency/require-request-timeout'),
    finding('src/db/rows.ts', 13, 'insert', 'idempotency/require-rollback'),
    finding('src/db/rows.ts', 40, 'update', 'idempotency/require-rollback'),
  ],
  files: 4,
});

describe('selectHandlers', () => {
  it('takes the handler that starts on a line, or the nearest one above it', () => {
    expect(selectHandlers(report.handlers, 'src/workers/charge.ts:10').handlers.map((h) => h.line)).toEqual([10]);
    expect(selectHandlers(report.handlers, './src/workers/charge.ts:10:3').handlers.map((h) => h.line)).toEqual([10]);
    expect(selectHandlers(report.handlers, 'src/workers/charge.ts:45')).toMatchObject({
      handlers: [{ line: 40 }],
      nearest: { line: 45 },
    });
  });

  it('takes every handler of a file, or handlers by name or queue', () => {
    expect(selectHandlers(report.handlers, 'src/workers/charge.ts').handlers).toHaveLength(2);
    expect(selectHandlers(report.handlers, 'chargeJob').handlers.map((h) => h.line)).toEqual([10]);
    expect(selectHandlers(report.handlers, 'refunds').handlers.map((h) => h.line)).toEqual([40]);
  });

  it('suggests handlers whose file, name or queue holds the text when none matches', () => {
    expect(selectHandlers(report.handlers, 'charge')).toMatchObject({ handlers: [], suggestions: [{}, {}] });
    expect(selectHandlers(report.handlers, 'src/workers/charge.ts:5')).toMatchObject({ handlers: [] });
    expect(selectHandlers(report.handlers, 'nothing-like-it')).toEqual({ handlers: [], suggestions: [] });
  });
});

describe('formatExplanation', () => {
  it('tells the path to each effect, the protections and the findings on the way', () => {
    const explained = formatExplanation(report, 'chargeJob');
    expect(explained).toEqual({
      text: `src/workers/charge.ts:10:3  bullmq handler \`chargeJob\` for \`payments\`
  verdict: unprotected: \`idempotency/no-per-attempt-key\` reports inside it (line 14)

  What a redelivery runs again (2 effects):
    http-write  in the handler itself
    sql-write   via recordCharge (src/billing/ledger.ts:5) → Rows.insert (src/db/rows.ts:12)
  Protections on the way (1):
    timeout  via post (src/http/client.ts:3)
  Findings in these functions (2):
    src/workers/charge.ts:14:5  idempotency/no-per-attempt-key  idempotency/no-per-attempt-key at 14
    src/db/rows.ts:13:5  idempotency/require-rollback  idempotency/require-rollback at 13
`,
    });
  });

  it('says when nothing is repeated, and names the nearest handler when no handler starts on the line', () => {
    const explained = formatExplanation(report, 'src/workers/charge.ts:45');
    expect('text' in explained && explained.text).toBe(`No handler starts on line 45; the nearest one above it:

src/workers/charge.ts:40:3  bullmq handler for \`refunds\`
  verdict: protected: no write or request that a redelivery would repeat

  A redelivery repeats no write or request the analysis sees.
  Protections on the way: none
`);
  });

  it('is an error, with suggestions, when no handler matches', () => {
    expect(formatExplanation(report, 'charge')).toEqual({
      error:
        "no handler matches 'charge'; did you mean src/workers/charge.ts:10:3 (chargeJob), src/workers/charge.ts:40:3 (bullmq)?",
    });
  });
});

describe('idempotency-check --explain', () => {
  it("prints one handler's story from a real run, with the findings inside it, and exits 0", () => {
    const run = runCli(['demo-shop', '--explain', 'src/workers/charge-naive.ts:15']);
    expect(run.code, run.stderr).toBe(0);
    const [head, verdict] = run.stdout.split('\n');
    expect(head).toBe('src/workers/charge-naive.ts:15:3  bullmq handler for `payments-legacy`');
    expect(verdict).toMatch(/^ {2}verdict: unprotected: /);
    expect(run.stdout).toContain('src/workers/charge-naive.ts:20:28  idempotency/no-per-attempt-key');
    // A composed effect names the function in another module that makes it.
    expect(runCli(['demo-shop', '--explain', 'invoices.paid']).stdout).toContain(
      // …and the line of the write itself.
      'sql-write  via markInvoicePaid (src/workers/invoices.ts:11), at src/workers/invoices.ts:14',
    );
    // A protection made in another module says where, as an effect does.
    expect(runCli(['demo-shop', '--explain', 'invoices.refunded']).stdout).toContain(
      'claim        via markInvoiceRefunded (src/workers/invoices.ts:21)',
    );
  });

  it('exits 2 with a clear message when no handler matches, and is not combined with a report format', () => {
    const none = runCli(['demo-shop', '--explain', 'src/nowhere.ts:3']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^idempotency-check: no handler matches 'src\/nowhere\.ts:3'; give a handler's/);
    const combined = runCli(['demo-shop', '--explain', 'payments', '--format', 'json']);
    expect(combined.code).toBe(2);
    expect(combined.stderr).toContain('it cannot be combined with --format');
  });
});
