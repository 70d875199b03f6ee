import { describe, expect, it } from 'vitest';

import { handlersOfRepo, inventoryOf, writeRepo } from './helpers.js';

const post = (what: string): string =>
  `  await fetch('https://api.example.com/${what}', { method: 'POST', body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });`;

describe('functions a processor runs through a property of a declared type', () => {
  it('lists job definitions (`satisfies JobDefinition`) that a BullMQ processor runs by the job name, from a record field', () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "jobs" }',
        'src/jobs/types.ts': [
          'export type JobDefinition<T = unknown> = {',
          '  id: string;',
          '  handler: (options: { payload: T }) => Promise<void>;',
          '};',
          '',
        ].join('\n'),
        'src/jobs/definitions/send-receipt.ts': [
          "import type { JobDefinition } from '../types';",
          '',
          'export const SEND_RECEIPT_JOB = {',
          "  id: 'send.receipt',",
          '  handler: async ({ payload }) => {',
          post('receipts'),
          '  },',
          '} as const satisfies JobDefinition<{ orderId: string }>;',
          '',
        ].join('\n'),
        'src/jobs/definitions/close-account.ts': [
          "import type { JobDefinition } from '../types';",
          '',
          'export const closeAccount: JobDefinition<{ id: string }> = {',
          "  id: 'close.account',",
          '  handler: closeIt,',
          '};',
          '',
          'async function closeIt({ payload }: { payload: { id: string } }) {',
          post('close'),
          '}',
          '',
        ].join('\n'),
        'src/jobs/provider.ts': [
          "import { Worker } from 'bullmq';",
          "import type { JobDefinition } from './types';",
          '',
          'export class Provider {',
          '  private definitions: Record<string, JobDefinition> = {};',
          '',
          '  define(definition: JobDefinition) {',
          '    this.definitions[definition.id] = definition;',
          '  }',
          '',
          '  start() {',
          "    return new Worker('jobs', async (job) => this.processJob(job));",
          '  }',
          '',
          '  private async processJob(job: { name: string; data: unknown }) {',
          '    const definition = this.definitions[job.name];',
          '    await definition.handler({ payload: job.data });',
          '  }',
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([
      { file: 'src/jobs/definitions/close-account.ts', line: 8, name: 'closeAccount.handler', broker: 'bullmq' },
      { file: 'src/jobs/definitions/send-receipt.ts', line: 5, name: 'SEND_RECEIPT_JOB.handler', broker: 'bullmq' },
      { file: 'src/jobs/provider.ts', line: 12, broker: 'bullmq' },
      // The method the processor hands its job to: the dispatcher every delivery runs.
      { file: 'src/jobs/provider.ts', line: 15, broker: 'bullmq' },
    ]);
  });

  it('lists no definition a processor calls through a fixed key: the one element it names is its own work', () => {
    const files = (key: string) => ({
      'package.json': '{ "name": "jobs" }',
      'src/jobs/types.ts':
        'export type JobDefinition = { id: string; handler: (options: { payload: unknown }) => Promise<void> };\n',
      'src/jobs/receipt.ts': [
        "import type { JobDefinition } from './types';",
        'export const receipt: JobDefinition = {',
        "  id: 'send.receipt',",
        '  handler: async ({ payload }) => {',
        post('receipts'),
        '  },',
        '};',
        '',
      ].join('\n'),
      'src/jobs/provider.ts': [
        "import { Worker } from 'bullmq';",
        "import type { JobDefinition } from './types';",
        'export class Provider {',
        '  private definitions: Record<string, JobDefinition> = {};',
        '  start() {',
        `    return new Worker('jobs', async (job) => this.definitions[${key}].handler({ payload: job.data }));`,
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(inventoryOf(files('job.name')).map(({ file }) => file)).toEqual([
      'src/jobs/provider.ts',
      'src/jobs/receipt.ts',
    ]);
    expect(inventoryOf(files("'send.receipt'")).map(({ file }) => file)).toEqual(['src/jobs/provider.ts']);
  });

  it('lists the `run` of each `job({ name, run })`, found through the parameter type of the imported factory and the array the processor searches', () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "jobs" }',
        'app/jobs/job.ts': [
          'type JobConfig<Payload> = {',
          '  name: string;',
          '  run: (payload: Payload) => Promise<void>;',
          '};',
          '',
          'export type Job<Payload> = { config: JobConfig<Payload> };',
          '',
          'export function job<Payload>(config: JobConfig<Payload>): Job<Payload> {',
          '  return { config };',
          '}',
          '',
        ].join('\n'),
        'app/jobs/worker.ts': [
          "import { Worker } from 'bullmq';",
          "import type { Job } from './job';",
          '',
          'export function createJobWorker(queue: string, jobs: Array<Job<any>>) {',
          '  return new Worker(queue, async ({ name, data }) => {',
          '    const found = jobs.find((job) => job.config.name === name);',
          "    if (!found) throw new Error('unknown job');",
          '    await found.config.run(data);',
          '  });',
          '}',
          '',
        ].join('\n'),
        'app/emails/send-email.job.ts': [
          "import { job } from '../jobs/job';",
          '',
          'export const sendEmail = job<{ to: string }>({',
          "  name: 'send-email',",
          '  run: async (payload) => {',
          post('emails'),
          '  },',
          '});',
          '',
        ].join('\n'),
        // Same property name, another type: not run by the processor.
        'app/reports/report.ts': [
          'type ReportConfig = { name: string; run: () => Promise<void> };',
          '',
          'export function report(config: ReportConfig) {',
          '  return config;',
          '}',
          '',
          'export const weekly = report({',
          "  name: 'weekly',",
          '  run: async () => {',
          "    await fetch('https://api.example.com/reports', { method: 'POST', signal: AbortSignal.timeout(5000) });",
          '  },',
          '});',
          '',
        ].join('\n'),
        // A test's fake job is not one the service runs.
        'test/fake.test.ts': [
          "import { job } from '../app/jobs/job';",
          '',
          "export const fake = job({ name: 'fake', run: async () => {} });",
          '',
        ].join('\n'),
      }),
    ).toEqual([
      { file: 'app/emails/send-email.job.ts', line: 5, name: 'sendEmail.run', broker: 'bullmq' },
      { file: 'app/jobs/worker.ts', line: 5, broker: 'bullmq' },
    ]);
  });

  it('lists nothing for a slot only a route calls through', () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "hooks" }',
        'src/types.ts': 'export interface Plugin {\n  name: string;\n  setup(): Promise<void>;\n}\n',
        'src/plugins/audit.ts': [
          "import type { Plugin } from '../types';",
          '',
          'export const audit = {',
          "  name: 'audit',",
          '  setup: async () => {',
          "    await fetch('https://api.example.com/audit', { method: 'POST', signal: AbortSignal.timeout(5000) });",
          '  },',
          '} satisfies Plugin;',
          '',
        ].join('\n'),
        'src/boot.ts': [
          "import type { Plugin } from './types';",
          '',
          'export async function boot(plugins: Plugin[]) {',
          '  for (const plugin of plugins) await plugin.setup();',
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([]);
  });

  it('composes what a dependency handed to a processor does into its row, without listing the dependency as a handler', () => {
    const root = writeRepo({
      'package.json': '{ "name": "deps" }',
      'src/deps.ts': [
        'export interface Deps {',
        '  notify: (id: string) => Promise<void>;',
        '}',
        '',
        'export const deps: Deps = {',
        '  notify: async (id) => {',
        "    await fetch('https://api.example.com/notify', { method: 'POST', body: id, signal: AbortSignal.timeout(5000) });",
        '  },',
        '};',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import type { Deps } from './deps';",
        '',
        'export function start(services: Deps) {',
        "  return new Worker('notify', async (job) => {",
        '    await services.notify(job.data.id);',
        '  });',
        '}',
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    expect(rows.map(({ file, line, effects }) => ({ file, line, effects }))).toEqual([
      { file: 'src/worker.ts', line: 5, effects: ['http-write'] },
    ]);
  });

  it('takes a job whose only effects run inside durable steps for protected, following the step into another module', () => {
    const root = writeRepo({
      'package.json': '{ "name": "steps" }',
      'src/mailer.ts': [
        "import nodemailer from 'nodemailer';",
        "const transport = nodemailer.createTransport({ host: 'smtp' });",
        'export async function sendWelcome(to: string) {',
        "  await transport.sendMail({ to, subject: 'Welcome' });",
        '}',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { sendWelcome } from './mailer';",
        '',
        'type RunIO = { runTask<T>(key: string, task: () => Promise<T>): Promise<T> };',
        'declare const io: RunIO;',
        '',
        "export const welcome = new Worker('welcome', async (job) => {",
        "  await io.runTask('send-welcome', async () => sendWelcome(job.data.email));",
        '});',
        "export const again = new Worker('again', async (job) => {",
        '  await sendWelcome(job.data.email);',
        '});',
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    expect(rows.map(({ line, effects, protections, verdict }) => ({ line, effects, protections, verdict }))).toEqual([
      { line: 7, effects: [], protections: ['durable-step'], verdict: 'protected' },
      { line: 10, effects: ['mail'], protections: [], verdict: 'unprotected' },
    ]);
    expect(rows[0]?.reason).toBe(
      'its effects (mail) run inside durable steps (`io.runTask`), whose results are recorded and not made again on a redelivery',
    );
  });

  it("does not follow a durable step into the engine's own bookkeeping, though the project implements the step's type", () => {
    const root = writeRepo({
      'package.json': '{ "name": "steps" }',
      'src/io.ts': [
        "import { PrismaClient } from '@prisma/client';",
        'const prisma = new PrismaClient();',
        'export type JobRunIO = { runTask<T>(key: string, task: () => Promise<T>): Promise<T> };',
        '// The engine: a step is recorded under its key, and a recorded one is not run again.',
        'export function createJobRunIO(jobId: string): JobRunIO {',
        '  return {',
        '    runTask: async <T>(key: string, task: () => Promise<T>) => {',
        '      const id = `task-${key}--${jobId}`;',
        '      const found = await prisma.backgroundJobTask.findFirst({ where: { id } });',
        '      if (found) return found.result as T;',
        '      const result = await task();',
        '      await prisma.backgroundJobTask.create({ data: { id, result: result as object } });',
        '      return result;',
        '    },',
        '  };',
        '}',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import nodemailer from 'nodemailer';",
        "import type { JobRunIO } from './io';",
        "const transport = nodemailer.createTransport({ host: 'smtp' });",
        '',
        'async function run({ email, io }: { email: string; io: JobRunIO }) {',
        "  await io.runTask('send-welcome', async () => transport.sendMail({ to: email, subject: 'Welcome' }));",
        '}',
        'declare const io: JobRunIO;',
        "export const welcome = new Worker('welcome', async (job) => run({ email: job.data.email, io }));",
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    expect(rows.map(({ line, effects, protections, verdict }) => ({ line, effects, protections, verdict }))).toEqual([
      { line: 10, effects: [], protections: ['durable-step'], verdict: 'protected' },
    ]);
  });
});

describe('functions kept in a container another module exports, each registered by a loop over it', () => {
  it("lists each worker of an exported `Worker[]` that a loop subscribes, as the container's module declares it", () => {
    const worker = (subscription: string, what: string): string =>
      [
        "import type { Worker } from './worker';",
        '',
        'const worker: Worker = {',
        `  subscription: '${subscription}',`,
        '  handler: async (message) => {',
        '    const payload = JSON.parse(message.data.toString());',
        post(what),
        '  },',
        '};',
        'export default worker;',
        '',
      ].join('\n');
    const files = {
      'package.json': '{ "name": "workers", "dependencies": { "@google-cloud/pubsub": "4.0.0" } }',
      'src/workers/worker.ts': [
        'export interface Message { data: Buffer }',
        'export interface Worker {',
        '  subscription: string;',
        '  handler: (message: Message) => Promise<void>;',
        '}',
        '',
      ].join('\n'),
      'src/workers/banner-added.ts': worker('api.banner-added', 'banners'),
      'src/workers/user-deleted.ts': worker('api.user-deleted', 'users'),
      'src/workers/index.ts': [
        "import bannerAdded from './banner-added';",
        "import userDeleted from './user-deleted';",
        "import type { Worker } from './worker';",
        '',
        'export const workers: Worker[] = [bannerAdded, userDeleted];',
        '',
      ].join('\n'),
      'src/background.ts': [
        "import { PubSub } from '@google-cloud/pubsub';",
        "import { workers } from './workers';",
        '',
        'const pubsub = new PubSub();',
        'workers.forEach((worker) => {',
        "  pubsub.subscription(worker.subscription).on('message', async (message) => {",
        '    await worker.handler({ data: message.data });',
        '    message.ack();',
        '  });',
        '});',
        '',
      ].join('\n'),
    };
    const rows = handlersOfRepo(writeRepo(files));
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/background.ts', line: 6, broker: 'pubsub' },
      { file: 'src/workers/banner-added.ts', line: 5, broker: 'pubsub' },
      { file: 'src/workers/user-deleted.ts', line: 5, broker: 'pubsub' },
    ]);
    // The loop's handler runs the workers' requests: its row composes them.
    expect(rows[0]?.effects).toEqual(['http-write']);
  });

  it("reaches a worker file the prefilter sets aside, when the loop hands the worker's function to the project's registrar", () => {
    const rows = handlersOfRepo(
      writeRepo({
        'package.json': '{ "name": "workers", "dependencies": { "@google-cloud/pubsub": "4.0.0" } }',
        'src/workers/worker.ts': [
          'export interface Message { data: Buffer }',
          'export interface Worker { subscription: string; handler: (message: Message, con: unknown) => Promise<void> }',
          '',
        ].join('\n'),
        // Nothing here names a broker, a request or a write: only the container's type leads to it.
        'src/workers/milestone.ts': [
          "import { detect } from '../detect';",
          "import type { Worker } from './worker';",
          'const worker: Worker = {',
          "  subscription: 'api.milestone',",
          '  handler: async (_, con) => {',
          '    await detect(con);',
          '  },',
          '};',
          'export default worker;',
          '',
        ].join('\n'),
        'src/detect.ts': 'export async function detect(con: unknown) { return con; }\n',
        'src/workers/index.ts': [
          "import milestone from './milestone';",
          "import type { Worker } from './worker';",
          'export const workers: Worker[] = [milestone];',
          '',
        ].join('\n'),
        'src/common/pubsub.ts': [
          "import { PubSub } from '@google-cloud/pubsub';",
          'export function workerSubscribe(pubsub: PubSub, name: string, handler: (message: { data: Buffer }) => Promise<void>) {',
          "  pubsub.subscription(name).on('message', async (message) => {",
          '    await handler(message);',
          '    message.ack();',
          '  });',
          '}',
          '',
        ].join('\n'),
        'src/background.ts': [
          "import { PubSub } from '@google-cloud/pubsub';",
          "import { workerSubscribe } from './common/pubsub';",
          "import { workers } from './workers';",
          'const pubsub = new PubSub();',
          'workers.forEach((worker) => workerSubscribe(pubsub, worker.subscription, (message) => worker.handler(message, pubsub)));',
          '',
        ].join('\n'),
      }),
    );
    expect(rows.map(({ file, line }) => ({ file, line }))).toContainEqual({
      file: 'src/workers/milestone.ts',
      line: 5,
    });
  });

  it('lists the workers a named function maps into registered ones, through the slot its parameter calls', () => {
    const rows = handlersOfRepo(
      writeRepo({
        'package.json': '{ "name": "workers", "dependencies": { "@google-cloud/pubsub": "4.0.0" } }',
        'src/workers/worker.ts': [
          'export interface Message { data: Buffer }',
          'export interface Worker { subscription: string; handler: (message: Message) => Promise<void> }',
          'export interface NotificationWorker { subscription: string; handler: (data: unknown) => Promise<string[] | undefined> }',
          '',
        ].join('\n'),
        'src/workers/streak.ts': [
          "import type { NotificationWorker } from './worker';",
          'export const streak: NotificationWorker = {',
          "  subscription: 'api.streak',",
          '  handler: async (data) => {',
          "    await fetch('https://api.example.com/streaks', { method: 'POST', body: JSON.stringify(data), signal: AbortSignal.timeout(5000) });",
          "    return ['streak'];",
          '  },',
          '};',
          '',
        ].join('\n'),
        'src/workers/notifications.ts': [
          "import type { NotificationWorker, Worker } from './worker';",
          "import { streak } from './streak';",
          'function toWorker(worker: NotificationWorker): Worker {',
          '  return {',
          '    ...worker,',
          '    handler: async (message) => {',
          '      const ids = await worker.handler(JSON.parse(message.data.toString()));',
          '      if (ids) await store(ids);',
          '    },',
          '  };',
          '}',
          'async function store(ids: string[]) {}',
          'const notificationWorkers: NotificationWorker[] = [streak];',
          'export const workers: Worker[] = notificationWorkers.map(toWorker);',
          '',
        ].join('\n'),
        'src/background.ts': [
          "import { PubSub } from '@google-cloud/pubsub';",
          "import { workers } from './workers/notifications';",
          'const pubsub = new PubSub();',
          'for (const worker of workers) {',
          "  pubsub.subscription(worker.subscription).on('message', async (message) => {",
          '    await worker.handler({ data: message.data });',
          '    message.ack();',
          '  });',
          '}',
          '',
        ].join('\n'),
      }),
    );
    expect(rows.map(({ file, line }) => ({ file, line }))).toEqual([
      { file: 'src/background.ts', line: 5 },
      { file: 'src/workers/notifications.ts', line: 6 },
      { file: 'src/workers/streak.ts', line: 4 },
    ]);
  });

  it("lists the workloads a manager keeps in a map and starts one by one, through a private method's parameter, not their optional hooks", () => {
    const rows = handlersOfRepo(
      writeRepo({
        'package.json': '{ "name": "backend", "dependencies": { "bullmq": "5.0.0" } }',
        'src/types.ts': [
          'export interface Workload {',
          '  name: string;',
          '  process(ctx: { data: { id: string } }): Promise<void>;',
          '  onStarted?(ctx: { data: { id: string } }): Promise<void>;',
          '}',
          '',
        ].join('\n'),
        'src/indexWorkload.ts': [
          "import type { Workload } from './types';",
          'export const createIndexWorkload = (db: { repo: { update(a: unknown): Promise<void> } }): Workload => ({',
          "  name: 'index',",
          '  process: async ({ data }) => {',
          '    await db.repo.update({ where: { id: data.id } });',
          '  },',
          '  onStarted: async ({ data }) => {',
          '    await db.repo.update({ where: { id: data.id }, data: { started: true } });',
          '  },',
          '});',
          '',
        ].join('\n'),
        'src/jobManager.ts': [
          "import { Worker } from 'bullmq';",
          "import type { Workload } from './types';",
          'export class JobManager {',
          '  private readonly workloads = new Map<string, Workload>();',
          '  register(workload: Workload) { this.workloads.set(workload.name, workload); }',
          '  async start() {',
          '    for (const workload of this.workloads.values()) await this.startWorkload(workload);',
          '  }',
          '  private async startWorkload(workload: Workload) {',
          '    new Worker(workload.name, async (job) => {',
          '      const run = async () => {',
          '        await workload.onStarted?.({ data: job.data });',
          '        return workload.process({ data: job.data });',
          '      };',
          '      return run();',
          '    });',
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/index.ts': [
          "import { JobManager } from './jobManager';",
          "import { createIndexWorkload } from './indexWorkload';",
          'const manager = new JobManager();',
          'manager.register(createIndexWorkload(db));',
          'await manager.start();',
          '',
        ].join('\n'),
      }),
    );
    expect(rows.map(({ file, line }) => ({ file, line }))).toEqual([
      { file: 'src/indexWorkload.ts', line: 4 },
      { file: 'src/jobManager.ts', line: 10 },
    ]);
  });

  it('takes a worker declared with a type alias of the type the container holds, through a conditional type', () => {
    const rows = handlersOfRepo(
      writeRepo({
        'package.json': '{ "name": "workers", "dependencies": { "@google-cloud/pubsub": "4.0.0" } }',
        'src/workers/worker.ts': [
          'export interface Message<T> { data: T }',
          'export interface BaseTypedWorker<T> {',
          '  subscription: string;',
          '  handler: (message: Message<T>) => Promise<void>;',
          '  parseMessage?: (raw: Buffer) => T;',
          '}',
          'type Conditional<T> = T extends Uint8Array',
          "  ? Omit<BaseTypedWorker<T>, 'parseMessage'> & { parseMessage: (raw: Buffer) => T }",
          '  : BaseTypedWorker<T>;',
          'export type TypedWorker<T> = Conditional<T>;',
          '',
        ].join('\n'),
        'src/workers/user-updated.ts': [
          "import type { TypedWorker } from './worker';",
          '',
          'const worker: TypedWorker<{ id: string }> = {',
          "  subscription: 'api.user-updated',",
          '  handler: async (message) => {',
          '    const payload = message.data;',
          post('users'),
          '  },',
          '};',
          'export default worker;',
          '',
        ].join('\n'),
        'src/workers/index.ts': [
          "import userUpdated from './user-updated';",
          "import type { BaseTypedWorker } from './worker';",
          '',
          'export const typedWorkers: BaseTypedWorker<any>[] = [userUpdated];',
          '',
        ].join('\n'),
        'src/background.ts': [
          "import { PubSub } from '@google-cloud/pubsub';",
          "import { typedWorkers } from './workers';",
          '',
          'const pubsub = new PubSub();',
          'for (const worker of typedWorkers) {',
          "  pubsub.subscription(worker.subscription).on('message', async (message) => {",
          '    await worker.handler({ data: JSON.parse(message.data.toString()) });',
          '    message.ack();',
          '  });',
          '}',
          '',
        ].join('\n'),
      }),
    );
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/background.ts', line: 6, broker: 'pubsub' },
      { file: 'src/workers/user-updated.ts', line: 5, broker: 'pubsub' },
    ]);
  });
});
