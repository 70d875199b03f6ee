import { describe, expect, it } from 'vitest';

import { handlersOfRepo, inventoryOf, runCli, writeRepo } from './helpers.js';

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
    const rows = handlersOfRepo(root);
    expect(rows.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'src/workers/billing.ts', line: 3, broker: 'bullmq', queue: 'billing' },
    ]);
  });

  it("lists the processors a worker factory wraps in its own wrappers before BullMQ's Worker runs them", () => {
    const root = writeRepo({
      'package.json': '{ "name": "jobs", "dependencies": { "bullmq": "5.0.0" } }',
      'src/jobs/send-mail.ts': [
        'export default async function sendMail(job: { data: { to: string } }) {',
        "  await fetch('https://mail.example.com/send', { method: 'POST', body: job.data.to, signal: AbortSignal.timeout(5000) });",
        '}',
        '',
      ].join('\n'),
      'src/jobs/queue-worker.ts': [
        "import { Worker, type Job } from 'bullmq';",
        "import sendMail from './send-mail';",
        '',
        'const withConfig = (processor: (job: Job) => Promise<unknown>) => async (job: Job) => {',
        '  await loadSettings();',
        '  return processor(job);',
        '};',
        'const withLogging = (queueName: string, processor: (job: Job) => Promise<unknown>) => async (job: Job) => {',
        '  console.info(queueName, job.id);',
        '  return await processor(job);',
        '};',
        'function createWorker(queueName: string, processor: any, options: any): Worker {',
        '  return new Worker(queueName, withLogging(queueName, withConfig(processor)), options);',
        '}',
        "createWorker('send-mail', sendMail, {});",
        'async function loadSettings() {}',
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    expect(rows.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'src/jobs/queue-worker.ts', line: 8, broker: 'bullmq', queue: undefined },
      { file: 'src/jobs/send-mail.ts', line: 1, broker: 'bullmq', queue: 'send-mail' },
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

describe('registrars that store what they are handed, reached through the type their callers hold', () => {
  /** A queue port: the domain declares the consumer; an adapter keeps each queue's task table and runs it in a BullMQ processor. */
  const PORT = [
    'export type TaskHandlers = Record<string, (payload: unknown) => Promise<void>>;',
    'export interface QueueConsumer {',
    '  start(): Promise<void>;',
    '  subscribe(queue: string, handlers: TaskHandlers): void;',
    '}',
    '',
  ].join('\n');
  const ADAPTER = [
    "import { Worker } from 'bullmq';",
    "import type { QueueConsumer, TaskHandlers } from '../domain/queue';",
    '',
    'const run = <T>(make: () => Generator<unknown, T>): Promise<T> => Promise.resolve(make().next().value as T);',
    '',
    'export const createConsumer = (connection: object): Promise<QueueConsumer> =>',
    '  run(function* () {',
    '    const subscriptions = new Map<string, TaskHandlers>();',
    '    const start = async () => {',
    '      for (const [queue, handlers] of subscriptions.entries()) {',
    '        new Worker(queue, async (job) => {',
    '          const handler = handlers[job.name];',
    "          if (!handler) throw new Error('no task ' + job.name);",
    '          await handler(job.data);',
    '        }, { connection });',
    '      }',
    '    };',
    '    const subscribe = (queue: string, handlers: TaskHandlers) => {',
    '      subscriptions.set(queue, handlers);',
    '    };',
    '    return { start, subscribe };',
    '  });',
    '',
  ].join('\n');

  it("lists each task of the table a worker hands the port's subscribe, and what a task picks by the message's type", () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "workers" }',
        'src/domain/queue.ts': PORT,
        'src/adapter/consumer.ts': ADAPTER,
        'src/workers/billing.ts': [
          "import type { QueueConsumer } from '../domain/queue';",
          '',
          'type BillingDeps = { consumer: QueueConsumer; region: string };',
          "const REFUND = 'refund';",
          'export const createBillingWorker = ({ consumer }: BillingDeps) => {',
          "  consumer.subscribe('billing', {",
          '    record: async (payload) => {',
          "      await fetch('https://billing.example.com/usage', { method: 'POST', body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });",
          '    },',
          '    [REFUND]: async (payload) => {',
          "      await fetch('https://billing.example.com/refund', { method: 'POST', body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });",
          '    },',
          '  });',
          '};',
          '',
        ].join('\n'),
        'src/workers/events.ts': [
          "import { type QueueConsumer } from '../domain/queue';",
          '',
          'const handlers: Record<string, (event: { name: string }) => Promise<void>> = {',
          '  UserCreated: async (event) => {',
          "    await fetch('https://mail.example.com/welcome', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) });",
          '  },',
          '  UserDeleted: async (event) => {',
          "    await fetch('https://mail.example.com/goodbye', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) });",
          '  },',
          '};',
          '',
          'export function createEventsWorker(consumer: QueueConsumer) {',
          "  consumer.subscribe('events', {",
          '    dispatch: async (payload) => {',
          '      const event = payload as { name: string };',
          '      const found = handlers[event.name];',
          '      const handler = found as (event: { name: string }) => Promise<void>;',
          '      await handler(event);',
          '    },',
          '  });',
          '}',
          '',
        ].join('\n'),
        'src/workers/report.ts': [
          '// A value of another type with a subscribe of its own registers nothing.',
          "import type { EventEmitterLike } from './emitter';",
          '',
          'export function watch(bus: EventEmitterLike) {',
          "  bus.subscribe('report', { done: async (payload: unknown) => { await fetch('https://x.example.com', { method: 'POST', signal: AbortSignal.timeout(5000) }); } });",
          '}',
          '',
        ].join('\n'),
        'src/workers/emitter.ts':
          'export interface EventEmitterLike {\n  subscribe(name: string, handlers: Record<string, (p: unknown) => Promise<void>>): void;\n}\n',
      }),
    ).toEqual([
      { file: 'src/adapter/consumer.ts', line: 11, broker: 'bullmq' },
      { file: 'src/workers/billing.ts', line: 7, name: 'record', broker: 'bullmq' },
      { file: 'src/workers/billing.ts', line: 10, name: 'refund', broker: 'bullmq' },
      { file: 'src/workers/events.ts', line: 4, name: 'UserCreated', broker: 'bullmq' },
      { file: 'src/workers/events.ts', line: 7, name: 'UserDeleted', broker: 'bullmq' },
      { file: 'src/workers/events.ts', line: 14, name: 'dispatch', broker: 'bullmq' },
    ]);
  });

  it('lists the handler a class registry keeps in its map and its processor takes out by the job name', () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "jobs" }',
        'src/jobs.ts': [
          "import { Worker } from 'bullmq';",
          '',
          'export class JobRegistry {',
          '  private handlers = new Map<string, (data: unknown) => Promise<void>>();',
          '  register(name: string, handler: (data: unknown) => Promise<void>) {',
          '    this.handlers.set(name, handler);',
          '  }',
          '  start() {',
          "    new Worker('jobs', async (job) => {",
          '      const handler = this.handlers.get(job.name);',
          '      if (handler) await handler(job.data);',
          '    });',
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/main.ts': [
          "import { JobRegistry } from './jobs';",
          '',
          'const registry = new JobRegistry();',
          "registry.register('invoice', async (data) => {",
          "  await fetch('https://billing.example.com/invoice', { method: 'POST', body: JSON.stringify(data), signal: AbortSignal.timeout(5000) });",
          '});',
          'registry.start();',
          '',
        ].join('\n'),
      }),
    ).toEqual([
      { file: 'src/jobs.ts', line: 9, broker: 'bullmq' },
      { file: 'src/main.ts', line: 4, name: 'register(…)', broker: 'bullmq' },
    ]);
  });
});

