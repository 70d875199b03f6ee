import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Report } from '../../src/report/model.js';
import { packageInfo } from '../../src/util/package-info.js';
import { copyRepo, repo, runCli, writeRepo } from './helpers.js';

function jsonReport(args: readonly string[], cwd?: string): { code: number; report: Report; stderr: string } {
  const run = runCli(['--format', 'json', ...args], cwd === undefined ? {} : { cwd });
  return { code: run.code, report: JSON.parse(run.stdout) as Report, stderr: run.stderr };
}

function located(report: Report): string[] {
  return report.findings.map(
    (finding) =>
      `${finding.file}:${finding.line}:${finding.column} ${finding.ruleId}${finding.suppressed ? ' (suppressed)' : ''}`,
  );
}

describe('--link-base', () => {
  it("prefixes the Markdown and HTML reports' file links, and is refused without either", () => {
    const base = 'https://github.com/acme/shop/blob/0123abc/';
    const run = runCli(['syntax-error', '--format', 'markdown', '--link-base', base]);
    expect(run.stdout).toContain(`](${base}src/fine.ts#L6)`);
    const html = runCli(['syntax-error', '--format', 'html', '--link-base', base]);
    expect(html.stdout).toContain(`href="${base}src/fine.ts#L6"`);
    const refused = runCli(['syntax-error', '--link-base', base]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'idempotency-check: --link-base is for the Markdown and HTML reports; give --format markdown or html\n',
    );
  });
});

describe('--format html', () => {
  it('writes the page beside the other reports, and the Markdown report points to it', () => {
    const out = mkdtempSync(join(tmpdir(), 'idempotency-html-'));
    const run = runCli([
      'demo-shop',
      ...['--format', 'html', '--output', join(out, 'idempotency.html')],
      ...['--format', 'markdown', '--output', join(out, 'summary.md')],
      ...['--format', 'json', '--output', join(out, 'report.json')],
    ]);
    expect(run.code, run.stderr).toBe(1);
    const page = readFileSync(join(out, 'idempotency.html'), 'utf8');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(page.match(/<article id="handler-\d+"/g)).toHaveLength(report.handlers.length);
    expect(page.match(/<article id="finding-\d+"/g)).toHaveLength(report.summary.findings);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('`idempotency.html`, the HTML report of this run.');
    rmSync(out, { recursive: true, force: true });
  });
});

