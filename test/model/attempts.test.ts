import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { isAttemptNumber } from '../../src/model/attempts/attempt-number.js';
import { innermostRetryScope, isMadeBeforeRetry } from '../../src/model/attempts/retry-scope.js';
import { isRerunByRedelivery } from '../../src/model/attempts/redelivery.js';
import { enclosingFunction } from '../../src/model/ast/nodes.js';
import { lintSnippet } from '../rule-tester.js';

/** The answer of `ask` for the argument of each `probe(...)` call in `code`. */
function probe<T>(
  code: string,
  ask: Parameters<typeof lintSnippet>[1] extends (c: infer C) => unknown
    ? (node: TSESTree.Node, context: C) => T
    : never,
): T[] {
  const found: T[] = [];
  lintSnippet(code, (context) => ({
    'CallExpression[callee.name="probe"]'(node: TSESTree.CallExpression) {
      found.push(ask(node.arguments[0]!, context));
    },
  }));
  return found;
}

describe('innermostRetryScope', () => {
  it.each([
    ["import pRetry from 'p-retry';\nawait pRetry(() => probe(1), { retries: 3 });", 'pRetry'],
    // The import, not the local name, says it is p-retry.
    ["import withRetries from 'p-retry';\nawait withRetries(() => probe(1));", 'withRetries'],
    ["const retry = require('async-retry');\nawait retry(async (bail, n) => probe(1));", 'retry'],
    ["import { backOff } from 'exponential-backoff';\nawait backOff(() => probe(1));", 'backOff'],
    [
      "import retry from 'retry';\nconst operation = retry.operation();\noperation.attempt((n) => probe(1));",
      'attempt',
    ],
    [
      "import { retry, handleAll, ExponentialBackoff } from 'cockatiel';\nconst policy = retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() });\nawait policy.execute(({ attempt }) => probe(1));",
      'execute',
    ],
    // The project's own helper, by its name.
    ['await withRetries(async () => probe(1));', 'withRetries'],
    ['for (let attempt = 0; attempt < 3; attempt++) { probe(1); }', 'for'],
    ['let tries = 0;\nwhile (tries < maxTries) { tries++; probe(1); }', 'while'],
  ])('%s is inside the `%s` retry', (code, name) => {
    expect(probe(code, (node, context) => innermostRetryScope(node, context)?.name)).toEqual([name]);
  });

  it.each([
    // A loop over items is not a retry, and a callback that is not a helper's is not re-run.
    'for (const item of items) { probe(1); }',
    'items.forEach(() => probe(1));',
    // cockatiel's execute on something cockatiel did not make is not known to retry.
    "import { retry } from 'cockatiel';\nawait cache.execute(() => probe(1));",
    // The helper's second argument is its options, not the retried callback.
    "import pRetry from 'p-retry';\nawait pRetry(run, { onFailedAttempt: () => probe(1) });",
  ])('%s is in no retry', (code) => {
    expect(probe(code, (node, context) => innermostRetryScope(node, context))).toEqual([undefined]);
  });
});

describe('isAttemptNumber', () => {
  it.each([
    ['for (let attempt = 1; attempt <= 3; attempt++) { probe(attempt); }', true],
    ['let n = 0;\nwhile (n < retries) { n++; probe(n); }', true],
    ["import retry from 'async-retry';\nawait retry(async (bail, attempt) => probe(attempt));", true],
    ["import pRetry from 'p-retry';\nawait pRetry((count) => probe(count));", true],
    [
      "import { retry, handleAll } from 'cockatiel';\nconst policy = retry(handleAll, {});\nawait policy.execute(({ attempt }) => probe(attempt));",
      true,
    ],
    ['worker.process(async (job) => probe(job.attemptsMade));', true],
    [
      'export const handler = async (event) => { for (const record of event.Records) probe(record.attributes.ApproximateReceiveCount); };',
      true,
    ],
    [
      "import { Context } from '@temporalio/activity';\nexport async function act() { probe(Context.current().info.attempt); }",
      true,
    ],
    ["inngest.createFunction({ id: 'x' }, { event: 'e' }, async ({ event, attempt }) => probe(attempt));", true],
    // Not attempt numbers: an index over items, a stored count, a helper's first parameter that
    // is its bail function, a property named `attempt` of a handler no library fills.
    ['for (let i = 0; i < items.length; i++) { probe(i); }', false],
    ['probe(invoice.failedAttempts);', false],
    ["import retry from 'async-retry';\nawait retry(async (bail) => probe(bail));", false],
    ["app.post('/x', async ({ attempt }) => probe(attempt));", false],
    ['for (let attempt = 0; attempt < 3; attempt++) {}\nconst attempt2 = 1;\nprobe(attempt2);', false],
  ])('%s: %s', (code, expected) => {
    expect(probe(code, (node, context) => isAttemptNumber(node, context))).toEqual([expected]);
  });
});

describe('isMadeBeforeRetry', () => {
  it('tells a key made before the retry from one made inside it', () => {
    const code = [
      "import { backOff } from 'exponential-backoff';",
      'const before = makeKey();',
      'await backOff(() => { const inside = makeKey(); probe(before); probe(inside); probe(options.key); });',
      'probe(before);',
    ].join('\n');
    expect(probe(code, (node, context) => isMadeBeforeRetry(node, node, context)?.name)).toEqual([
      'backOff',
      undefined,
      undefined, // `options` is not bound here: nothing says where it was made
      undefined, // not in a retry at all
    ]);
  });
});

describe('isRerunByRedelivery', () => {
  it('is true for a delivery handler and what it calls in the file, false for the rest', () => {
    const code = [
      "import { Worker } from 'bullmq';",
      'async function report(job) { probe(1); }',
      'async function unrelated() { probe(2); }',
      "new Worker('usage', async (job) => { probe(3); await report(job); });",
    ].join('\n');
    expect(
      probe(code, (node, context) => {
        const fn = enclosingFunction(node);
        return fn !== undefined && isRerunByRedelivery(fn, context);
      }),
    ).toEqual([true, false, true]);
  });
});
