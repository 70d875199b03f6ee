import tsParser from '@typescript-eslint/parser';
import { Linter, type ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../src/index.js';

import { expectRuleRan } from './rule-tester.js';

/*
 * Every code example in the two documents the project was founded on, as a test.
 *
 * - "Idempotent Consumers": the processed_jobs claim and its rowCount, the marker and the effect
 *   in one transaction on one checked-out client (applyTopUp), BullMQ `jobId` derived from the
 *   data (emails.add), an idempotency key and a timeout on the outside call (chargeOnce).
 * - "How to make queue consumer writes safe under redelivery": a key derived from the message
 *   (keyed), a seen set that still sends the key (deduped); never a fresh UUID per call, a
 *   timestamp in a keyed body, a key on a read, or a seen set alone.
 *
 * The correct examples are typed as the documents print them and must lint clean under the
 * `all` config. Each mistake the documents describe is the correct example with that one mistake
 * made, and must be reported by the rule that owns it, on the line that holds it. No type
 * information: this is what a user without type-aware linting sees.
 */

const linter = new Linter({ configType: 'flat' });

function lint(code: string, filename = 'consumer.ts'): Linter.LintMessage[] {
  const config: Linter.Config = {
    files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    languageOptions: { parser: tsParser },
    ...plugin.configs.all,
  };
  const messages = linter.verify(code, [config], { filename });
  expectRuleRan(messages, 'parses');
  return messages;
}

/** 1-based line of the first line of `code` containing `needle`. */
function lineOf(code: string, needle: string): number {
  const index = code.split('\n').findIndex((line) => line.includes(needle));
  if (index === -1) throw new Error(`not in the example: ${needle}`);
  return index + 1;
}

/** The lines `rule` reports in `messages`. */
function linesOf(messages: readonly Linter.LintMessage[], rule: string): number[] {
  return messages.filter((message) => message.ruleId === `idempotency/${rule}`).map((message) => message.line);
}

function summary(messages: readonly Linter.LintMessage[]): string {
  return messages
    .map((message) => `${message.line}:${message.column} ${message.ruleId ?? ''} ${message.message}`)
    .join('\n');
}

/** `code` with the first suggestion of `message` applied. */
function applySuggestion(code: string, message: Linter.LintMessage | undefined): string {
  const fix = message?.suggestions?.[0]?.fix;
  if (!fix) throw new Error('no suggestion');
  return code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
}

function expectClean(code: string, filename?: string): void {
  const messages = lint(code, filename);
  expect(messages, summary(messages)).toEqual([]);
}

function expectReported(code: string, rule: string, needle: string, filename?: string): Linter.LintMessage[] {
  const messages = lint(code, filename);
  expect(linesOf(messages, rule), summary(messages)).toContain(lineOf(code, needle));
  return messages;
}

describe('Idempotent Consumers', () => {
  describe('correct', () => {
    it('the claim with its rowCount read through destructuring', () => {
      expectClean(`
import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });

export async function handle(job) {
  const { rowCount } = await pool.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]);
  if (rowCount === 0) return 'duplicate';
  await notify(job.data.accountId);
  return 'applied';
}
`);
    });

    it('the same claim with its rowCount read from the result', () => {
      // "These two read the same": the long form of the destructuring above.
      expectClean(`
import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
const sql = 'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING';

export async function handle(job) {
  const result = await pool.query(sql, [job.id]);
  const rowCount = result.rowCount;
  if (rowCount === 0) return 'duplicate';
  await notify(job.data.accountId);
  return 'applied';
}
`);
    });

    it('applyTopUp: the marker and the effect in one transaction on one client', () => {
      expectClean(APPLY_TOP_UP);
    });

    it('emails.add with a jobId derived from the data', () => {
      expectClean(ADD_RECEIPT_JOB);
    });

    it('chargeOnce: the job id as the key, and a timeout', () => {
      expectClean(CHARGE_ONCE);
    });
  });

  describe('mistakes', () => {
    it('the transaction sent through pool.query is reported by no-pool-transaction', () => {
      const code = APPLY_TOP_UP.replace(
        'const client = await pool.connect(); // one connection for the whole transaction\n',
        '',
      )
        .replaceAll('client.query(', 'pool.query(')
        .replace('    client.release();\n', '');
      expect(code).not.toContain('client');
      const messages = expectReported(code, 'no-pool-transaction', "pool.query('BEGIN')");
      // Only transaction statements are reported, never the claim or the update.
      const statements = ["'BEGIN'", "'COMMIT'", "'ROLLBACK'"].flatMap((statement) =>
        code.split('\n').flatMap((line, index) => (line.includes(statement) ? [index + 1] : [])),
      );
      for (const line of linesOf(messages, 'no-pool-transaction')) expect(statements).toContain(line);
    });

    it('a claim whose rowCount is ignored is reported by require-claim-check', () => {
      const code = APPLY_TOP_UP.replace(
        `    const claim = await client.query(
      'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING',
      [job.id]
    );`,
        "    await client.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]);",
      ).replace(
        `    if (claim.rowCount === 0) { // a previous delivery already did this
      await client.query('ROLLBACK');
      return 'duplicate';
    }
`,
        '',
      );
      expect(code).not.toContain('rowCount');
      expectReported(code, 'require-claim-check', "'INSERT INTO processed_jobs");
    });

    it('a random jobId on a route that adds the job is reported by no-per-attempt-key', () => {
      const code = `
import express from 'express';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';

const emails = new Queue('emails');
const app = express();

app.post('/orders/:id/receipt', async (req, res) => {
  await emails.add('send-receipt', { orderId: req.params.id }, { jobId: randomUUID() });
  res.status(202).end();
});
`;
      expectReported(code, 'no-per-attempt-key', 'jobId: randomUUID()');
    });

    it('chargeOnce with a fresh UUID as the key is reported by no-per-attempt-key', () => {
      const code = CHARGE_ONCE.replace("'Idempotency-Key': job.id,", "'Idempotency-Key': crypto.randomUUID(),");
      expect(code).toContain('crypto.randomUUID()');
      const messages = expectReported(code, 'no-per-attempt-key', 'crypto.randomUUID()');
      // The suggestion derives the key from the job, which is the document's correct example.
      const suggested = applySuggestion(
        code,
        messages.find((message) => message.ruleId === 'idempotency/no-per-attempt-key'),
      );
      expect(suggested).toContain("'Idempotency-Key': `msg:${job.id}`,");
      expectClean(suggested);
    });

    it('chargeOnce without a timeout is reported by require-request-timeout, with a suggestion', () => {
      const code = CHARGE_ONCE.replace(
        '    signal: AbortSignal.timeout(10_000), // never hang a worker on a dead API\n',
        '',
      );
      expect(code).not.toContain('signal');
      const messages = expectReported(code, 'require-request-timeout', 'await fetch(');
      // The suggestion puts the document's timeout back, and the result lints clean.
      const suggested = applySuggestion(
        code,
        messages.find((message) => message.ruleId === 'idempotency/require-request-timeout'),
      );
      expect(suggested).toContain('signal: AbortSignal.timeout(');
      expectClean(suggested);
    });
  });
});

describe('How to make queue consumer writes safe under redelivery', () => {
  describe('correct', () => {
    it('keyed: the key derived from the message', () => {
      expectClean(KEYED, 'consumer.mjs');
    });

    it('deduped: a seen set in front of the keyed call', () => {
      expectClean(DEDUPED, 'consumer.mjs');
    });

    it('the keyed call over HTTP, with a key from the message, a stable body and a timeout', () => {
      expectClean(KEYED_FETCH, 'consumer.mjs');
    });
  });

  describe('mistakes', () => {
    it('a fresh UUID per call as the key is reported by no-per-attempt-key', () => {
      const code = `
import { randomUUID } from 'node:crypto';

export const keyed = (api) => (message) =>
  api.charge({ amount: message.amount, idempotencyKey: randomUUID() })
`;
      expectReported(code, 'no-per-attempt-key', 'randomUUID()', 'consumer.mjs');
    });

    it('a fresh UUID per call as a Stripe idempotencyKey is reported by no-per-attempt-key', () => {
      const code = `
import Stripe from 'stripe';
import { v4 as uuid } from 'uuid';

const stripe = new Stripe(process.env.STRIPE_KEY);

export async function handleMessage(message) {
  const body = JSON.parse(message.Body);
  await stripe.charges.create({ amount: body.amount, currency: 'gbp', customer: body.customerId }, { idempotencyKey: uuid() });
}
`;
      expectReported(code, 'no-per-attempt-key', 'idempotencyKey: uuid()', 'consumer.mjs');
    });

    it('a timestamp inside a keyed body is reported by no-per-attempt-body', () => {
      const code = KEYED_FETCH.replace(
        'body: JSON.stringify({ amount: message.amount, currency: message.currency }),',
        'body: JSON.stringify({ amount: message.amount, currency: message.currency, requestedAt: new Date().toISOString() }),',
      );
      expect(code).toContain('requestedAt');
      expectReported(code, 'no-per-attempt-body', 'requestedAt: new Date()', 'consumer.mjs');
    });

    it('a key on a read is reported by no-key-on-read, and the fix removes it', () => {
      const code = `
export async function chargeStatus(message) {
  const res = await fetch(\`https://api.example-payments.test/v1/charges/\${message.chargeId}\`, {
    headers: { 'Idempotency-Key': \`msg:\${message.id}\` },
    signal: AbortSignal.timeout(10_000),
  });
  return res.json();
}
`;
      expectReported(code, 'no-key-on-read', "'Idempotency-Key'", 'consumer.mjs');
      const config: Linter.Config = {
        files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
        languageOptions: { parser: tsParser },
        plugins: { idempotency: plugin as unknown as ESLint.Plugin },
        rules: { 'idempotency/no-key-on-read': 'error' },
      };
      const fixed = linter.verifyAndFix(code, [config], { filename: 'consumer.mjs' });
      expect(fixed.fixed).toBe(true);
      expect(fixed.output).not.toContain('Idempotency-Key');
      expect(fixed.messages).toEqual([]);
      expectClean(fixed.output, 'consumer.mjs');
    });

    it('a module-level seen set alone, never deleted from, is reported by no-unbounded-dedupe-cache', () => {
      const code = `
const seen = new Map();

export function deduped(api) {
  return (message) => {
    if (seen.has(message.id)) return { ...seen.get(message.id), skipped: true };
    const result = api.charge({ amount: message.amount });
    seen.set(message.id, result);
    return result;
  };
}
`;
      const messages = expectReported(code, 'no-unbounded-dedupe-cache', 'const seen = new Map()', 'consumer.mjs');
      expect(linesOf(messages, 'no-unbounded-dedupe-cache')).toEqual([lineOf(code, 'const seen = new Map()')]);
    });
  });
});

// The examples, as the documents print them (whitespace aside).

const APPLY_TOP_UP = `
import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
// processed_jobs has: job_id text PRIMARY KEY, handled_at timestamptz
export async function applyTopUp(job) {
  const client = await pool.connect(); // one connection for the whole transaction
  try {
    await client.query('BEGIN');
    const claim = await client.query(
      'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING',
      [job.id]
    );
    if (claim.rowCount === 0) { // a previous delivery already did this
      await client.query('ROLLBACK');
      return 'duplicate';
    }
    await client.query('UPDATE accounts SET credits = credits + $1 WHERE id = $2', [
      job.data.credits,
      job.data.accountId,
    ]);
    await client.query('COMMIT'); // marker and effect become visible together
    return 'applied';
  } catch (err) {
    await client.query('ROLLBACK'); // nothing recorded, so a retry is safe
    throw err;
  } finally {
    client.release();
  }
}
`;

const ADD_RECEIPT_JOB = `
// BullMQ ignores an add() whose jobId already exists in the queue, which
// turns a double-clicked button into one job.
await emails.add(
  'send-receipt',
  { orderId: order.id },
  { jobId: \`send-receipt:\${order.id}\` } // derived from the data, not random
);
// This only holds while that job is still in the queue. Once it has
// completed and been removed, the same id can be added again, so the
// worker still needs its own check for anything that must not repeat.
`;

const CHARGE_ONCE = `
// The job id is stable across redeliveries, so send it as the key and the
// provider returns the FIRST result instead of charging again.
async function chargeOnce(job) {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: {
      authorization: \`Bearer \${process.env.PAYMENTS_API_KEY}\`,
      'content-type': 'application/json',
      'Idempotency-Key': job.id, // check your provider's exact header name
    },
    body: JSON.stringify({ amount: job.data.amount, currency: 'gbp' }),
    signal: AbortSignal.timeout(10_000), // never hang a worker on a dead API
  });
  if (!res.ok) throw new Error(\`charge failed: \${res.status}\`); // let it retry
  return res.json();
}
`;

const KEYED = `
export const keyed = (api) => (message) => api.charge({ amount: message.amount, key: \`msg:\${message.id}\` })
`;

const DEDUPED = `
export function deduped(api, seen = new Map()) {
  return (message) => {
    if (seen.has(message.id)) return { ...seen.get(message.id), skipped: true }
    const result = api.charge({ amount: message.amount, key: \`msg:\${message.id}\` })
    seen.set(message.id, result)
    return result
  }
}
`;

describe('Variations: retries around the keyed write', () => {
  /** keyed's HTTP charge, retried by exponential-backoff's backOff inside a BullMQ worker. */
  const RETRIED = `
import { Worker } from 'bullmq';
import { backOff } from 'exponential-backoff';

new Worker('charges', async (job) => {
  const key = \`msg:\${job.id}\`;
  await backOff(() =>
    fetch('https://api.example-payments.test/v1/charges', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ amount: job.data.amount, currency: job.data.currency }),
      signal: AbortSignal.timeout(10_000),
    }),
  );
});
`;

  describe('correct', () => {
    it('a retry helper around the call, with the key from the delivery made outside it', () => {
      expectClean(RETRIED, 'consumer.mjs');
    });

    it("the SDK's own retries under a key from the delivery", () => {
      expectClean(
        `
import Stripe from 'stripe';
import { Worker } from 'bullmq';

const stripe = new Stripe(process.env.STRIPE_KEY, { maxNetworkRetries: 3, timeout: 10_000 });

new Worker('charges', async (job) => {
  await stripe.charges.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: \`msg:\${job.id}\` });
});
`,
        'consumer.mjs',
      );
    });
  });

  describe('mistakes', () => {
    it('the key made inside the retry helper is reported by no-per-attempt-key', () => {
      const code = RETRIED.replace("'Idempotency-Key': key", "'Idempotency-Key': crypto.randomUUID()");
      expectReported(code, 'no-per-attempt-key', 'crypto.randomUUID()', 'consumer.mjs');
    });

    it('a key made outside the helper is still made per delivery: reported by no-per-attempt-key', () => {
      const code = RETRIED.replace('const key = `msg:${job.id}`;', 'const key = crypto.randomUUID();');
      expect(code).toContain('const key = crypto.randomUUID();');
      expectReported(code, 'no-per-attempt-key', "'Idempotency-Key': key", 'consumer.mjs');
    });

    it('a clock in the body of each try is reported by no-per-attempt-body, naming the retry', () => {
      const code = RETRIED.replace(
        'currency: job.data.currency }',
        'currency: job.data.currency, sentAt: Date.now() }',
      );
      expect(code).toContain('sentAt');
      const messages = expectReported(code, 'no-per-attempt-body', 'sentAt: Date.now()', 'consumer.mjs');
      expect(messages.find((message) => message.ruleId === 'idempotency/no-per-attempt-body')?.message).toContain(
        '`backOff`',
      );
    });

    it('a clock in the key is reported by no-per-attempt-key', () => {
      const code = RETRIED.replace('const key = `msg:${job.id}`;', 'const key = `msg:${job.id}:${Date.now()}`;');
      expect(code).toContain('Date.now()');
      expectReported(code, 'no-per-attempt-key', "'Idempotency-Key': key", 'consumer.mjs');
    });

    it("the delivery's attempt number in the key is reported by no-per-attempt-key", () => {
      const code = RETRIED.replace('const key = `msg:${job.id}`;', 'const key = `msg:${job.id}:${job.attemptsMade}`;');
      expect(code).toContain('attemptsMade');
      expectReported(code, 'no-per-attempt-key', "'Idempotency-Key': key", 'consumer.mjs');
    });

    it("a fresh key under the SDK's own retries is still new on every delivery", () => {
      const code = `
import Stripe from 'stripe';
import { Worker } from 'bullmq';

const stripe = new Stripe(process.env.STRIPE_KEY, { maxNetworkRetries: 3, timeout: 10_000 });

new Worker('charges', async (job) => {
  await stripe.charges.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: crypto.randomUUID() });
});
`;
      expectReported(code, 'no-per-attempt-key', 'crypto.randomUUID()', 'consumer.mjs');
    });
  });
});

/** keyed's charge as the HTTP request the how-to describes: the key in an Idempotency-Key header. */
const KEYED_FETCH = `
export async function charge(message) {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': \`msg:\${message.id}\` },
    body: JSON.stringify({ amount: message.amount, currency: message.currency }),
    signal: AbortSignal.timeout(10_000),
  });
  return res.json();
}
`;