describe("what a webhook's switch hands to an injected service", () => {
  it("lists the injected service's method each case of the event's type calls with the event", () => {
    const root = writeRepo({
      'package.json': '{ "name": "billing" }',
      'src/billing.service.ts': [
        "import Stripe from 'stripe';",
        "const stripe = new Stripe('sk');",
        'export class BillingService {',
        '  async created(event: { data: { object: { id: string } } }) {',
        "    await stripe.customers.update(event.data.object.id, { metadata: { synced: 'yes' } });",
        '  }',
        '  async deleted(event: { data: { object: { id: string } } }) {',
        '    await stripe.customers.del(event.data.object.id);',
        '  }',
        '  async audit(note: string) {}',
        '}',
        '',
      ].join('\n'),
      'src/stripe.controller.ts': [
        "import { Controller, Post, Req } from '@nestjs/common';",
        "import { BillingService } from './billing.service';",
        '',
        "@Controller('webhooks')",
        'export class StripeController {',
        '  constructor(private readonly billing: BillingService) {}',
        "  @Post('stripe')",
        '  async receive(@Req() req: { rawBody: string; headers: Record<string, string> }) {',
        "    const event = this.billing.stripe.webhooks.constructEvent(req.rawBody, req.headers['stripe-signature'], 'whsec');",
        '    switch (event.type) {',
        "      case 'customer.subscription.created':",
        '        return this.billing.created(event);',
        "      case 'customer.subscription.deleted':",
        '        return this.billing.deleted(event);',
        "      case 'ping':",
        "        return this.billing.audit('ping');",
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    // The `ping` case hands the service nothing of the event, but it runs once per `ping` delivery all the same.
    expect(rows.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'src/billing.service.ts', line: 4, broker: 'webhook', queue: 'customer.subscription.created' },
      { file: 'src/billing.service.ts', line: 7, broker: 'webhook', queue: 'customer.subscription.deleted' },
      { file: 'src/billing.service.ts', line: 10, broker: 'webhook', queue: 'ping' },
      { file: 'src/stripe.controller.ts', line: 8, broker: 'webhook', queue: 'webhooks/stripe' },
    ]);
  });

  it("lists an injected service's methods a controller's single ifs pick by the event type, called without await", () => {
    const root = writeRepo({
      'package.json': '{ "name": "donations" }',
      'src/paypal.service.ts': [
        "import { Pool } from 'pg';",
        'const pool = new Pool();',
        'export class PaypalService {',
        '  async createOrder(body: { id: string }) {',
        "    await pool.query('INSERT INTO orders (id) VALUES ($1)', [body.id]);",
        '  }',
        '  async completePayment(body: { id: string }) {',
        "    await pool.query('UPDATE orders SET paid = true WHERE id = $1', [body.id]);",
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/paypal.controller.ts': [
        "import { Controller, Post, Req } from '@nestjs/common';",
        "import { PaypalService } from './paypal.service';",
        '',
        "@Controller('paypal')",
        'export class PaypalController {',
        '  constructor(private readonly paypalService: PaypalService) {}',
        "  @Post('webhook')",
        '  async capture(@Req() req: { body: string }) {',
        "    Logger.log('paypal capture received');",
        '    const parsedBody = JSON.parse(req.body);',
        "    if (parsedBody.event_type === 'CHECKOUT.ORDER.APPROVED') this.paypalService.createOrder(parsedBody);",
        "    if (parsedBody.event_type === 'PAYMENT.CAPTURE.COMPLETED') this.paypalService.completePayment(parsedBody);",
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(handlersOfRepo(root).map(({ file, line, queue }) => ({ file, line, queue }))).toEqual([
      { file: 'src/paypal.controller.ts', line: 8, queue: 'paypal/webhook' },
      { file: 'src/paypal.service.ts', line: 4, queue: 'CHECKOUT.ORDER.APPROVED' },
      { file: 'src/paypal.service.ts', line: 7, queue: 'PAYMENT.CAPTURE.COMPLETED' },
    ]);
  });

  it('lists what a service the handler hands the event to picks, in a method it calls, and the services it picks from', () => {
    const root = writeRepo({
      'package.json': '{ "name": "billing" }',
      'src/subscriptions.ts': [
        "import { Pool } from 'pg';",
        'const pool = new Pool();',
        'export class Subscriptions {',
        '  async create(plan: string) {',
        "    await pool.query('INSERT INTO subscriptions (plan) VALUES ($1)', [plan]);",
        '  }',
        '  async cancel(slug: string) {',
        "    await pool.query('UPDATE subscriptions SET cancelled = true WHERE slug = $1', [slug]);",
        '  }',
        '  async report() {}',
        '}',
        '',
      ].join('\n'),
      'src/lemon.service.ts': [
        "import { Subscriptions } from './subscriptions';",
        'export class LemonWebhooks {',
        '  constructor(private readonly subscriptions: Subscriptions) {}',
        '  async handle(body: { meta: { event_name: string }; data: { plan: string } }, signature: string) {',
        "    if (!signature) throw new Error('unsigned');",
        '    void this.process(body);',
        '  }',
        '  private async process(body: { meta: { event_name: string }; data: { plan: string } }) {',
        '    const name = body.meta.event_name;',
        "    if (name === 'subscription_created') await this.subscriptions.create(body.data.plan);",
        "    else if (name === 'subscription_cancelled') await this.subscriptions.cancel('main');",
        '  }',
        '  async summary(kind: string) {',
        "    if (kind === 'a') await this.subscriptions.report();",
        "    else if (kind === 'b') await this.subscriptions.cancel('b');",
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/lemon.controller.ts': [
        "import { Controller, Post, Req } from '@nestjs/common';",
        "import { LemonWebhooks } from './lemon.service';",
        '',
        "@Controller('webhooks')",
        'export class LemonController {',
        '  constructor(private readonly lemon: LemonWebhooks) {}',
        "  @Post('lemon')",
        '  async receive(@Req() req: { body: any; headers: Record<string, string> }) {',
        "    await this.lemon.handle(req.body, req.headers['x-signature']);",
        '    return { ok: true };',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    // `summary` picks too, but no handler reaches it: it is listed nowhere.
    expect(rows.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'src/lemon.controller.ts', line: 8, broker: 'webhook', queue: 'webhooks/lemon' },
      { file: 'src/lemon.service.ts', line: 4, broker: 'webhook', queue: 'webhooks/lemon' },
      { file: 'src/subscriptions.ts', line: 4, broker: 'webhook', queue: 'subscription_created' },
      { file: 'src/subscriptions.ts', line: 7, broker: 'webhook', queue: 'subscription_cancelled' },
    ]);
    const created = rows.find(({ queue }) => queue === 'subscription_created');
    expect(created?.effects).toEqual(['sql-write']);
  });
});

describe('what a route calls through the services its declared options hold', () => {
  it('lists nothing a helper picks by a choice its caller names rather than by a field of the message', () => {
    const root = writeRepo({
      'package.json': '{ "name": "bot", "dependencies": { "bullmq": "5.0.0" } }',
      'src/notify.ts': [
        'export async function sendToProviders(teamId: string, type: string, payload: unknown) {',
        "  if (type === 'match') {",
        '    await sendMatch(teamId, payload);',
        '    return;',
        '  }',
        '  await queueTeamWide(teamId, payload);',
        '}',
        'async function sendMatch(teamId: string, payload: unknown) {',
        "  await fetch('https://chat.example.com/match', { method: 'POST', body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });",
        '}',
        'async function queueTeamWide(teamId: string, payload: unknown) {',
        "  await fetch('https://chat.example.com/team', { method: 'POST', body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });",
        '}',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { sendToProviders } from './notify';",
        "new Worker('upcoming', async (job) => {",
        "  await sendToProviders(job.data.teamId, 'invoice_upcoming', job.data.invoices);",
        '});',
        '',
      ].join('\n'),
    });
    expect(handlersOfRepo(root).map(({ file, line }) => ({ file, line }))).toEqual([
      { file: 'src/worker.ts', line: 3 },
    ]);
  });

  it("lists the methods a Fastify plugin's webhook route picks on the service its typed options hold", () => {
    const root = writeRepo({
      'package.json': '{ "name": "billing", "dependencies": { "fastify": "5.0.0" } }',
      'src/billing.ts': [
        "import Stripe from 'stripe';",
        'export class BillingService {',
        "  stripe = new Stripe('sk');",
        '  async deleteCustomer(id: string) {',
        '    await this.stripe.customers.del(id);',
        '  }',
        '  async createSubscription(id: string, customer: string) {',
        '    await this.stripe.customers.update(customer, { metadata: { subscription: id } });',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/stripe.ts': [
        "import { FastifyPluginCallback } from 'fastify';",
        "import { BillingService } from './billing';",
        'export type Options = { billingService: BillingService; secret: string };',
        'const plugin: FastifyPluginCallback<Options> = function StripeWebhook(fastify, opts, done) {',
        "  fastify.post('/events', async (req, res) => {",
        "    const event = opts.billingService.stripe.webhooks.constructEvent(req.body as string, req.headers['stripe-signature'] as string, opts.secret);",
        '    switch (event.type) {',
        "      case 'customer.deleted': {",
        '        await opts.billingService.deleteCustomer(event.data.object.id);',
        '        break;',
        '      }',
        "      case 'customer.subscription.created': {",
        '        const subscription = event.data.object as { id: string; customer: string };',
        '        await opts.billingService.createSubscription(subscription.id, subscription.customer);',
        '        break;',
        '      }',
        '    }',
        '    return res.code(200).send();',
        '  });',
        '  done();',
        '};',
        'export default plugin;',
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root);
    expect(rows.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'src/billing.ts', line: 4, broker: 'webhook', queue: 'customer.deleted' },
      { file: 'src/billing.ts', line: 7, broker: 'webhook', queue: 'customer.subscription.created' },
      { file: 'src/stripe.ts', line: 5, broker: 'webhook', queue: '/events' },
    ]);
    // The route's own row composes what the service's methods do.
    expect(rows.find(({ file }) => file === 'src/stripe.ts')?.effects).toEqual(['stripe']);
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

describe('a job factory whose consumer runs a function of the object it is handed', () => {
  /** The project's job layer: the consumer runs `this.run`, a method of the job object, which runs `consumer.perform`. */
  const CREATE_JOB = [
    "import amqp from 'amqplib';",
    '',
    'export const createJob = (queue: string, consumer: {',
    '  perform: (id: string) => Promise<void>;',
    '  complete?: (id: string) => Promise<void>;',
    '}) => {',
    '  return {',
    '    queue,',
    '    async run(id: string) {',
    '      await consumer.perform(id);',
    '      await consumer.complete?.(id);',
    '    },',
    '    async process() {',
    "      const connection = await amqp.connect('amqp://localhost');",
    '      const channel = await connection.createChannel();',
    '      await channel.consume(queue, async (msg) => {',
    '        if (!msg) return;',
    '        await this.run(msg.content.toString());',
    '        channel.ack(msg);',
    '      });',
    '    },',
    '  };',
    '};',
    '',
  ].join('\n');

  it('lists the function under that name, handed inline, by name, or through a factory that wraps its own parameter', () => {
    const root = writeRepo({
      'package.json': '{ "name": "jobs", "dependencies": { "amqplib": "0.10.0" } }',
      'src/job-core/create-job.ts': CREATE_JOB,
      'src/job-core/create-model-job.ts': [
        "import { createJob } from './create-job';",
        '',
        'declare const Model: { findById(id: string): Promise<{ status: string }> };',
        '',
        'export const createModelJob = (queue: string, perform: (model: unknown) => Promise<void>) => {',
        '  return createJob(queue, {',
        '    perform: async (id) => {',
        '      const model = await Model.findById(id);',
        "      if (model.status === 'complete') return;",
        '      await perform(model);',
        '    },',
        "    complete: async (id) => console.info('done', id),",
        '  });',
        '};',
        '',
      ].join('\n'),
      'src/build/job.ts': [
        "import { createModelJob } from '../job-core/create-model-job';",
        '',
        "export const job = createModelJob('build', async (build) => {",
        `  ${post('builds').replace('job.data', 'build')}`,
        '});',
        '',
      ].join('\n'),
      'src/sync/job.ts': [
        "import { createJob } from '../job-core/create-job';",
        '',
        'async function perform(id: string) {',
        `  ${post('sync').replace('job.data', 'id')}`,
        '}',
        '',
        "export const syncJob = createJob('sync', { perform });",
        '',
      ].join('\n'),
    });
    const rows = handlersOfRepo(root).map(({ file, line, broker }) => ({ file, line, broker }));
    expect(rows).toEqual([
      { file: 'src/build/job.ts', line: 3, broker: 'amqplib' },
      { file: 'src/job-core/create-job.ts', line: 16, broker: 'amqplib' },
      // The wrapper's `perform` is listed; `complete`, a hook run only when given, is not.
      { file: 'src/job-core/create-model-job.ts', line: 7, broker: 'amqplib' },
      { file: 'src/sync/job.ts', line: 3, broker: 'amqplib' },
    ]);
  });

  it('lists no function of the object the consumer only logs through with a constant message', () => {
    const root = writeRepo({
      'package.json': '{ "name": "jobs", "dependencies": { "amqplib": "0.10.0" } }',
      'src/consumer.ts': [
        "import amqp from 'amqplib';",
        '',
        'export async function consume(queue: string, deps: { log: (message: string) => void }) {',
        "  const channel = await (await amqp.connect('amqp://localhost')).createChannel();",
        '  await channel.consume(queue, async (msg) => {',
        "    deps.log('received');",
        '    if (msg) channel.ack(msg);',
        '  });',
        '}',
        '',
      ].join('\n'),
      'src/main.ts': [
        "import { consume } from './consumer';",
        '',
        "void consume('audit', { log: (message) => console.info(message) });",
        '',
      ].join('\n'),
    });
    expect(handlersOfRepo(root).map(({ file, line }) => `${file}:${String(line)}`)).toEqual(['src/consumer.ts:5']);
  });
});

describe("a worker factory that hands its parameter to a library's registration as it is", () => {
  it('lists the function another module hands it, in the module and the class that define it', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "consumers", "type": "module" }',
      'src/consumer.ts': [
        "import { Kafka } from 'kafkajs';",
        "const kafka = new Kafka({ brokers: ['kafka:9092'] });",
        'export async function startConsumer(topic: string, onMessage: (payload: unknown) => Promise<void>) {',
        "  const consumer = kafka.consumer({ groupId: 'orders' });",
        '  await consumer.subscribe({ topic });',
        '  await consumer.run({ eachMessage: onMessage });',
        '}',
        '',
      ].join('\n'),
      'src/orders.ts': [
        'export class OrdersHandler {',
        '  async handleMessage(payload: { message: { value: Buffer } }) {',
        `    ${post('orders')}`.replace('job.data', 'payload.message.value'),
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/main.ts': [
        "import { startConsumer } from './consumer';",
        "import { OrdersHandler } from './orders';",
        'const handler = new OrdersHandler();',
        "await startConsumer('orders', handler.handleMessage);",
        '',
      ].join('\n'),
    });
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/orders.ts', line: 2, broker: 'kafkajs' },
    ]);
  });

  it('reads a CommonJS module that exports the factory and one that exports the class', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "consumers" }',
      'src/createConsumers.js': [
        "const { Consumer } = require('@mojaloop/central-services-stream').Util;",
        'const createConsumers = async (onMessageFn, topics) => {',
        '  for (const topic of topics) await Consumer.createHandler(topic, {}, onMessageFn);',
        '};',
        'module.exports = createConsumers;',
        '',
      ].join('\n'),
      'src/QuotingHandler.js': [
        'class QuotingHandler {',
        '  async handleMessages(error, messages) {',
        "    await fetch('https://api.example.com/quotes', { method: 'POST', body: messages[0].value, signal: AbortSignal.timeout(5000) });",
        '  }',
        '}',
        'module.exports = QuotingHandler;',
        '',
      ].join('\n'),
      'src/init.js': [
        "const QuotingHandler = require('./QuotingHandler');",
        "const createConsumers = require('./createConsumers');",
        'module.exports = async () => {',
        '  const handler = new QuotingHandler();',
        "  await createConsumers(handler.handleMessages, ['quotes']);",
        '};',
        '',
      ].join('\n'),
    });
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/QuotingHandler.js', line: 2, broker: 'kafka' },
    ]);
  });

  it('follows a manager made once as the default export, the class binding reassigned (`export default Manager = new Manager()`)', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "jobs", "type": "module", "dependencies": { "bullmq": "5.0.0" } }',
      'src/queues.js': [
        "import { Worker } from 'bullmq';",
        'export class QueueManager {',
        '  createWorker(name, processor) {',
        '    return new Worker(name, processor, { connection: {} });',
        '  }',
        '}',
        'export default QueueManager = new QueueManager();',
        '',
      ].join('\n'),
      'src/stripe.processor.js': `export async function stripeProcessor(job) {\n  ${post('events')}\n}\n`,
      'src/stripe.worker.js': [
        "import QueueManager from './queues.js';",
        "import { stripeProcessor } from './stripe.processor.js';",
        "QueueManager.createWorker('stripe-events', stripeProcessor);",
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([{ file: 'src/stripe.processor.js', line: 1, name: 'stripeProcessor', broker: 'bullmq' }]);
  });

  it('resolves a package of the tree that services import by name without declaring workspaces', () => {
    const rows = inventoryOf({
      'common/package.json': '{ "name": "@shop/common", "main": "./build/index.js" }',
      'common/src/index.ts': "export * from './consume';\n",
      'common/src/consume.ts': [
        "import { Worker } from 'bullmq';",
        'export function consume(queue: string, processor: (job: unknown) => Promise<void>) {',
        '  return new Worker(queue, processor);',
        '}',
        '',
      ].join('\n'),
      'orders/package.json': '{ "name": "orders", "dependencies": { "@shop/common": "^1.0.3", "bullmq": "5.0.0" } }',
      'orders/src/index.ts': [
        "import { consume } from '@shop/common';",
        "consume('orders', async (job: { data: unknown }) => {",
        "  await fetch('https://api.example.com/orders', { method: 'POST', body: JSON.stringify(job.data), signal: AbortSignal.timeout(5000) });",
        '});',
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([{ file: 'orders/src/index.ts', line: 2, name: 'consume(…)', broker: 'bullmq' }]);
  });
});

describe('folder tables: the modules of a folder a module loads at startup, picked per delivery', () => {
  const job = (id: string): string =>
    [
      "import { createJob } from '../create-job';",
      `export const ${id} = createJob({`,
      `  id: '${id}',`,
      '  handle: async (payload: { id: string }) => {',
      `    await fetch('https://api.example.com/${id}', { method: 'POST', body: payload.id, signal: AbortSignal.timeout(5000) });`,
      '  },',
      '});',
      '',
    ].join('\n');

  it("lists each job module's `handle` that a worker picks by the job's name from a folder read with readdir", () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "jobs", "type": "module", "dependencies": { "bullmq": "5.0.0" } }',
      'src/queue/create-job.ts':
        'export function createJob<T>(params: { id: string; handle: (payload: T) => Promise<void> }) {\n  return { id: params.id, handle: params.handle };\n}\n',
      'src/queue/get-jobs.ts': [
        "import fs from 'node:fs/promises';",
        "import path from 'node:path';",
        'export async function getJobs() {',
        '  const jobs: Record<string, { handle: (payload: unknown) => Promise<void> }> = {};',
        "  for (const file of await fs.readdir(path.join(__dirname, 'jobs'))) {",
        "    const module = await import(path.join(__dirname, 'jobs', file));",
        '    const job = Object.values(module)[0] as { id: string; handle: (payload: unknown) => Promise<void> };',
        '    jobs[job.id] = job;',
        '  }',
        '  return jobs;',
        '}',
        '',
      ].join('\n'),
      'src/queue/jobs/send-report.ts': job('sendReport'),
      'src/queue/jobs/sync-users.ts': job('syncUsers'),
      'src/queue/work.ts': [
        "import { Worker } from 'bullmq';",
        "import { getJobs } from './get-jobs';",
        'const jobs = await getJobs();',
        "new Worker('default', async (job) => {",
        '  const definedJob = jobs[job.name];',
        '  if (!definedJob) return;',
        '  await definedJob.handle(job.data);',
        '});',
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([
      { file: 'src/queue/jobs/send-report.ts', line: 4, name: 'handle', broker: 'bullmq' },
      { file: 'src/queue/jobs/sync-users.ts', line: 4, name: 'handle', broker: 'bullmq' },
      { file: 'src/queue/work.ts', line: 4, broker: 'bullmq' },
    ]);
  });

  it('lists the handlers of a CommonJS folder a module requires file by file, found by a predicate on the event', () => {
    const handler = (type: string): string =>
      `module.exports = {\n  eventTypes: ['${type}'],\n  handle: async (event) => {\n    await fetch('https://api.example.com/${type}', { method: 'POST', body: event.id, signal: AbortSignal.timeout(5000) });\n  },\n};\n`;
    const rows = inventoryOf({
      'package.json': '{ "name": "hooks", "dependencies": { "bullmq": "5.0.0" } }',
      'lib/handlers/index.js': [
        "const fs = require('fs');",
        'const handlers = [];',
        'fs.readdirSync(__dirname).forEach((file) => {',
        "  if (file !== 'index.js') handlers.push(require('./' + file));",
        '});',
        'module.exports = handlers;',
        '',
      ].join('\n'),
      'lib/handlers/charge-refunded.js': handler('charge.refunded'),
      'lib/handlers/invoice-paid.js': handler('invoice.paid'),
      'lib/worker.js': [
        "const { Worker } = require('bullmq');",
        "const handlers = require('./handlers/index');",
        "new Worker('stripe', async (job) => {",
        '  const { handle } = handlers.find((entry) => entry.eventTypes.includes(job.data.type));',
        '  await handle(job.data);',
        '});',
        '',
      ].join('\n'),
    });
    expect(rows.map(({ file, line }) => `${file}:${line}`)).toEqual([
      'lib/handlers/charge-refunded.js:3',
      'lib/handlers/invoice-paid.js:3',
      'lib/worker.js:3',
    ]);
  });
});

