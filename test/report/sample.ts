import { INFORMATION_URI, pluginRuleInfos } from '../../src/analysis/rule-meta.js';
import { createReport, type Finding, type HandlerEntry, type Report } from '../../src/report/model.js';

/** The tool and rules as the CLI describes them (from the plugin's meta). */
const tool = { name: 'idempotency-check', version: '0.1.0', informationUri: INFORMATION_URI };

/** A small realistic report; findings and handlers deliberately out of order. */
export const sampleFindings: Finding[] = [
  {
    ruleId: 'idempotency/require-request-timeout',
    message:
      'This request has no timeout, so a hung call outlives the visibility timeout and the message is delivered again.',
    severity: 'warning',
    file: 'src/workers/email.ts',
    line: 22,
    column: 11,
    endLine: 22,
    endColumn: 60,
    enclosingFunction: 'sendReceipt',
    snippet: "    await fetch('https://mail.example.com/send', { method: 'POST' });",
  },
  {
    ruleId: 'idempotency/no-per-attempt-key',
    messageId: 'perAttemptKey',
    message: 'The `Idempotency-Key` is minted per attempt with `randomUUID()`, so a redelivery charges twice.',
    severity: 'error',
    file: 'src/billing/charge.ts',
    line: 14,
    column: 24,
    endLine: 14,
    endColumn: 36,
    enclosingFunction: 'chargeCustomer',
    snippet: '  const key = randomUUID();',
    fixable: false,
  },
  {
    ruleId: 'idempotency/no-pool-transaction',
    message:
      '`BEGIN` on a pool runs on whichever connection is free, so the transaction does not hold | and a crash leaves half the work.',
    severity: 'error',
    file: 'src/billing/charge.ts',
    line: 9,
    column: 3,
    enclosingFunction: 'chargeCustomer',
    snippet: "  await pool.query('BEGIN');",
  },
  {
    ruleId: 'idempotency/require-claim-check',
    message: "The claim's `rowCount` is never read, so a second delivery runs the work again.",
    severity: 'error',
    file: 'src/legacy/import.ts',
    line: 40,
    column: 5,
    enclosingFunction: 'importBatch',
    snippet: "    await db.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]);",
    suppressed: { justification: 'import is replayed by hand, never redelivered' },
  },
];

const sampleHandlers: HandlerEntry[] = [
  {
    file: 'src/workers/email.ts',
    line: 18,
    column: 1,
    name: 'sendReceipt',
    broker: 'sqs',
    effects: ['http-write'],
    protections: [],
    verdict: 'unprotected',
    reason: 'http-write would repeat on a redelivery: no checked claim',
  },
  {
    file: 'src/billing/worker.ts',
    line: 5,
    column: 36,
    name: 'processCharge',
    broker: 'bullmq',
    queue: 'billing',
    effects: ['stripe', 'sql-write', 'stripe'],
    protections: ['timeout', 'claim', 'transaction'],
    verdict: 'protected',
    reason: 'a checked claim guards its effects (sql-write, stripe)',
  },
  {
    file: 'src/hooks/routes.ts',
    line: 12,
    column: 20,
    broker: 'webhook',
    queue: '/hooks/stripe',
    effects: ['sql-write'],
    protections: [],
    verdict: 'unknown',
    reason: 'no effect seen, but it calls `settle` of `./settle`, which the analysis does not follow',
  },
];

export function sampleReport(): Report {
  return createReport({
    tool,
    rules: pluginRuleInfos(),
    findings: sampleFindings,
    handlers: sampleHandlers,
    notAnalysed: [{ file: 'src/legacy/broken.ts', reason: "';' expected. (3:14)" }],
    files: 12,
  });
}

export function emptyReport(): Report {
  return createReport({ tool, rules: pluginRuleInfos(), findings: [], files: 3 });
}