describe('usage and bad input', () => {
  it('prints help and the version', () => {
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: idempotency-check \[options\] \[paths\.\.\.\]/);
    expect(runCli(['--version'])).toEqual({ code: 0, stdout: `${packageInfo.version}\n`, stderr: '' });
  });

  it.each([
    [['--nope'], /^idempotency-check: Unknown option '--nope'\n$/],
    [
      ['--format', 'xml'],
      /^idempotency-check: Unknown format 'xml'; expected one of text, json, sarif, markdown, github, html\n$/,
    ],
    [
      ['--format', 'json', '--format', 'sarif'],
      /^idempotency-check: Only one format can go to stdout; give an --output for the others\n$/,
    ],
    [
      ['--output', 'a.json', '--output', 'b.json'],
      /^idempotency-check: 2 --output for 1 --format; give one --format per --output\n$/,
    ],
    [['--max-findings', 'many'], /^idempotency-check: --max-findings expects a whole number, got 'many'\n$/],
    [['--severity', 'info'], /^idempotency-check: --severity expects error or warning, got 'info'\n$/],
    [
      ['--file-budget', 'soon'],
      /^idempotency-check: --file-budget expects a time such as 5s or 500ms \(0 for no limit\), got 'soon'\n$/,
    ],
    [['--update-baseline'], /^idempotency-check: --update-baseline needs --baseline <file>\n$/],
    [['--fix', '--fix-dry-run'], /^idempotency-check: --fix and --fix-dry-run exclude each other\n$/],
    [['no-such-repo'], /^idempotency-check: Path not found: no-such-repo\n$/],
    [
      ['broken-tsconfig'],
      /^idempotency-check: Invalid tsconfig: .*broken-tsconfig[\\/]tsconfig\.json: ',' expected\.\n$/,
    ],
    [['syntax-error', '--tsconfig', 'nope.json'], /^idempotency-check: tsconfig not found: nope\.json\n$/],
    [['demo-shop', '--max-findings', '-1'], /^idempotency-check: --max-findings expects a value, got '-1'\n$/],
    [
      ['demo-shop', '--output', 'r.json'],
      /^idempotency-check: --output needs a --format for it \(for example --format json --output report\.json\)\n$/,
    ],
    [
      ['demo-shop', '--format', 'json', '--format', 'sarif', '--output', 'r.out', '--output', 'r.out'],
      /^idempotency-check: --output r\.out is given twice; each format needs its own file\n$/,
    ],
    [
      ['config-checks', '--baseline', 'missing.json'],
      /^idempotency-check: Baseline not found: missing\.json \(create it with --update-baseline\)\n$/,
    ],
  ])('%j exits 2 with one clear line', (argv, message) => {
    const run = runCli(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});

describe('cross-file facts feed the same rules', () => {
  it('finds a transaction on a pool exported from another module under a name that says nothing', () => {
    const { code, report, stderr } = jsonReport(['cross-file-pool']);
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(located(report)).toEqual(['src/billing.ts:9:9 idempotency/no-pool-transaction']);
  });

  it("finds a call, in a transaction, of another module's function that defaults to the pool without the handle", () => {
    const root = writeRepo({
      'package.json': '{ "name": "taxonomies", "type": "module" }',
      'src/db.js': "import pgPromise from 'pg-promise';\nexport const db = pgPromise()(process.env.DATABASE_URL);\n",
      'src/taxonomies.js': [
        "import { db } from './db.js';",
        'export const insertTaxonomy = async (surveyId, taxonomy, client = db) =>',
        "  client.one('INSERT INTO taxonomy (survey_id, props) VALUES ($1, $2) RETURNING *', [surveyId, taxonomy]);",
        '',
      ].join('\n'),
      'src/manager.js': [
        "import { db } from './db.js';",
        "import * as Taxonomies from './taxonomies.js';",
        'export const create = async (surveyId, taxonomy) =>',
        '  db.tx(async (t) => {',
        '    const inserted = await Taxonomies.insertTaxonomy(surveyId, taxonomy);',
        "    await t.none('UPDATE survey SET draft = true WHERE id = $1', [surveyId]);",
        '    return inserted;',
        '  });',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(located(report)).toEqual(['src/manager.js:5:28 idempotency/no-pool-query-in-transaction']);
  });

  it('finds a per-attempt key minted by a helper in another module, and not a key derived from the message', () => {
    const { code, report } = jsonReport(['key-helper-module']);
    expect(code).toBe(1);
    expect(located(report)).toEqual(['src/charge.ts:11:71 idempotency/no-per-attempt-key']);
    expect(report.findings[0]).toMatchObject({
      severity: 'error',
      enclosingFunction: 'chargeCard',
      snippet: expect.stringContaining('newIdempotencyKey()') as unknown,
    });
  });

  it('carries key headers and header names across modules, through baseUrl imports', () => {
    const { code, report } = jsonReport(['imported-key-headers']);
    expect(code).toBe(1);
    expect(located(report)).toEqual([
      // The factory mints a key field for every request its callers send.
      'src/common/headers.ts:11:21 idempotency/no-per-attempt-key',
      // Its headers on a GET, imported as `src/common/headers`; the POST with them is where a key belongs.
      'src/orders/list.ts:5:21 idempotency/no-key-on-read',
      // `KEY_HEADER` says nothing by its name; its value in the other module is `Idempotency-Key`.
      'src/orders/pay.ts:7:30 idempotency/no-per-attempt-key',
      'src/orders/pay.ts:26:16 idempotency/no-key-on-read',
    ]);
  });

  it("finds another module's key headers on the reads of a REST client and in a request middleware", () => {
    const { report } = jsonReport(['shared-api-client']);
    expect(located(report)).toEqual([
      // Every request the json-api client sends gets the factory's headers: reads too.
      'lib/middleware/request-headers.js:9:7 idempotency/no-key-on-read',
      'lib/request-headers.js:7:24 idempotency/no-per-attempt-key',
      // `restClient.get = restClient`: its request serves GETs; `sendCommand` and the middleware
      // that skips GETs stay quiet.
      'lib/rest-client.js:6:24 idempotency/no-key-on-read',
    ]);
  });

  it("finds a per-attempt value passed to another module's function whose parameter becomes the key", () => {
    const { report } = jsonReport(['key-parameters']);
    expect(located(report)).toEqual([
      // `postEntry(body, key)` forwards `key` to a local `send` that writes it into the header.
      'src/jobs.ts:10:48 idempotency/no-per-attempt-key',
      'src/jobs.ts:15:49 idempotency/no-per-attempt-key',
      // The message id passed as the key, and a fresh value passed to a parameter that is no key, are fine.
    ]);
    expect(report.findings[0]?.message).toMatch(/^`key` is minted per attempt with `randomUUID\(\)`/);
  });

  it("finds a per-attempt value written into the field of another module's object parameter that becomes the key", () => {
    const { report } = jsonReport(['key-properties']);
    expect(located(report)).toEqual([
      // `orchestrationQueue.enqueue({ eventId })`: an exported instance's method makes its jobId of
      // `data.eventId`; `notify({ eventId })` destructures it into its header.
      'src/worker.ts:7:47 idempotency/no-per-attempt-key',
      'src/worker.ts:10:27 idempotency/no-per-attempt-key',
      // The job's own id as the event id, and a fresh value in a field that is no part of the key, are fine.
    ]);
    expect(report.findings[0]?.message).toMatch(/^`eventId` is minted per attempt with `Date\.now\(\)` in a handler/);
  });

  it("reports another module's never-stable key helper once, at the helper, not at its callers", () => {
    const { report } = jsonReport(['unstable-key-helper']);
    // `orderKey(id)` appends the clock: both callers send what it returns. `refundKey` is stable, and
    // `logLabel` is never written as a key.
    expect(located(report)).toEqual(['src/keys.ts:3:30 idempotency/no-per-attempt-key']);
    expect(report.findings[0]?.message).toMatch(/^`orderKey\(\)` is minted per attempt with `Date\.now\(\)`/);
  });

  it('resolves workspace packages of a monorepo with project references', () => {
    const { report } = jsonReport(['monorepo-references']);
    expect(report.summary.files).toBe(2);
    expect(report.notAnalysed).toEqual([]);
    expect(located(report)).toEqual(['packages/worker/src/jobs.ts:4:9 idempotency/no-pool-transaction']);
  });

  it('scans a JavaScript-only repository without a tsconfig (CommonJS and ES modules)', () => {
    const { code, report } = jsonReport(['js-only']);
    expect(code).toBe(1);
    expect(report.summary.files).toBe(4);
    expect(located(report)).toEqual([
      'lib/consumer.js:4:9 idempotency/no-pool-transaction',
      'lib/send.mjs:6:35 idempotency/no-per-attempt-key',
    ]);
  });

  it('loads a TypeScript 5 tsconfig (moduleResolution node, baseUrl, paths)', () => {
    const { report } = jsonReport(['ts5-config']);
    expect(located(report)).toEqual(['src/pay.ts:7:35 idempotency/no-per-attempt-key']);
  });

  it('gives the same findings in typed mode', () => {
    const syntax = jsonReport(['key-helper-module']).report;
    const typed = jsonReport(['key-helper-module', '--types']).report;
    expect(typed.findings).toEqual(syntax.findings);
  });
});

describe('whole-program checks', () => {
  it('reports a visibility timeout shorter than the Lambda and a lock shorter than an awaited timeout', () => {
    const { code, report } = jsonReport(['config-checks']);
    expect(code).toBe(1);
    expect(
      report.findings.map((finding) => [finding.file, finding.line, finding.column, finding.ruleId, finding.message]),
    ).toEqual([
      [
        'src/stack.ts',
        10,
        52,
        'idempotency/no-short-visibility-timeout',
        "The queue's visibility timeout (30 s) is shorter than the timeout of the Lambda that consumes it (120 s), so SQS delivers the message again while the first invocation still runs.",
      ],
      [
        'src/worker.ts',
        14,
        5,
        'idempotency/no-short-lock-duration',
        "The worker's `lockDuration` (10000 ms) is shorter than a timeout its processor awaits (60000 ms), so BullMQ declares the job stalled and runs it again on another worker.",
      ],
    ]);
  });

  it("inventories the processors handed to another module's worker factory, a function or a static method", () => {
    const root = writeRepo({
      'package.json': '{ "name": "factories", "dependencies": { "bullmq": "5" } }\n',
      'src/queues/worker-manager.ts': [
        "import { Worker, type Processor } from 'bullmq';",
        'export class WorkerManager {',
        '  static register(queue: string, processor: Processor): void {',
        '    new Worker(queue, WorkerManager.withMetrics(processor, queue), { connection: {} });',
        '  }',
        '  static withMetrics(processor: Processor, queue: string): Processor {',
        '    return async (job) => processor(job);',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/queues/factory.ts': [
        "import { Worker, type Processor } from 'bullmq';",
        'export function createWorker(name: string, processor: Processor) {',
        '  return new Worker(name, processor, { connection: {} });',
        '}',
        '',
      ].join('\n'),
      'src/jobs/charge.ts': [
        'export async function chargeProcessor(job: { data: { amount: number } }) {',
        "  await fetch('https://api.example.com/charges', { method: 'POST', body: JSON.stringify(job.data), signal: AbortSignal.timeout(5000) });",
        '}',
        'export async function mailProcessor(job: { data: { to: string } }) {',
        "  await fetch('https://api.example.com/mail', { method: 'POST', body: JSON.stringify(job.data), signal: AbortSignal.timeout(5000) });",
        '}',
        '',
      ].join('\n'),
      // Names no broker: only the factories' summaries say that these calls register handlers.
      'src/app.ts': [
        "import { WorkerManager } from './queues/worker-manager';",
        "import { createWorker } from './queues/factory';",
        "import { chargeProcessor, mailProcessor } from './jobs/charge';",
        "WorkerManager.register('charges', chargeProcessor);",
        "createWorker('mail', mailProcessor);",
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(
      report.handlers.map((handler) => [handler.file, handler.line, handler.name, handler.broker, handler.queue]),
    ).toEqual([
      ['src/jobs/charge.ts', 1, 'chargeProcessor', 'bullmq', 'charges'],
      ['src/jobs/charge.ts', 4, 'mailProcessor', 'bullmq', 'mail'],
      // The function the Worker runs is the wrapper's: what it does is what its callers hand it.
      ['src/queues/worker-manager.ts', 7, undefined, 'bullmq', undefined],
    ]);
    expect(report.handlers.map((handler) => [handler.effects, handler.verdict])).toEqual([
      [['http-write'], 'unprotected'],
      [['http-write'], 'unprotected'],
      [[], 'unknown'],
    ]);
  });

  it("inventories a factory's processor and an imported static method handed to a worker factory, not the factory", () => {
    const root = writeRepo({
      'package.json': '{ "name": "builders", "dependencies": { "bullmq": "5" } }\n',
      'src/queues/worker-manager.ts': [
        "import { Worker, type Processor } from 'bullmq';",
        'export class WorkerManager {',
        '  static register(queue: string, processor: Processor): void {',
        '    new Worker(queue, processor, { connection: {} });',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/jobs/builders.ts': [
        "const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });",
        'export const chargeProcessorBuilder = (shard: string) => {',
        '  const url = `https://api.example.com/${shard}/charges`;',
        '  return async (job: { data: unknown }) => {',
        '    await post(url, job.data);',
        '  };',
        '};',
        // Returns a value that is no function: registering its result registers nothing.
        'export const queueName = (shard: string) => `charges-${shard}`;',
        '',
      ].join('\n'),
      'src/jobs/retry.ts': [
        'export class RetryService {',
        '  static async retryFailed() {',
        "    await fetch('https://api.example.com/retry', { method: 'POST', signal: AbortSignal.timeout(5000) });",
        '  }',
        '  async retryFailed() {}',
        '}',
        '',
      ].join('\n'),
      // A factory handed a function wraps it: the work is the function handed in.
      'src/jobs/logging.ts': [
        'export const withLogging = (work: (job: unknown) => Promise<void>) => async (job: unknown) => work(job);',
        'export async function sendReceipt(job: { data: unknown }) {',
        "  await fetch('https://mail.example.com/receipts', { method: 'POST', body: JSON.stringify(job.data), signal: AbortSignal.timeout(5000) });",
        '}',
        '',
      ].join('\n'),
      'src/app.ts': [
        "import { WorkerManager } from './queues/worker-manager';",
        "import { chargeProcessorBuilder, queueName } from './jobs/builders';",
        "import { RetryService } from './jobs/retry';",
        "import { sendReceipt, withLogging } from './jobs/logging';",
        "WorkerManager.register('charges', chargeProcessorBuilder('eu'));",
        "WorkerManager.register('retry', RetryService.retryFailed);",
        "WorkerManager.register('named', queueName('eu'));",
        "WorkerManager.register('receipts', withLogging(sendReceipt));",
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(
      report.handlers.map((handler) => [handler.file, handler.line, handler.name, handler.broker, handler.queue]),
    ).toEqual([
      ['src/jobs/builders.ts', 4, 'chargeProcessorBuilder()', 'bullmq', 'charges'],
      ['src/jobs/logging.ts', 2, 'sendReceipt', 'bullmq', 'receipts'],
      ['src/jobs/retry.ts', 2, 'RetryService.retryFailed', 'bullmq', 'retry'],
    ]);
    expect(report.handlers.map((handler) => [handler.effects, handler.verdict])).toEqual([
      [['http-write'], 'unprotected'],
      [['http-write'], 'unprotected'],
      [['http-write'], 'unprotected'],
    ]);
  });

  it("inventories Vendure's job queue processors and a BullMQ processor held in a field", () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "dependencies": { "@vendure/core": "3", "bullmq": "5" } }\n',
      'src/plugins/reviews/review.service.ts': [
        "import { Injectable } from '@nestjs/common';",
        "import { JobQueue, JobQueueService } from '@vendure/core';",
        '@Injectable()',
        'export class ReviewService {',
        '  private queue: JobQueue<{ id: string }> | undefined;',
        '  constructor(private jobQueueService: JobQueueService) {}',
        '  async onModuleInit() {',
        '    this.queue = await this.jobQueueService.createQueue({',
        "      name: 'send-review-mail',",
        '      process: async (job) => {',
        "        await fetch('https://mail.example.com/send', { method: 'POST', body: job.data.id, signal: AbortSignal.timeout(5000) });",
        '      },',
        '    });',
        '  }',
        '}',
        '',
      ].join('\n'),
      // The same call on a client that is not Vendure's (no JobQueueService here) registers nothing.
      'src/cloud/tasks.ts': [
        'export async function setUp(client: { createQueue(options: object): Promise<void> }) {',
        "  await client.createQueue({ name: 'tasks', process: async (job: unknown) => job });",
        '}',
        '',
      ].join('\n'),
      'src/queue/strategy.ts': [
        "import { Worker, type Job } from 'bullmq';",
        'export class Strategy {',
        '  private workerProcessor: ((job: Job) => Promise<void>) | undefined;',
        '  start() {',
        '    this.workerProcessor = async (job: Job) => {',
        "      await fetch('https://api.example.com/run', { method: 'POST', body: job.name, signal: AbortSignal.timeout(5000) });",
        '    };',
        "    new Worker('jobs', this.workerProcessor, { connection: {} });",
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(
      report.handlers.map((handler) => [handler.file, handler.line, handler.broker, handler.queue, handler.effects]),
    ).toEqual([
      ['src/plugins/reviews/review.service.ts', 10, 'vendure-job-queue', 'send-review-mail', ['http-write']],
      ['src/queue/strategy.ts', 5, 'bullmq', 'jobs', ['http-write']],
    ]);
  });

  it("composes a handler's effects to the end of a chain of modules, and through a cycle", () => {
    // worker → a → b → c → d, where d writes; c and b call each other too.
    const root = writeRepo({
      'package.json': '{ "name": "chain" }',
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { stepA } from './a';",
        "new Worker('chain', async (job) => { await stepA(job.data); }, { connection: {} });",
        '',
      ].join('\n'),
      'src/a.ts': [
        "import { stepB } from './b';",
        'export async function stepA(data: unknown) { await stepB(data); }',
        '',
      ].join('\n'),
      'src/b.ts': [
        "import { stepC } from './c';",
        'export async function stepB(data: unknown) { await stepC(data, true); }',
        'export async function again(data: unknown) { await stepC(data, false); }',
        '',
      ].join('\n'),
      'src/c.ts': [
        "import { again } from './b';",
        "import { stepD } from './d';",
        'export async function stepC(data: unknown, first: boolean) { if (first) await again(data); await stepD(data); }',
        '',
      ].join('\n'),
      'src/d.ts': [
        'export async function stepD(data: unknown) {',
        "  await fetch('https://api.example.com/charges', { method: 'POST', body: JSON.stringify(data), signal: AbortSignal.timeout(5000) });",
        '}',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    // The processor, and the function it hands its job to, which does the work of every delivery.
    expect(report.handlers.map((handler) => [handler.file, handler.effects, handler.verdict])).toEqual([
      ['src/a.ts', ['http-write'], 'unprotected'],
      ['src/worker.ts', ['http-write'], 'unprotected'],
    ]);
    // The way there, from the function the handler calls to the one that writes.
    expect(report.handlers.find((handler) => handler.file === 'src/worker.ts')?.paths).toEqual([
      {
        effect: 'http-write',
        via: [
          { file: 'src/a.ts', line: 2, name: 'stepA' },
          { file: 'src/b.ts', line: 2, name: 'stepB' },
          { file: 'src/c.ts', line: 3, name: 'stepC' },
          { file: 'src/d.ts', line: 1, name: 'stepD' },
        ],
      },
    ]);
  });

  it("counts a request wrapper's write where its caller's options say the method", () => {
    const root = writeRepo({
      'package.json': '{ "name": "wrapper" }',
      'src/http.ts': [
        'export async function send(url: string, options: RequestInit) {',
        '  return fetch(url, { signal: AbortSignal.timeout(5000), ...options });',
        '}',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { send } from './http';",
        "import { post } from './client';",
        "new Worker('hooks', async (job) => { await send(job.data.url, { method: 'POST', body: job.data.body }); }, { connection: {} });",
        "new Worker('reads', async (job) => { await send(job.data.url, { method: 'GET' }); }, { connection: {} });",
        "new Worker('wrapped', async (job) => { await post(job.data.url, { method: 'PUT', body: '' }); }, { connection: {} });",
        '',
      ].join('\n'),
      // A wrapper of a wrapper in one file: the options reach the request through a local call.
      'src/client.ts': [
        "import nodeFetch from 'node-fetch';",
        'function fetch(url: string, init?: object) {',
        '  return nodeFetch(url, { timeout: 5000, ...init });',
        '}',
        'export const post = async (url: string, options: object) => fetch(url, { ...options });',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(report.handlers.map((handler) => [handler.queue, handler.effects, handler.verdict])).toEqual([
      ['hooks', ['http-write'], 'unprotected'],
      ['reads', [], 'protected'],
      ['wrapped', ['http-write'], 'unprotected'],
    ]);
    expect(report.handlers[0]?.paths).toEqual([
      { effect: 'http-write', via: [{ file: 'src/http.ts', line: 1, name: 'send' }] },
    ]);
  });

  it('inventories handlers, following a processor registered in another file', () => {
    const { report } = jsonReport(['cross-file-pool']);
    const handler = report.handlers.find((entry) => entry.name === 'applyTopUp');
    expect(handler).toEqual({
      file: 'src/billing.ts',
      line: 8,
      column: 8,
      endLine: 12,
      name: 'applyTopUp',
      broker: 'bullmq',
      queue: 'top-ups',
      // worker.ts's `new Worker('top-ups', applyTopUp)`.
      registeredAt: { file: 'src/worker.ts', line: 6 },
      effects: ['sql-write'],
      // The UPDATE.
      effectSites: [{ effect: 'sql-write', file: 'src/billing.ts', line: 10 }],
      protections: ['transaction'],
      verdict: 'unprotected',
      reason: '`idempotency/no-pool-transaction` reports inside it (line 9)',
    });
  });

  it('counts an ORM write as an effect: a Prisma worker is never protected for having no SQL', () => {
    const root = writeRepo({
      'package.json': '{ "name": "prisma-worker", "type": "module" }',
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { PrismaClient } from '@prisma/client';",
        'const prisma = new PrismaClient();',
        "new Worker('orders', async (job) => {",
        '  await prisma.order.create({ data: { id: job.data.id } });',
        '});',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(report.handlers).toEqual([
      {
        file: 'src/worker.ts',
        line: 4,
        column: 22,
        // The arrow's last line, `});`.
        endLine: 6,
        broker: 'bullmq',
        queue: 'orders',
        effects: ['db-write'],
        // `prisma.order.create(...)`.
        effectSites: [{ effect: 'db-write', file: 'src/worker.ts', line: 5 }],
        protections: [],
        verdict: 'unprotected',
        reason: 'db-write would repeat on a redelivery: no checked claim',
      },
    ]);
  });

  it('follows a delivery into the modules it waits for: an un-awaited write two modules down is floating work', () => {
    const root = writeRepo({
      'package.json': '{ "name": "receipts", "type": "module" }',
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { settle } from './settle.js';",
        "new Worker('payments', async (job) => {",
        '  await settle(job.data.orderId);',
        '});',
        '',
      ].join('\n'),
      'src/settle.ts': [
        "import { notify } from './notify.js';",
        'export async function settle(orderId: string) {',
        '  await notify(orderId);',
        '}',
        '',
      ].join('\n'),
      'src/notify.ts': [
        'async function sendReceipt(orderId: string) {',
        "  await fetch('https://mail.example.test/receipts', { method: 'POST', body: orderId, signal: AbortSignal.timeout(5000) });",
        '}',
        'export async function notify(orderId: string) {',
        '  sendReceipt(orderId);',
        '}',
        // Not on any delivery's path: its own floating work is no handler's business.
        'export async function nightly(orderId: string) {',
        '  sendReceipt(orderId);',
        '}',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(located(report)).toEqual(['src/notify.ts:5:3 idempotency/no-floating-handler-work']);
  });

  it("leaves floating work in a branch on a field that every delivery's call leaves out of the object it hands", () => {
    const root = writeRepo({
      'package.json': '{ "name": "ledger", "type": "module" }',
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { updateTransaction } from './transactions.js';",
        "new Worker('attachments', async (job) => {",
        '  await updateTransaction({ id: job.data.id, taxRate: job.data.rate });',
        '});',
        '',
      ].join('\n'),
      'src/transactions.ts': [
        'async function record(kind: string) {',
        "  await fetch('https://api.example.test/activity', { method: 'POST', body: kind, signal: AbortSignal.timeout(5000) });",
        '}',
        'export async function updateTransaction(params: { id: string; taxRate?: number; categorySlug?: string }) {',
        '  const { id, ...data } = params;',
        '  if (data.categorySlug) {',
        "    record('categorized');",
        '  }',
        '  if (data.taxRate !== undefined) {',
        "    record('taxed');",
        '  }',
        '  return id;',
        '}',
        '',
      ].join('\n'),
    });
    const { report } = jsonReport([root]);
    expect(located(report)).toEqual(['src/transactions.ts:10:5 idempotency/no-floating-handler-work']);
  });

  it('counts an ORM write as a write: no handler whose only writes are ORM calls is protected', () => {
    const worker = (name: string, imports: string[], body: string[]): string =>
      [
        "import { Worker } from 'bullmq';",
        ...imports,
        `new Worker('${name}', async (job) => {`,
        ...body.map((line) => `  ${line}`),
        '});',
        '',
      ].join('\n');
    const root = writeRepo({
      'package.json': '{ "name": "orm-writes", "type": "module" }',
      'src/prisma.ts': worker(
        'prisma',
        ["import { PrismaClient } from '@prisma/client';", 'const prisma = new PrismaClient();'],
        ['await prisma.order.create({ data: { id: job.data.id } });'],
      ),
      'src/drizzle.ts': worker(
        'drizzle',
        [
          "import { drizzle } from 'drizzle-orm/node-postgres';",
          "import { orders } from './schema.js';",
          'const db = drizzle(process.env.DATABASE_URL!);',
        ],
        ['await db.insert(orders).values({ id: job.data.id });'],
      ),
      'src/typeorm.ts': worker(
        'typeorm',
        [
          "import { DataSource } from 'typeorm';",
          "import { Order } from './schema.js';",
          "const source = new DataSource({ type: 'postgres' });",
          'const orderRepository = source.getRepository(Order);',
        ],
        ['await orderRepository.save({ id: job.data.id });'],
      ),
      'src/sequelize.ts': worker(
        'sequelize',
        ["import { Model } from 'sequelize';", 'class Order extends Model {}'],
        ['await Order.create({ id: job.data.id });'],
      ),
      'src/knex.ts': worker(
        'knex',
        ["import knex from 'knex';", "const db = knex({ client: 'pg' });"],
        ["await db('orders').insert({ id: job.data.id });"],
      ),
      'src/schema.ts': 'export const orders = {}; export class Order {}\n',
    });
    const { report } = jsonReport([root]);
    expect(report.handlers.map((handler) => [handler.queue, handler.effects, handler.verdict])).toEqual([
      ['drizzle', ['db-write'], 'unprotected'],
      ['knex', ['db-write'], 'unprotected'],
      ['prisma', ['db-write'], 'unprotected'],
      ['sequelize', ['db-write'], 'unprotected'],
      ['typeorm', ['db-write'], 'unprotected'],
    ]);
  });

  it('follows deliveries through injected services, acking helpers and async functions of other modules', () => {
    const { report } = jsonReport(['delivery-paths']);
    expect(located(report)).toEqual([
      // An async function of another module, not awaited in a webhook.
      'src/ledger/webhook.ts:9:3 idempotency/no-floating-handler-work',
      // A NestJS processor awaits its injected service, whose injected mail service is not awaited.
      'src/orders/orders.service.ts:16:5 idempotency/no-floating-handler-work',
      // The ack is inside a helper of another module, called before the charge.
      'src/payments/consumer.ts:12:3 idempotency/no-ack-before-work',
    ]);
    // The processor's effects are its service's: the Prisma update and the mail request.
    expect(report.handlers.find((handler) => handler.file === 'src/orders/orders.processor.ts')).toMatchObject({
      broker: 'bullmq',
      effects: ['db-write', 'http-write'],
      verdict: 'unprotected',
    });
  });

  it('gives the coverage line and verdicts in the text report', () => {
    const run = runCli(['config-checks']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('2 of 2 handlers protected');
    expect(run.stdout).toContain('src/stack.ts:10:52');
  });
});

describe('files that cannot be analysed', () => {
  it('exits 2 when nothing could be analysed: the only file does not parse, or every file is ignored', () => {
    const root = copyRepo('syntax-error');
    rmSync(join(root, 'src/fine.ts'));
    const unparsable = runCli([root]);
    expect(unparsable.code).toBe(2);
    expect(unparsable.stdout).toBe('');
    expect(unparsable.stderr).toBe(
      "idempotency-check: nothing was analysed: src/broken.ts: Parsing error: ',' expected. (1:43)\n",
    );
    const ignored = runCli([repo('demo-shop'), '--ignore', '**']);
    expect(ignored.code).toBe(2);
    expect(ignored.stderr).toMatch(
      /^idempotency-check: nothing was analysed: no source file under .* \(after ignores\)\n$/,
    );
  });

  it('fails the run for a file it could not analyse only with --fail-on-not-analysed', () => {
    const root = copyRepo('syntax-error');
    // Without the broken file's neighbour's finding, only the unparsable file could fail the run.
    writeFileSync(join(root, 'src/fine.ts'), 'export const fine = 1;\n');
    expect(runCli([root]).code).toBe(0);
    const failing = runCli([root, '--fail-on-not-analysed']);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toBe('idempotency-check: 1 file(s) could not be analysed (--fail-on-not-analysed)\n');
  });

  it('lists a file that does not parse and goes on with the rest', () => {
    const { report } = jsonReport(['syntax-error']);
    expect(report.notAnalysed).toEqual([{ file: 'src/broken.ts', reason: "Parsing error: ',' expected. (1:43)" }]);
    expect(report.summary.files).toBe(1);
    expect(located(report)).toEqual(['src/fine.ts:6:9 idempotency/no-pool-transaction']);
  });

  it('skips node_modules, build output, .gitignored paths, --ignore globs and symlinks out of the root', () => {
    const root = copyRepo('js-only');
    const outside = copyRepo('key-helper-module');
    const bad =
      "const { Pool } = require('pg');\nconst { randomUUID } = require('node:crypto');\nfetch('https://x.test', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } });\n";
    for (const folder of ['node_modules/dep', 'dist', 'generated', 'vendor/lib']) {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, 'index.js'), bad);
    }
    writeFileSync(join(root, '.gitignore'), '# build\n/generated/\n');
    symlinkSync(join(outside, 'src'), join(root, 'linked'));
    const { report } = jsonReport([root, '--ignore', 'vendor/**']);
    expect(report.summary.files).toBe(4);
    expect(report.findings.every((finding) => finding.file.startsWith('lib/'))).toBe(true);
  });

  it('gives the same report through a symlink to the root, facts across a `paths` alias included', () => {
    const root = writeRepo({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, paths: { '@app/db/*': ['./src/db/*'] } } }),
      'src/db/tx.ts': [
        "import { Kysely } from 'kysely';",
        'export async function inTx<T>(db: Kysely<any>, work: (trx: any) => Promise<T>): Promise<T> {',
        '  return db.transaction().execute((trx) => work(trx));',
        '}',
        '',
      ].join('\n'),
      'src/pages.ts': [
        "import { inTx } from '@app/db/tx';",
        'export class Pages {',
        '  constructor(private readonly db: any) {}',
        '  async move(ids: string[]) {',
        '    await inTx(this.db, async (trx) => {',
        '      for (const id of ids) {',
        '        const position = await this.last();',
        "        await trx.updateTable('pages').set({ position }).where('id', '=', id).execute();",
        '      }',
        '    });',
        '  }',
        '  async last() {',
        "    const row = await this.db.selectFrom('pages').select('position').executeTakeFirst();",
        '    return row ? row.position + 1 : 0;',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    const link = `${root}-link`;
    symlinkSync(root, link);
    const direct = jsonReport([root]).report;
    expect(located(direct)).toEqual(['src/pages.ts:7:32 idempotency/no-pool-query-in-transaction']);
    expect(located(jsonReport([link]).report)).toEqual(located(direct));
  });

  it('lists a file over the time budget with its reason and goes on; --file-budget 0 lifts the limit', () => {
    // A consumer with many sends: far more than a millisecond of rules, far less than the default budget.
    const sends = Array.from(
      { length: 150 },
      (_, index) =>
        `  await fetch('https://api.example.com/charges/${String(index)}', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() }, signal: AbortSignal.timeout(5000) });`,
    );
    const root = writeRepo({
      'package.json': '{ "name": "budget" }\n',
      'src/worker.ts': [
        "import { randomUUID } from 'node:crypto';",
        "import { Worker } from 'bullmq';",
        "new Worker('charges', async () => {",
        ...sends,
        '});',
        '',
      ].join('\n'),
      'src/constants.ts': 'export const RETRIES = 3;\n',
    });
    const limited = jsonReport([root, '--file-budget', '1ms']);
    expect(limited.code).toBe(0);
    expect(limited.report.notAnalysed).toEqual([
      {
        file: 'src/worker.ts',
        reason: 'not analysed within the budget of 1 ms per file (raise it with --file-budget)',
      },
    ]);
    expect(limited.report.findings).toEqual([]);
    expect(limited.report.summary.files).toBe(1);
    const unlimited = jsonReport([root, '--file-budget', '0']);
    expect(unlimited.code).toBe(1);
    expect(unlimited.report.notAnalysed).toEqual([]);
    expect(
      unlimited.report.findings.filter((finding) => finding.ruleId === 'idempotency/no-per-attempt-key'),
    ).toHaveLength(150);
  });

  it('--timing lists the files the rules ran over, slowest first, on stderr', () => {
    const run = runCli(['syntax-error', '--timing', '--format', 'json']);
    const [head, ...rows] = run.stderr.trimEnd().split('\n');
    expect(head).toMatch(
      /^idempotency-check: rules ran over 2 files \(0 again with other modules. facts\) in \d+\.\d s; slowest:$/,
    );
    // The file that does not parse was tried too; the order is the machine's.
    expect(rows.map((row) => /^ +\d+ ms +\d+\.\d %  (\S+)$/.exec(row)?.[1]).sort()).toEqual([
      'src/broken.ts',
      'src/fine.ts',
    ]);
    const times = rows.map((row) => Number(/(\d+) ms/.exec(row)?.[1]));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(JSON.parse(run.stdout)).toMatchObject({ summary: { files: 1 } });
  });

  it('restricts the scan to the given files when several paths are given', () => {
    const { report } = jsonReport(['js-only/lib/send.mjs', 'js-only/lib/keys.mjs']);
    expect(report.summary.files).toBe(2);
    expect(located(report)).toEqual(['js-only/lib/send.mjs:6:35 idempotency/no-per-attempt-key']);
  });
});

describe('suppressions', () => {
  it('honours eslint-disable comments and lists them as suppressed with their justification', () => {
    const { code, report } = jsonReport(['suppressed']);
    expect(report.findings.map((finding) => [finding.ruleId, finding.line, finding.suppressed])).toEqual([
      ['idempotency/no-pool-transaction', 8, { justification: 'single-connection pool (max: 1), see ADR-12' }],
      ['idempotency/no-pool-transaction', 14, undefined],
      [
        'idempotency/no-short-lock-duration',
        23,
        { justification: 'the endpoint answers in 2 s; the 60 s timeout is a backstop' },
      ],
      ['idempotency/no-short-lock-duration', 29, {}],
    ]);
    expect(report.summary).toMatchObject({ findings: 1, suppressed: 3 });
    expect(code).toBe(1);
  });

  it('leaves suppressed findings out with --no-suppressed', () => {
    const { report } = jsonReport(['suppressed', '--no-suppressed']);
    expect(located(report)).toEqual(['src/legacy.ts:14:9 idempotency/no-pool-transaction']);
    expect(report.summary.suppressed).toBe(0);
  });
});

describe('exit codes, outputs and baselines', () => {
  it('fails only above --max-findings and at or above --severity', () => {
    expect(runCli(['config-checks', '--max-findings', '2']).code).toBe(0);
    expect(runCli(['config-checks', '--max-findings', '1']).code).toBe(1);
    expect(runCli(['cross-file-pool', '--severity', 'error', '--format', 'json']).code).toBe(
      (JSON.parse(runCli(['cross-file-pool', '--format', 'json']).stdout) as Report).findings.some(
        (finding) => finding.severity === 'error' && !finding.suppressed,
      )
        ? 1
        : 0,
    );
  });

  it('writes several formats in one run: each --output pairs with the --format at the same position', () => {
    const dir = copyRepo('config-checks');
    const run = runCli(
      [
        '.',
        '--format',
        'json',
        '--output',
        'out/report.json',
        '--format',
        'sarif',
        '--output',
        'out/report.sarif',
        '--format',
        'github',
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=src\/stack\.ts,line=10,/);
    const json = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(json.schemaVersion).toBe(1);
    expect(json.findings).toHaveLength(2);
    const sarif = JSON.parse(readFileSync(join(dir, 'out/report.sarif'), 'utf8')) as { version: string };
    expect(sarif.version).toBe('2.1.0');
    expect(runCli(['config-checks', '--format', 'markdown']).stdout).toContain('no-short-visibility-timeout');
  });

  it('tolerates baselined findings across line drift and fails on new ones', () => {
    const dir = copyRepo('config-checks');
    const update = runCli(['.', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(update).toMatchObject({ code: 0, stderr: 'Wrote 2 baseline entries to baseline.json\n' });

    const worker = join(dir, 'src/worker.ts');
    writeFileSync(worker, `// moved down a line\n${readFileSync(worker, 'utf8')}`);
    const tolerated = jsonReport(['.', '--baseline', 'baseline.json'], dir);
    expect(tolerated.code).toBe(0);
    expect(tolerated.report.baseline).toEqual({ tolerated: 2, new: 0, stale: [] });

    writeFileSync(worker, readFileSync(worker, 'utf8').replace('{ lockDuration: 60_000 }', '{ lockDuration: 1_000 }'));
    const failing = jsonReport(['.', '--baseline', 'baseline.json'], dir);
    expect(failing.code).toBe(1);
    expect(failing.report.baseline?.new).toBe(1);
    expect(located(failing.report)).toEqual(['src/worker.ts:29:5 idempotency/no-short-lock-duration']);
  });

  it('rejects a baseline that is not one', () => {
    const dir = copyRepo('config-checks');
    writeFileSync(join(dir, 'baseline.json'), '{"schemaVersion": 9, "entries": []}');
    const run = runCli(['.', '--baseline', 'baseline.json'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^idempotency-check: baseline\.json: baseline schemaVersion 9 is not supported/);
  });
});

describe('--fix and --fix-dry-run', () => {
  it('prints the autofixes as a unified diff and changes nothing', () => {
    const dir = copyRepo('autofix');
    const before = readFileSync(join(dir, 'src/read.ts'), 'utf8');
    const run = runCli(['.', '--fix-dry-run'], { cwd: dir });
    expect(run.stdout).toBe(
      [
        '--- a/src/read.ts',
        '+++ b/src/read.ts',
        '@@ -1,6 +1,6 @@',
        ' export async function loadInvoice(messageId: string, invoiceId: string): Promise<unknown> {',
        '   const res = await fetch(`https://api.example-billing.test/invoices/${invoiceId}`, {',
        "-    headers: { accept: 'application/json', 'Idempotency-Key': `msg:${messageId}` },",
        "+    headers: { accept: 'application/json' },",
        '     signal: AbortSignal.timeout(5_000),',
        '   });',
        '   return res.json();',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toBe('1 file(s) would change\n');
    expect(readFileSync(join(dir, 'src/read.ts'), 'utf8')).toBe(before);
  });

  it('applies the autofixes, reports what changed, and a second run finds nothing to fix', () => {
    const dir = copyRepo('autofix');
    const run = runCli(['.', '--fix', '--format', 'json'], { cwd: dir });
    expect(run.stderr).toBe('fixed src/read.ts\n1 file(s) changed by --fix\n');
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, 'src/read.ts'), 'utf8')).toContain("headers: { accept: 'application/json' },");
    expect(runCli(['.', '--fix'], { cwd: dir }).stderr).toBe('0 file(s) changed by --fix\n');
    expect(existsSync(join(dir, 'src/read.ts'))).toBe(true);
  });
});

describe('progress', () => {
  it('writes progress to stderr only for a terminal outside CI', () => {
    expect(runCli(['config-checks'], { isTTY: true }).stderr).toContain('\r\u001b[K');
    expect(runCli(['config-checks'], { isTTY: true, env: { CI: 'true' } }).stderr).toBe('');
    expect(runCli(['config-checks']).stderr).toBe('');
  });

  it('colours the text report only for a terminal without NO_COLOR', () => {
    expect(runCli(['config-checks'], { isTTY: true, env: { CI: '1' } }).stdout).toContain('\u001b[');
    expect(runCli(['config-checks'], { isTTY: true, env: { CI: '1', NO_COLOR: '1' } }).stdout).not.toContain('\u001b[');
  });
});

it('scans the repository root given as the only path', () => {
  expect(runCli([repo('config-checks')]).code).toBe(1);
});