describe('picks of methods of objects a handler makes in place', () => {
  /** A worker whose switch calls `charge` on a Billing it gets as `made` and `send` on a Mailer it makes. */
  const service = (billing: string[], made: string) => ({
    'package.json': '{ "name": "jobs", "dependencies": { "bullmq": "5.0.0" } }',
    'src/billing.ts': [
      'export class Billing {',
      ...billing,
      '  async charge(id: string) {',
      "    await fetch('https://api.example.com/charge', { method: 'POST', body: id, signal: AbortSignal.timeout(5000) });",
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/mailer.ts': [
      'export class Mailer {',
      '  async send(id: string) {',
      "    await fetch('https://mail.example.com/send', { method: 'POST', body: id, signal: AbortSignal.timeout(5000) });",
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/worker.ts': [
      "import { Worker } from 'bullmq';",
      "import { Billing } from './billing';",
      "import { Mailer } from './mailer';",
      "new Worker('billing', async (job) => {",
      `  const billing = ${made};`,
      '  const mailer = new Mailer();',
      '  switch (job.name) {',
      "    case 'charge':",
      '      await billing.charge(job.data.id);',
      '      break;',
      "    case 'receipt':",
      '      await mailer.send(job.data.id);',
      '      break;',
      '  }',
      '});',
      '',
    ].join('\n'),
  });

  it('lists the methods the switch calls on services it makes per job, of classes of the project', () => {
    expect(inventoryOf(service([], 'new Billing()'))).toEqual([
      { file: 'src/billing.ts', line: 2, name: 'Billing.charge', broker: 'bullmq' },
      { file: 'src/mailer.ts', line: 2, name: 'Mailer.send', broker: 'bullmq' },
      { file: 'src/worker.ts', line: 4, broker: 'bullmq' },
    ]);
  });

  it("lists them on instances a static factory of the class returns (a singleton's getInstance)", () => {
    const singleton = [
      '  private static instance: Billing | undefined;',
      '  static getInstance(): Billing {',
      '    return this.instance ?? (this.instance = new Billing());',
      '  }',
    ];
    expect(inventoryOf(service(singleton, 'Billing.getInstance()'))).toEqual([
      { file: 'src/billing.ts', line: 6, name: 'Billing.charge', broker: 'bullmq' },
      { file: 'src/mailer.ts', line: 2, name: 'Mailer.send', broker: 'bullmq' },
      { file: 'src/worker.ts', line: 4, broker: 'bullmq' },
    ]);
  });
});

