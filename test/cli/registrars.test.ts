import { describe, expect, it } from 'vitest';

import { inventoryOf, runCli, writeRepo } from './helpers.js';

const post = (what: string): string =>
  `await fetch('https://api.example.com/${what}', { method: 'POST', body: JSON.stringify(job.data), signal: AbortSignal.timeout(5000) });`;

/** A BullMQ service whose method builds the worker, choosing BullMQ Pro's class when it is on. */
const BULL_SERVICE = [
  "import { Worker } from 'bullmq';",
  '',
  'export class BullService {',
  '  static pro = false;',
  '  worker: unknown;',
  '  createWorker(topic: string, processor: unknown, options: object) {',
  "    const WorkerClass = !BullService.pro ? Worker : require('@taskforcesh/bullmq-pro').WorkerPro;",
  '    this.worker = new WorkerClass(topic, processor, options);',
  '  }',
  '}',
  '',
].join('\n');

/** The project's base worker: its methods hand the processor on to the injected BullService. */
const WORKER_BASE = [
  "import { BullService } from './bull.service';",
  '',
  'export class WorkerBase {',
  '  private instance: BullService;',
  '  constructor(public readonly topic: string, bull: BullService) {',
  '    this.instance = bull;',
  '  }',
  '  initWorker(processor: unknown, options = {}) {',
  '    this.createWorker(processor, options);',
  '  }',
  '  createWorker(processor: unknown, options: object) {',
  '    this.instance.createWorker(this.topic, processor, options);',
  '  }',
  '}',
  '',
].join('\n');

describe('registrars: functions that hand a processor on to a broker, however many calls deep', () => {
  it("lists the processor a subclass gives an inherited method that reaches BullMQ's Worker through an injected service", () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "notify" }',
        'src/queue/bull.service.ts': BULL_SERVICE,
        'src/queue/worker-base.ts': WORKER_BASE,
        'src/queue/email-worker.service.ts': [
          "import { WorkerBase } from './worker-base';",
          "import { BullService } from './bull.service';",
          '',
          'export class EmailWorkerService extends WorkerBase {',
          '  constructor(bull: BullService) {',
          "    super('email', bull);",
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/queue/index.ts': "export * from './email-worker.service';\nexport * from './bull.service';\n",
        'src/workers/email.worker.ts': [
          "import { EmailWorkerService, BullService } from '../queue';",
          '',
          'export class EmailWorker extends EmailWorkerService {',
          '  constructor(bull: BullService) {',
          '    super(bull);',
          '    this.initWorker(this.getProcessor());',
          '  }',
          '  private getProcessor() {',
          '    return async (job: { data: unknown }) => {',
          `      ${post('send')}`,
          '    };',
          '  }',
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([{ file: 'src/workers/email.worker.ts', line: 9, name: 'initWorker(…)', broker: 'bullmq' }]);
  });

  it("lists the function given to a subclass of BullMQ's Worker, whose constructor hands it to `super`", () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "flows" }',
        'src/queue/base-worker.ts': [
          "import { Worker, type Job } from 'bullmq';",
          '',
          'export abstract class BaseWorker extends Worker {',
          '  constructor(queueName: string, processor: (job: Job) => Promise<void>) {',
          "    super(queueName, processor, { connection: { host: 'redis' }, concurrency: 5 });",
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/queue/email.ts': [
          "import { BaseWorker } from './base-worker';",
          '',
          'export class EmailWorker extends BaseWorker {',
          '  constructor() {',
          "    super('emails', sendEmail);",
          '  }',
          '}',
          '',
          'async function sendEmail(job: { data: unknown }) {',
          `  ${post('emails')}`,
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([{ file: 'src/queue/email.ts', line: 9, name: 'sendEmail', broker: 'bullmq' }]);
  });

  it('lists an inline processor given to an exported factory that hands it on through a local helper, with the queue it names', () => {
    const root = writeRepo({
      'package.json': '{ "name": "jobs" }',
      'src/queue/factory.ts': [
        "import { Worker } from 'bullmq';",
        '',
        'function build(name: string, fn: unknown) {',
        '  return new Worker(name, fn);',
        '}',
        '',
        'export function createWorker(queue: string, processor: unknown) {',
        '  return build(queue, processor);',
        '}',
        '',
      ].join('\n'),
      'src/workers/billing.ts': [
        "import { createWorker } from '../queue/factory';",
        '',
        "createWorker('billing', async (job: { data: unknown }) => {",
        `  ${post('invoices')}`,
        '});',
        '',
      ].join('\n'),
    });
    const run = runCli([root, '--format', 'json'], { cwd: root });
    expect(run.stderr).toBe('');
    const rows = (
      JSON.parse(run.stdout) as { handlers: { file: string; line: number; broker: string; queue?: string }[] }
    ).handlers;
    expect(rows.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'src/workers/billing.ts', line: 3, broker: 'bullmq', queue: 'billing' },
    ]);
  });

  it('lists nothing for a function handed to a method that never reaches a broker', () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "cache" }',
        'src/cache.ts': [
          'export class Cache {',
          '  wrap(key: string, load: () => Promise<unknown>) {',
          '    return this.store(key, load);',
          '  }',
          '  private store(key: string, load: () => Promise<unknown>) {',
          '    return load();',
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/orders.ts': [
          "import { Cache } from './cache';",
          '',
          'export class Orders {',
          '  constructor(private readonly cache: Cache) {}',
          '  get(id: string) {',
          "    return this.cache.wrap(id, async () => fetch('https://api.example.com/orders/' + id, { signal: AbortSignal.timeout(5000) }));",
          '  }',
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([]);
  });
});

describe('where a handler is registered', () => {
  it('names the file and line of the call that registers a processor of another module, directly or through a factory', () => {
    const root = writeRepo({
      'package.json': '{ "name": "registered" }',
      'src/processors/charge.ts': [
        'export async function chargeProcessor(job: { data: unknown }) {',
        `  ${post('charge')}`,
        '}',
        '',
      ].join('\n'),
      'src/processors/refund.ts': [
        'export async function refundProcessor(job: { data: unknown }) {',
        `  ${post('refund')}`,
        '}',
        '',
      ].join('\n'),
      'src/workers/factory.ts': [
        "import { Worker } from 'bullmq';",
        '',
        'export function startWorker(queue: string, processor: (job: { data: unknown }) => Promise<void>) {',
        '  return new Worker(queue, processor);',
        '}',
        '',
      ].join('\n'),
      'src/main.ts': [
        "import { Worker } from 'bullmq';",
        "import { chargeProcessor } from './processors/charge';",
        "import { refundProcessor } from './processors/refund';",
        "import { startWorker } from './workers/factory';",
        '',
        "new Worker('charges', chargeProcessor);",
        "startWorker('refunds', refundProcessor);",
        '',
      ].join('\n'),
    });
    const run = runCli([root, '--format', 'json'], { cwd: root });
    const handlers = (
      JSON.parse(run.stdout) as { handlers: { file: string; queue?: string; registeredAt?: unknown }[] }
    ).handlers.map(({ file, queue, registeredAt }) => ({ file, queue, registeredAt }));
    expect(handlers).toEqual([
      { file: 'src/processors/charge.ts', queue: 'charges', registeredAt: { file: 'src/main.ts', line: 6 } },
      { file: 'src/processors/refund.ts', queue: 'refunds', registeredAt: { file: 'src/main.ts', line: 7 } },
    ]);
    expect(runCli([root, '--explain', 'refundProcessor'], { cwd: root }).stdout.split('\n')[1]).toBe(
      '  registered at src/main.ts:7',
    );
  });
});
