import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { findConfigIssues } from '../../src/model/config-checks.js';
import { lintSnippet } from '../rule-tester.js';

/** `[check, line, shorter, longer]` for every issue in `code`. */
function issuesIn(code: string): [string, number, number, number][] {
  const found: [string, number, number, number][] = [];
  lintSnippet(code, (context) => ({
    'Program:exit'(program: TSESTree.Program) {
      for (const issue of findConfigIssues(program, context))
        found.push([issue.check, issue.node.loc.start.line, issue.shorter, issue.longer]);
    },
  }));
  return found;
}

const CDK_IMPORTS = `import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
`;

describe('no-short-visibility-timeout', () => {
  it.each([
    [
      'visibility longer than the function',
      `const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.minutes(6) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(1) });
f.addEventSource(new SqsEventSource(q));`,
    ],
    [
      'equal timeouts',
      `const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(60) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(1) });
f.addEventSource(new SqsEventSource(q));`,
    ],
    [
      'both defaults (30 s and 3 s)',
      `const q = new sqs.Queue(this, 'Q');
const f = new lambda.Function(this, 'F', {});
f.addEventSource(new SqsEventSource(q));`,
    ],
    [
      'a computed timeout',
      `const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(30) });
const f = new lambda.Function(this, 'F', { timeout: Duration.seconds(config.timeout) });
f.addEventSource(new SqsEventSource(q));`,
    ],
    [
      'props that may be spread in',
      `const q = new sqs.Queue(this, 'Q', { ...queueDefaults });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(2) });
f.addEventSource(new SqsEventSource(q));`,
    ],
    [
      'a queue that is not attached to the function',
      `const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(10) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(2) });
new SqsEventSource(q);`,
    ],
    [
      'look-alike classes from elsewhere',
      `import { Queue } from './my-queue';
const q = new Queue(this, 'Q', { visibilityTimeout: Duration.seconds(10) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(2) });
f.addEventSource(new SqsEventSource(q));`,
    ],
  ])('stays quiet: %s', (_name, code) => {
    expect(issuesIn(CDK_IMPORTS + code)).toEqual([]);
  });

  it.each([
    [
      'addEventSource',
      `const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(30) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(2) });
f.addEventSource(new SqsEventSource(q));`,
      [['no-short-visibility-timeout', 6, 30, 120]],
    ],
    [
      'the default visibility (30 s) under a 5-minute NodejsFunction',
      `const q = new sqs.Queue(this, 'Q');
const f = new NodejsFunction(this, 'F', { timeout: Duration.minutes(5) });
f.addEventSource(new SqsEventSource(q, { batchSize: 1 }));`,
      [['no-short-visibility-timeout', 6, 30, 300]],
    ],
    [
      'the events prop',
      `const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(45) });
new lambda.Function(this, 'F', { timeout: Duration.seconds(90), events: [new SqsEventSource(q)] });`,
      [['no-short-visibility-timeout', 6, 45, 90]],
    ],
  ])('reports: %s', (_name, code, expected) => {
    expect(issuesIn(CDK_IMPORTS + code)).toEqual(expected);
  });
});

describe('no-short-lock-duration', () => {
  const header = "import { Worker } from 'bullmq';\n";
  it.each([
    [
      'a lock longer than the request timeout',
      `new Worker('q', async (job) => fetch(u, { signal: AbortSignal.timeout(20_000) }), { lockDuration: 60_000 });`,
    ],
    [
      'the default lock (30 s) over a 10 s timeout',
      `new Worker('q', async (job) => fetch(u, { signal: AbortSignal.timeout(10_000) }));`,
    ],
    [
      'a timeout that is not static',
      `new Worker('q', async (job) => fetch(u, { signal: AbortSignal.timeout(job.data.ms) }), { lockDuration: 5_000 });`,
    ],
    [
      'a lock that is not static',
      `new Worker('q', async () => fetch(u, { signal: AbortSignal.timeout(60_000) }), { lockDuration: settings.lock });`,
    ],
    [
      'a setTimeout that is not awaited as a sleep',
      `new Worker('q', async () => { setTimeout(() => report(), 90_000); }, { lockDuration: 5_000 });`,
    ],
    [
      'a Worker that is not from bullmq',
      `import { Worker as Thread } from 'node:worker_threads';\nnew Thread('q', async () => fetch(u, { signal: AbortSignal.timeout(60_000) }), { lockDuration: 5_000 });`,
    ],
  ])('stays quiet: %s', (_name, code) => {
    expect(issuesIn(header + code)).toEqual([]);
  });

  it.each([
    [
      'AbortSignal.timeout',
      `new Worker('q', async () => fetch(u, { signal: AbortSignal.timeout(60_000) }), {\n  lockDuration: 10_000,\n});`,
      [['no-short-lock-duration', 3, 10_000, 60_000]],
    ],
    [
      'a timeout request option under the default lock',
      `const TIMEOUT = 45_000;\nnew Worker('q', async () => axios.post(u, body, { timeout: TIMEOUT }));`,
      [['no-short-lock-duration', 3, 30_000, 45_000]],
    ],
    [
      'a sleep',
      `async function processor() {\n  await new Promise((resolve) => setTimeout(resolve, 120_000));\n}\nnew Worker('q', processor, { lockDuration: 60_000 });`,
      [['no-short-lock-duration', 5, 60_000, 120_000]],
    ],
  ])('reports: %s', (_name, code, expected) => {
    expect(issuesIn(header + code)).toEqual(expected);
  });
});