describe('a service registry of the project: providers register themselves, a processor looks one up per job', () => {
  const REGISTRY = [
    "import { Injectable } from '@nestjs/common';",
    '',
    'export interface Syncable {',
    '  kickstartSync(projectId: string): Promise<void>;',
    '}',
    '',
    '@Injectable()',
    'export class SyncRegistry {',
    '  private services = new Map<string, Syncable>();',
    '  registerService(vertical: string, object: string, service: Syncable) {',
    '    this.services.set(`${vertical}.${object}`, service);',
    '  }',
    '  getService(vertical: string, object: string): Syncable {',
    '    const service = this.services.get(`${vertical}.${object}`);',
    "    if (!service) throw new Error('no service');",
    '    return service;',
    '  }',
    '}',
    '',
  ].join('\n');
  const service = (vertical: string, object: string): string =>
    [
      "import { Injectable } from '@nestjs/common';",
      "import { SyncRegistry } from '../registry';",
      '',
      '@Injectable()',
      'export class SyncService {',
      '  constructor(private registry: SyncRegistry) {',
      `    this.registry.registerService('${vertical}', '${object}', this);`,
      '  }',
      '  async kickstartSync(projectId: string) {',
      `    await fetch('https://api.example.com/${object}', { method: 'POST', body: projectId, signal: AbortSignal.timeout(5000) });`,
      '  }',
      '}',
      '',
    ].join('\n');
  const processor = (lookup: string): string =>
    [
      "import { Processor, Process } from '@nestjs/bull';",
      "import type { Job } from 'bull';",
      "import { SyncRegistry } from './registry';",
      '',
      "@Processor('sync')",
      'export class SyncProcessor {',
      '  constructor(private registry: SyncRegistry) {}',
      '  @Process()',
      '  async handle(job: Job) {',
      '    const { projectId, vertical, object } = job.data;',
      lookup,
      '  }',
      '}',
      '',
    ].join('\n');

  it('lists the looked-up method of every class that registers itself, under the keys it registers with', () => {
    const rows = handlersOfRepo(
      writeRepo({
        'package.json': '{ "name": "sync", "dependencies": { "@nestjs/bull": "10.0.0" } }',
        'src/registry.ts': REGISTRY,
        'src/crm/sync.service.ts': service('crm', 'contact'),
        'src/ticketing/sync.service.ts': service('ticketing', 'ticket'),
        'src/sync.processor.ts': processor(
          [
            '    const service = this.registry.getService(vertical, object);',
            "    if (!service) return { status: 'skipped' };",
            '    await service.kickstartSync(projectId);',
          ].join('\n'),
        ),
      }),
    );
    expect(rows.map(({ file, line, queue }) => ({ file, line, queue }))).toEqual([
      { file: 'src/crm/sync.service.ts', line: 9, queue: 'crm.contact' },
      { file: 'src/sync.processor.ts', line: 9, queue: 'sync' },
      { file: 'src/ticketing/sync.service.ts', line: 9, queue: 'ticketing.ticket' },
    ]);
  });

  it('lists nothing more for a class that is handed to a method of another class, or a lookup of nothing', () => {
    const rows = handlersOfRepo(
      writeRepo({
        'package.json': '{ "name": "sync", "dependencies": { "@nestjs/bull": "10.0.0" } }',
        'src/registry.ts': REGISTRY,
        'src/audit.ts': 'export class Audit {\n  record(owner: unknown) {}\n}\n',
        'src/crm/sync.service.ts': service('crm', 'contact').replace(
          'this.registry.registerService',
          'this.audit.record(this); this.registry.registerService',
        ),
        'src/sync.processor.ts': processor('    await this.registry.getService.call(null);'),
      }),
    );
    expect(rows.map(({ file, line }) => `${file}:${String(line)}`)).toEqual(['src/sync.processor.ts:9']);
  });
});
