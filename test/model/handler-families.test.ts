import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { findConsumerHandlers } from '../../src/model/handler/consumer-handler.js';
import { messageIdentity } from '../../src/model/handler/identity.js';
import { lintSnippet, type SnippetOptions } from '../rule-tester.js';
import { consumerHandlersIn } from './consumer-handlers.js';

interface Found {
  broker: string;
  queue: string | undefined;
  line: number;
}

const handlersOf = consumerHandlersIn;

function handlersIn(code: string, options: SnippetOptions = {}): Found[] {
  return handlersOf(code, options).map((handler) => ({
    broker: handler.broker,
    queue: handler.queue,
    line: handler.fn.loc.start.line,
  }));
}

/** The identity each handler of `code` offers, as `line: expressions`. */
function identitiesIn(code: string): string[] {
  const lines: string[] = [];
  lintSnippet(code, (context) => ({
    Program(program: TSESTree.Program) {
      for (const handler of findConsumerHandlers(program, context)) {
        const body = handler.fn.body;
        const inside = body?.type === AST_NODE_TYPES.BlockStatement ? (body.body.at(-1) ?? body) : handler.fn;
        lines.push(`${handler.fn.loc.start.line}: ${messageIdentity(handler, inside, context)?.join(' ') ?? '-'}`);
      }
    },
  }));
  return lines;
}

describe('NestJS consumers', () => {
  it('finds WorkerHost.process of a @nestjs/bullmq @Processor, and @Process methods of @nestjs/bull', () => {
    expect(
      handlersIn(`
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
@Processor('invoices')
export class InvoiceProcessor extends WorkerHost {
  constructor(private readonly invoices: InvoiceService) { super(); }
  async process(job: Job<{ id: string }>) {
    await this.invoices.render(job.data.id);
  }
  private helper(job: Job) {}
}
`),
    ).toEqual([{ broker: 'bullmq', queue: 'invoices', line: 7 }]);
    expect(
      handlersIn(`
import { Process, Processor, OnQueueFailed } from '@nestjs/bull';
import { Job } from 'bull';
@Processor({ name: 'mail' })
export class MailConsumer {
  @Process('welcome')
  async sendWelcome(job: Job) { await this.mailer.send(job.data); }
  @OnQueueFailed()
  onFailed(job: Job, error: Error) {}
}
`),
    ).toEqual([{ broker: 'bull', queue: 'mail', line: 7 }]);
  });

  it('finds microservice patterns, SQS and RabbitMQ subscribers, Stripe webhook handlers and Temporal activities', () => {
    expect(
      handlersIn(`
import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { SqsMessageHandler } from '@ssut/nestjs-sqs';
import { RabbitSubscribe } from '@golevelup/nestjs-rabbitmq';
import { StripeWebhookHandler } from '@golevelup/nestjs-stripe';
import { ActivityMethod, Activities } from 'nestjs-temporal-core';
@Controller()
export class Consumers {
  @EventPattern('order.created')
  async onOrder(@Payload() data: OrderCreated) {}
  @MessagePattern({ cmd: 'sum' })
  sum(data: number[]) { return data.length; }
  @SqsMessageHandler('exports', false)
  async onExport(message: Message) {}
  @RabbitSubscribe({ exchange: 'billing', routingKey: 'invoice.paid', queue: 'billing-paid' })
  async onPaid(msg: unknown) {}
  @StripeWebhookHandler('invoice.paid')
  async onStripeInvoice(event: Stripe.Event) {}
  @ActivityMethod()
  async sendDigest(userId: string) {}
  listAll() {}
}
`),
    ).toEqual([
      { broker: 'nestjs-microservices', queue: 'order.created', line: 11 },
      { broker: 'nestjs-microservices', queue: 'sum', line: 13 },
      { broker: 'sqs-consumer', queue: 'exports', line: 15 },
      { broker: 'nestjs-rabbitmq', queue: 'billing-paid', line: 17 },
      { broker: 'webhook', queue: 'invoice.paid', line: 19 },
      { broker: 'temporal', queue: undefined, line: 21 },
    ]);
  });

  it('takes a controller route for a webhook only when its path or name says so or it verifies a signature', () => {
    expect(
      handlersIn(`
import { Controller, Post, Req, Headers, Body } from '@nestjs/common';
@Controller('billing')
export class BillingController {
  @Post('webhook')
  async receive(@Req() req: RawBodyRequest<Request>) {}
  @Post('stripe')
  async stripe(@Req() req, @Headers('stripe-signature') signature: string) {
    const event = this.stripe.webhooks.constructEvent(req.rawBody, signature, this.secret);
  }
  @Post('checkout')
  async checkout(@Body() body: CheckoutDto) {}
  @Post('updateStatus')
  async updateStatus(@Headers('stigg-webhooks-secret') secret: string, @Body() body: StatusDto) {
    if (secret !== this.secret) throw new Error('Invalid secret');
  }
  @Post('refresh')
  async refresh(@Headers('x-api-secret') secret: string) {}
  @Post('update-status')
  async webhook(@Body() body: StatusDto) {}
  @Post('update-plan')
  async updatePlan(@Body() body: PlanDto) {}
}
@Controller('webhooks')
export class WebhookSettingsController {
  @Post(':id')
  async update(@Body() body: SettingsDto) {}
}
`),
    ).toEqual([
      { broker: 'webhook', queue: 'billing/webhook', line: 6 },
      { broker: 'webhook', queue: 'billing/stripe', line: 8 },
      { broker: 'webhook', queue: 'billing/updateStatus', line: 14 },
      { broker: 'webhook', queue: 'billing/update-status', line: 20 },
    ]);
  });

  it("takes a route that speaks a push-delivery protocol for a webhook: Cloud Tasks headers, SNS subscription messages, Slack's Events API challenge, Sentry's hook headers", () => {
    expect(
      handlersIn(`
import { Controller, Post, Req, Body } from '@nestjs/common';
@Controller('tasks')
export class TasksController {
  @Post('handler')
  async handler(@Req() req: Request) {
    const attempt = req.header('x-cloudtasks-taskretrycount');
    await this.service.run(req.body, attempt);
  }
  @Post('export')
  async exportAll(@Req() req: Request) {
    await this.service.export(req.body);
  }
}
@Controller('ses')
export class SesController {
  @Post('events')
  async events(@Body() data: any) {
    if (data.Type === 'SubscriptionConfirmation') return fetch(data.SubscribeURL);
    await this.service.record(JSON.parse(data.Message));
  }
}
@Controller('sentry')
export class SentryController {
  @Post('events')
  async events(@Req() req: Request) {
    await this.service.record(req.headers['sentry-hook-resource'], req.body);
  }
}
@Controller('slack')
export class SlackController {
  @Post('events')
  async events(@Body() body: any) {
    if (body.type === 'url_verification') return { challenge: body.challenge };
    await this.service.handle(body.event);
  }
}
`),
    ).toEqual([
      { broker: 'webhook', queue: 'tasks/handler', line: 6 },
      { broker: 'webhook', queue: 'ses/events', line: 18 },
      { broker: 'webhook', queue: 'sentry/events', line: 26 },
      { broker: 'webhook', queue: 'slack/events', line: 33 },
    ]);
  });
});

describe('class-based processors and factories', () => {
  it('resolves this.method, this.method.bind(this) and arrow properties to the class method', () => {
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
import { Consumer } from 'sqs-consumer';
export class ReportWorker {
  private worker: Worker;
  start() {
    this.worker = new Worker('reports', this.process.bind(this), { connection });
    new Worker('thumbnails', this.resize, { connection });
    Consumer.create({ queueUrl: 'https://sqs/q', handleMessage: this.handle.bind(this) }).start();
  }
  async process(job) { await this.build(job.data); }
  resize = async (job) => {};
  async handle(message) {}
}
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'reports', line: 11 },
      { broker: 'bullmq', queue: 'thumbnails', line: 12 },
      { broker: 'sqs-consumer', queue: 'https://sqs/q', line: 13 },
    ]);
  });

  it("takes a subclass's process(job: Job) for a processor a base class or registry calls", () => {
    expect(
      handlersIn(`
import type { Job } from 'bullmq';
import { BaseProcessor } from './base';
export class SyncAccounts extends BaseProcessor<SyncPayload> {
  async process(job: Job<SyncPayload>) { await this.sync(job.data.teamId); }
  protected async sync(teamId: string) {}
}
export class NotAProcessor {
  async process(job: Job) {}
}
`),
    ).toEqual([{ broker: 'bullmq', queue: undefined, line: 5 }]);
  });

  it("takes the processor argument of each call of the file's own worker factory", () => {
    expect(
      handlersIn(`
import { Worker, type Processor } from 'bullmq';
function createWorker(queue: string, processor: Processor) {
  return new Worker(queue, processor, { connection });
}
createWorker('emails', async (job) => sendEmail(job.data));
const charge = async (job) => {};
createWorker('payments', charge);
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'emails', line: 6 },
      { broker: 'bullmq', queue: 'payments', line: 7 },
    ]);
  });

  it('sees the processor through a wrapper the factory puts around it, for a function or a static method', () => {
    expect(
      handlersIn(`
import { Worker, type Processor } from 'bullmq';
class WorkerManager {
  static register(queue: string, processor: Processor) {
    new Worker(queue, WorkerManager.withMetrics(processor, queue), { connection });
  }
  static withMetrics(processor: Processor, queue: string): Processor { return (job) => processor(job); }
}
function createWorker(queue: string, processor: Processor) {
  return new Worker(queue, traced(processor), { connection });
}
createWorker('emails', async (job) => sendEmail(job.data));
const charge = async (job) => {};
WorkerManager.register('payments', charge);
`),
    ).toEqual([
      // What the Worker runs is the function the static wrapper of this file returns.
      { broker: 'bullmq', queue: undefined, line: 7 },
      { broker: 'bullmq', queue: 'emails', line: 12 },
      { broker: 'bullmq', queue: 'payments', line: 13 },
    ]);
  });

  it('reads Bull chains from a queue accessor', () => {
    expect(
      handlersIn(`
import Queue from 'bull';
import { exportQueue } from './queues';
exportQueue().process('csv', 2, async (job) => {});
`),
    ).toEqual([{ broker: 'bull', queue: undefined, line: 4 }]);
  });
});

describe('job runners', () => {
  it("finds the command Mojaloop's Kafka wrapper runs for a topic, handed in place or through the registration's object", () => {
    expect(
      handlersIn(`
const Consumer = require('@mojaloop/central-services-stream').Util.Consumer;
const transfer = async (error, messages) => {
  await settle(messages);
};
const registerTransferHandler = async () => {
  const transferHandler = { command: transfer, topicName: 'topic-admin-transfer', config: {} };
  await Consumer.createHandler(transferHandler.topicName, transferHandler.config, transferHandler.command);
  await Consumer.createHandler('topic-get', {}, async (error, messages) => {});
};
module.exports = { registerTransferHandler };
`),
    ).toEqual([
      { broker: 'kafka', queue: undefined, line: 3 },
      { broker: 'kafka', queue: 'topic-get', line: 9 },
    ]);
    // The same call on a receiver of another library is not this one.
    expect(handlersIn(`const stream = require('./stream');\nstream.createHandler('t', {}, async () => {});\n`)).toEqual(
      [],
    );
  });

  it('finds trigger.dev tasks, Inngest functions, pg-boss, agenda and bee-queue workers', () => {
    expect(
      handlersIn(`
import { task, schemaTask, schedules } from '@trigger.dev/sdk';
import { inngest } from './client';
import PgBoss from 'pg-boss';
import Agenda from 'agenda';
import BeeQueue from 'bee-queue';
export const sendReceipt = task({ id: 'send-receipt', run: async (payload: { orderId: string }) => {} });
export const resize = schemaTask({ id: 'resize', schema, run: async (payload, { ctx }) => {} });
export const nightly = schedules.task({ id: 'nightly', cron: '0 2 * * *', run: async () => {} });
export const onSignup = inngest.createFunction({ id: 'welcome' }, { event: 'user/signed.up' }, async ({ event, step }) => {});
boss.work('refunds', async ([job]) => {});
agenda.define('purge', async (job) => {});
this.agenda.define('report', async (job) => {}, { lockLifetime: 60_000, concurrency: 1 });
const thumbnails = new BeeQueue('thumbnails');
thumbnails.process(4, async (job) => {});
`),
    ).toEqual([
      { broker: 'trigger.dev', queue: 'send-receipt', line: 7 },
      { broker: 'trigger.dev', queue: 'resize', line: 8 },
      { broker: 'trigger.dev', queue: 'nightly', line: 9 },
      { broker: 'inngest', queue: 'user/signed.up', line: 10 },
      { broker: 'pg-boss', queue: 'refunds', line: 11 },
      { broker: 'agenda', queue: 'purge', line: 12 },
      { broker: 'agenda', queue: 'report', line: 13 },
      { broker: 'bee-queue', queue: undefined, line: 15 },
    ]);
  });

  it("finds Vercel Queues push consumers: the module's handleCallback and a QueueClient's, not another module's of that name", () => {
    expect(
      handlersIn(`
import { handleCallback, QueueClient } from '@vercel/queue';
export const POST = handleCallback(async (message, metadata) => {
  await deliver(message, metadata.deliveryCount);
});
const queue = new QueueClient({ region: 'iad1' });
export const PUT = queue.handleNodeCallback(async (message) => {});
`),
    ).toEqual([
      { broker: 'vercel-queue', queue: undefined, line: 3 },
      { broker: 'vercel-queue', queue: undefined, line: 7 },
    ]);
    expect(
      handlersIn(`
import { handleCallback } from './oauth';
export const GET = handleCallback(async (request) => new Response('ok'));
`),
    ).toEqual([]);
  });

  it("finds NATS Streaming listeners: a subscription's 'message' listener, not another emitter's", () => {
    expect(
      handlersIn(`
import nats from 'node-nats-streaming';
const stan = nats.connect('ticketing', 'abc', { url: 'http://nats:4222' });
stan.on('connect', () => {
  const subscription = stan.subscribe('ticket:created', 'orders-service', stan.subscriptionOptions().setManualAckMode(true));
  subscription.on('message', async (msg) => {
    await saveTicket(JSON.parse(msg.getData()));
    msg.ack();
  });
});
`),
    ).toEqual([{ broker: 'nats-streaming', queue: undefined, line: 6 }]);
    // A project's Listener base: its listener hands each message to the subclass's onMessage.
    expect(
      handlersIn(`
import { Message, Stan } from 'node-nats-streaming';
export abstract class Listener<T> {
  abstract onMessage(data: T, msg: Message): void;
  constructor(protected client: Stan) {}
  listen() {
    const subscription = this.client.subscribe('ticket:created', 'orders-service');
    subscription.on('message', (msg: Message) => {
      this.onMessage(JSON.parse(msg.getData() as string), msg);
    });
  }
}
`),
    ).toEqual([{ broker: 'nats-streaming', queue: undefined, line: 8 }]);
  });

  it("finds Quirrel queues and cron jobs: the worker a framework adapter's Queue or CronJob is handed, not another module's Queue", () => {
    expect(
      handlersIn(`
import { Queue, CronJob } from 'quirrel/next';
export default Queue('api/queues/user-sync', async (job) => {
  await stripe.customers.create({ email: job.email });
});
export const nightly = CronJob('api/cron/nightly', '0 0 * * *', async () => {
  await sendReports();
});
`),
    ).toEqual([
      { broker: 'quirrel', queue: 'api/queues/user-sync', line: 3 },
      { broker: 'quirrel', queue: 'api/cron/nightly', line: 6 },
    ]);
    expect(
      handlersIn(`
import { Queue } from './local-queue';
export default Queue('emails', async (job) => send(job));
`),
    ).toEqual([]);
  });

  it("finds Upstash Workflow endpoints: the route function `serve` is handed, from any framework's adapter", () => {
    expect(
      handlersIn(`
import { serve } from '@upstash/workflow/nextjs';
export const { POST } = serve<{ userId: string }>(async (context) => {
  await context.run('welcome', async () => sendWelcome(context.requestPayload.userId));
});
`),
    ).toEqual([{ broker: 'upstash-workflow', queue: undefined, line: 3 }]);
    // Another library's \`serve\` (an HTTP server's) registers nothing.
    expect(
      handlersIn("import { serve } from '@hono/node-server';\nserve({ fetch: (req) => new Response('ok') });\n"),
    ).toEqual([]);
  });

  it("takes the callbacks Better Auth's Stripe plugin runs from the webhook it serves, not those a user's request runs", () => {
    expect(
      handlersIn(`
import { betterAuth } from 'better-auth';
import { stripe } from '@better-auth/stripe';
const subscription = {
  enabled: true,
  plans: [],
  onSubscriptionComplete: async ({ subscription }) => { await grant(subscription.referenceId); },
  authorizeReference: async ({ user, referenceId }) => user.id === referenceId,
  onSubscriptionDeleted: async ({ subscription }) => { await revoke(subscription.referenceId); },
};
export const auth = betterAuth({
  plugins: [
    stripe({
      stripeClient,
      stripeWebhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
      onCustomerCreate: async ({ stripeCustomer }) => {},
      onEvent: async (event) => { await audit(event.id); },
      subscription,
    }),
  ],
});
`),
    ).toEqual([
      { broker: 'webhook', queue: undefined, line: 7 },
      { broker: 'webhook', queue: undefined, line: 9 },
      { broker: 'webhook', queue: undefined, line: 17 },
    ]);
    // Another module's \`stripe\` (a client factory) registers nothing.
    expect(handlersIn("import { stripe } from './billing';\nstripe({ onEvent: async (event) => {} });\n")).toEqual([]);
  });

  it("takes a function declared or cast a graphile-worker Task for a task, and not another library's Task", () => {
    expect(
      handlersIn(`
import { Task } from 'graphile-worker';
const task: Task = async (payload, helpers) => { await sendEmail(payload); };
export default task;
`),
    ).toEqual([{ broker: 'graphile-worker', queue: undefined, line: 3 }]);
    expect(
      handlersIn(`
import type { Task } from 'graphile-worker';
export function defineTask(options) {
  const handler = (payload, helpers) => options.handler(payload, helpers);
  return { task: { identifier: options.id, handler: handler as Task } };
}
`),
    ).toEqual([{ broker: 'graphile-worker', queue: undefined, line: 4 }]);
    expect(
      handlersIn(`
import { Task } from './types';
const task: Task = async (payload) => { await sendEmail(payload); };
export default task;
`),
    ).toEqual([]);
  });

  it("takes a function declared with a Wasp job's type for a job, and one with a Wasp API's type for a route", () => {
    // Wasp generates one type per declared job (wasp/server/jobs) and per API (wasp/server/api).
    expect(
      handlersIn(`
import { type CalculateDailyStatsJob } from 'wasp/server/jobs';
export const calculateDailyStats: CalculateDailyStatsJob<never, void> = async (_args, context) => {
  await context.entities.DailyStats.create({ data: {} });
};
`),
    ).toEqual([{ broker: 'wasp-job', queue: undefined, line: 3 }]);
    // An API named for a webhook, or whose handler checks the sender, receives deliveries.
    expect(
      handlersIn(`
import { type PaymentsWebhook } from 'wasp/server/api';
export const stripeWebhook: PaymentsWebhook = async (request, response, context) => {
  await context.entities.User.update({ where: { id: request.body.id }, data: {} });
  response.status(204).send();
};
`),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 3 }]);
    // Another API is a route: the rules look inside it, the inventory does not list it.
    expect(
      handlersIn(`
import { type FooBar } from 'wasp/server/api';
export const fooBar: FooBar = (req, res, context) => { res.json({ msg: 'Hello' }); };
`),
    ).toEqual([{ broker: 'route', queue: undefined, line: 3 }]);
    // The same names from elsewhere are no Wasp types.
    expect(
      handlersIn(`
import { type CalculateDailyStatsJob } from './types';
export const calculateDailyStats: CalculateDailyStatsJob = async (_args, context) => {};
`),
    ).toEqual([]);
  });

  it('finds graphile-worker task lists, Temporal activities, Azure Service Bus and Cloudflare Queues consumers', () => {
    expect(
      handlersIn(`
import { run, type TaskList } from 'graphile-worker';
import { Worker } from '@temporalio/worker';
import { ServiceBusClient } from '@azure/service-bus';
const tasks: TaskList = { send_email: async (payload, helpers) => {} };
await run({ connectionString, taskList: { rebuild_index: async (payload) => {} } });
async function chargeCard(orderId: string) {}
await Worker.create({ taskQueue: 'billing', activities: { chargeCard } });
receiver.subscribe({ processMessage: async (message) => {}, processError: async (args) => {} });
export default {
  async fetch(request, env) { return new Response('ok'); },
  async queue(batch, env) { for (const message of batch.messages) message.ack(); },
};
`),
    ).toEqual([
      { broker: 'graphile-worker', queue: 'send_email', line: 5 },
      { broker: 'graphile-worker', queue: 'rebuild_index', line: 6 },
      { broker: 'temporal', queue: 'chargeCard', line: 7 },
      { broker: 'azure-service-bus', queue: undefined, line: 9 },
      { broker: 'cloudflare-queues', queue: undefined, line: 12 },
    ]);
  });

  it("finds a Cloudflare Worker's scheduled entry beside its queue consumer, not its fetch", () => {
    expect(
      handlersIn(`
export default {
  async fetch(request, env) { return new Response('ok'); },
  async scheduled(controller, env, ctx) { await env.DB.prepare('DELETE FROM sessions').run(); },
} satisfies ExportedHandler<Env>;
`),
    ).toEqual([{ broker: 'cloudflare-cron', queue: undefined, line: 4 }]);
  });

  it("finds Redis Pub/Sub listeners of ioredis and node-redis, not a socket's messages or a subscription callback", () => {
    expect(
      handlersIn(`
import { Redis } from 'ioredis';
const sub = new Redis(url);
sub.on('message', async (channel, message) => { await apply(JSON.parse(message)); });
class Broadcast {
  start(handler) {
    this.subscriber.on('pmessage', (pattern, channel, message) => handler(message));
    this.subscriber.subscribe('monitor', (err, count) => {});
  }
}
socket.on('message', (data) => {});
`),
    ).toEqual([
      { broker: 'redis-pubsub', queue: undefined, line: 4 },
      { broker: 'redis-pubsub', queue: undefined, line: 7 },
    ]);
    expect(
      handlersIn(`
import { createClient } from 'redis';
const subscriber = createClient().duplicate();
await subscriber.subscribe('orders', async (message) => { await ship(JSON.parse(message)); });
`),
    ).toEqual([{ broker: 'redis-pubsub', queue: 'orders', line: 4 }]);
    // Without a Redis client library, a receiver named a subscriber is anything's.
    expect(handlersIn(`subscriber.on('message', (channel, message) => {});`)).toEqual([]);
  });

  it('finds Postgres NOTIFY listeners on a connection that LISTENs, and pg-listen subscribers, not any emitter of notifications', () => {
    expect(
      handlersIn(`
const connection = await pgdb.dedicatedConnectionBegin();
await connection.query('LISTEN change');
connection.on('notification', async (input) => { await reindex(JSON.parse(input.payload)); });
`),
    ).toEqual([{ broker: 'pg-notify', queue: undefined, line: 4 }]);
    expect(
      handlersIn(`
import createSubscriber from 'pg-listen';
const subscriber = createSubscriber({ connectionString });
subscriber.notifications.on('orders', async (payload) => { await ship(payload); });
`),
    ).toEqual([{ broker: 'pg-notify', queue: 'orders', line: 4 }]);
    expect(handlersIn(`push.on('notification', async (input) => { await show(input); });`)).toEqual([]);
  });

  it("finds an Inngest function on a client of another module by its trigger, and not another library's createFunction", () => {
    expect(
      handlersIn(`
import { orchestrationClient } from '@clients/orchestration.client';
export const createScene = orchestrationClient.createFunction(
  { id: 'create.scene' },
  { event: 'create.scene' },
  async ({ event, step }) => { await step.run('write', () => save(event.data)); },
);
export const nightly = orchestrationClient.createFunction({ id: 'nightly' }, [{ cron: '0 1 * * *' }], async () => {});
export const parser = compiler.createFunction({ id: 'parse' }, { source: 'x' }, async () => {});
`),
    ).toEqual([
      { broker: 'inngest', queue: 'create.scene', line: 6 },
      { broker: 'inngest', queue: 'nightly', line: 8 },
    ]);
  });

  it('finds cadence-mq tasks wherever the instance comes from, and not a positional registerTask of another library', () => {
    expect(
      handlersIn(`
export function registerSendEmailTask({ taskServices }: { taskServices: TaskServices }) {
  taskServices.registerTask({
    taskName: 'send-email',
    handler: async ({ data }) => {},
  });
}
worker.registerTask(RESIZE, (payload) => resize(payload));
registry.registerTask({ handler: async () => {} });
`),
    ).toEqual([{ broker: 'cadence-mq', queue: 'send-email', line: 5 }]);
  });

  it("finds GitHub webhook handlers of Probot and Octokit by GitHub's event names, and no other emitter's", () => {
    expect(
      handlersIn(`
import { Probot } from 'probot';
export default (app: Probot) => {
  app.on('issues.opened', async (context) => {});
  app.on(['pull_request.opened', 'pull_request.reopened'], async (context) => {});
  app.on('error', async (error) => {});
};
`),
    ).toEqual([
      { broker: 'webhook', queue: 'issues.opened', line: 4 },
      { broker: 'webhook', queue: undefined, line: 5 },
    ]);
    expect(
      handlersIn(`
import { Webhooks } from '@octokit/webhooks';
const webhooks = new Webhooks({ secret });
webhooks.on('push', async ({ payload }) => {});
`),
    ).toEqual([{ broker: 'webhook', queue: 'push', line: 4 }]);
    // Without the library, \`on('push')\` is any emitter's event.
    expect(handlersIn("export default (queue) => { queue.on('push', async (item) => {}); };")).toEqual([]);
  });

  it('finds Cloud Functions for Firebase triggers of both generations, and HTTPS functions only when they check the sender', () => {
    expect(
      handlersIn(`
import * as functions from 'firebase-functions';
import { onDocumentCreated } from 'firebase-functions/v2/firestore';
import { pubsub } from 'firebase-functions/v2';
export const onContact = functions.firestore.document('contactus/{id}').onCreate(async (snap) => {});
export const onTopic = functions.region('europe-west1').pubsub.topic('billing').onPublish(async (message) => {});
export const onDoc = onDocumentCreated('orders/{id}', async (event) => {});
export const onMessage = pubsub.onMessagePublished('invoices', async (event) => {});
export const stripeWebhook = functions.https.onRequest(async (req, res) => {
  const event = stripe.webhooks.constructEvent(req.rawBody, req.headers['stripe-signature'], secret);
  res.sendStatus(200);
});
export const appInitializer = functions.https.onRequest((req, res) => { res.json({ title: 'x' }); });
export const stripeWebhook2 = functions.https.onRequest(async (req, res) => { await store(req.body); res.end(); });
`),
    ).toEqual([
      { broker: 'firebase-functions', queue: 'contactus/{id}', line: 5 },
      { broker: 'firebase-functions', queue: 'billing', line: 6 },
      { broker: 'firebase-functions', queue: 'orders/{id}', line: 7 },
      { broker: 'firebase-functions', queue: 'invoices', line: 8 },
      { broker: 'webhook', queue: undefined, line: 9 },
      { broker: 'webhook', queue: undefined, line: 14 },
    ]);
    // Another library's onCreate is not a trigger.
    expect(
      handlersIn("model.onCreate(async (row) => {});\nexport const x = hooks.document('a').onCreate(async () => {});"),
    ).toEqual([]);
  });

  it('takes a middleware registered alone on the same path before a route for its guard, and lists the route, not the middleware', () => {
    const api = (guard: string) => `
import crypto from 'crypto';
export class MessengerApi {
  async setup(router) {
    router.post('/messenger', this.${guard}.bind(this));
    router.post('/messenger', this.handleMessageRequest.bind(this));
  }
  async auth(req, res, next) {
    const expected = crypto.createHmac('sha1', this.secret).update(req.rawBody).digest('hex');
    if (req.headers['x-hub-signature'] !== 'sha1=' + expected) return res.sendStatus(403);
    next();
  }
  async log(req, res, next) {
    console.log(req.path);
    next();
  }
  async handleMessageRequest(req, res) {
    for (const entry of req.body.entry) await this.receive(entry);
    res.sendStatus(200);
  }
}
`;
    expect(handlersIn(api('auth'))).toEqual([{ broker: 'webhook', queue: '/messenger', line: 17 }]);
    expect(handlersIn(api('log'))).toEqual([{ broker: 'route', queue: '/messenger', line: 17 }]);
    // A guard whose name says it checks the signature, its code out of sight (a base class's method).
    expect(handlersIn(api('verifyRequestSignature'))).toEqual([{ broker: 'webhook', queue: '/messenger', line: 17 }]);
  });

  it('takes a Remix action that authenticates a Shopify webhook for a webhook, and not one that authenticates an admin', () => {
    const route = (check: string) => `
import { json } from '@remix-run/node';
import { authenticate } from '../shopify.server';
export const action = async ({ request }) => {
  const { shop, payload } = await authenticate.${check}(request);
  await db.order.create({ data: { shop, total: payload.total_price } });
  return new Response();
};
`;
    expect(handlersIn(route('webhook'), { filename: 'app/routes/orders_create.ts' })).toEqual([
      { broker: 'webhook', queue: undefined, line: 4 },
    ]);
    expect(handlersIn(route('admin'), { filename: 'app/routes/orders_create.ts' })).toEqual([
      { broker: 'route', queue: undefined, line: 4 },
    ]);
  });

  it('finds Zeebe job workers by their task type and handler, wherever the client comes from, and positional ones of an imported client', () => {
    expect(
      handlersIn(`
export class Strategy {
  listen() {
    this.zeebeClient.createWorker({ taskType: 'update-status', taskHandler: async (job) => this.wrap(job) });
    this.zeebeClient.createWorker({ taskHandler: async (job) => job.complete() });
  }
}
`),
    ).toEqual([{ broker: 'zeebe', queue: 'update-status', line: 4 }]);
    expect(
      handlersIn(`
import { ZBClient } from 'zeebe-node';
const zbc = new ZBClient();
zbc.createWorker('charge-card', async (job) => job.complete());
`),
    ).toEqual([{ broker: 'zeebe', queue: 'charge-card', line: 4 }]);
    expect(handlersIn("pool.createWorker('thumbnails', async (task) => task.done());")).toEqual([]);
  });

  it("finds DEFRA ffc-messaging's receiver actions, required or imported, and not another module's MessageReceiver", () => {
    expect(
      handlersIn(`
const { MessageReceiver } = require('ffc-messaging');
let paymentReceiver;
const start = async () => {
  const paymentAction = (message) => processPaymentMessage(message, paymentReceiver);
  paymentReceiver = new MessageReceiver(config.processingSubscription, paymentAction);
  await paymentReceiver.subscribe();
};
`),
    ).toEqual([{ broker: 'ffc-messaging', queue: undefined, line: 5 }]);
    expect(
      handlersIn(`
import { MessageReceiver } from 'ffc-messaging';
const receiver = new MessageReceiver(config, async (message) => { await save(message.body); await receiver.completeMessage(message); });
`),
    ).toEqual([{ broker: 'ffc-messaging', queue: undefined, line: 3 }]);
    expect(
      handlersIn(`
import { MessageReceiver } from './transport';
const receiver = new MessageReceiver(config, async (message) => save(message.body));
`),
    ).toEqual([]);
  });

  it("finds the jobs of trigger.dev's Redis worker, inline and bound, and not BullMQ's Worker options", () => {
    expect(
      handlersIn(`
import { Worker as RedisWorker } from '@trigger.dev/redis-worker';
class Engine {
  worker = new RedisWorker({
    name: 'schedules',
    catalog: { 'schedule.trigger': { schema, visibilityTimeoutMs: 60_000, retry: { maxAttempts: 3 } } },
    jobs: {
      'schedule.trigger': this.trigger.bind(this),
      scheduleEmail: async ({ payload }) => { await sendEmail(payload); },
      deliver: this.#deliver.bind(this),
    },
  });
  async trigger({ payload }) {}
  async #deliver({ payload }) {}
}
`),
    ).toEqual([
      { broker: 'trigger.dev-redis-worker', queue: 'scheduleEmail', line: 9 },
      { broker: 'trigger.dev-redis-worker', queue: 'schedule.trigger', line: 13 },
      { broker: 'trigger.dev-redis-worker', queue: 'deliver', line: 14 },
    ]);
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
const worker = new Worker({ jobs: { nightly: async () => {} } });
`),
    ).toEqual([]);
  });

  it('finds job-collection workers, on a collection and in the static form with the root first', () => {
    expect(
      handlersIn(`
import { Jobs } from './jobs.js';
import Job from 'meteor-job';
Jobs.processJobs('sendEmail', { concurrency: 3, workTimeout: 60000 }, async (job, callback) => {
  await send(job.data);
  job.done();
  callback();
});
Job.processJobs('default', 'gather', { pollInterval: 500 }, function (job, callback) {});
`),
    ).toEqual([
      { broker: 'job-collection', queue: 'sendEmail', line: 4 },
      { broker: 'job-collection', queue: 'default', line: 9 },
    ]);
  });
});

describe('Lambda handlers', () => {
  it('takes the function a batch handler hands each record to, when that is all it does with it', () => {
    const lambda = (loop: string) => `
import type { SQSEvent } from 'aws-lambda';
async function processMessage(message: { id: string }) { await save(message); }
export const handler = async (event: SQSEvent) => {
  ${loop}
};
`;
    const work = { broker: 'lambda-sqs', queue: undefined, line: 3 };
    const entry = { broker: 'lambda-sqs', queue: undefined, line: 4 };
    expect(
      handlersIn(
        lambda(
          'for (const record of event.Records) { const message = JSON.parse(record.body); await processMessage(message); }',
        ),
      ),
    ).toEqual([work, entry]);
    expect(
      handlersIn(lambda('await Promise.all(event.Records.map((record) => processMessage(JSON.parse(record.body))));')),
    ).toEqual([work, entry]);
    // A loop that does more than hand each record on, or hands it nothing of the record.
    expect(
      handlersIn(
        lambda(
          'for (const record of event.Records) { await processMessage(JSON.parse(record.body)); await audit(record); }',
        ),
      ),
    ).toEqual([entry]);
    expect(handlersIn(lambda('for (const record of event.Records) await processMessage({ id: "fixed" });'))).toEqual([
      entry,
    ]);
    expect(
      handlersIn(lambda('for (const record of event.Records) await processMessage(JSON.parse(record.body));')),
    ).toEqual([work, entry]);
    // A call made for each record and dropped is no record's work (a logger's).
    expect(handlersIn(lambda('event.Records.forEach((record) => processMessage(JSON.parse(record.body)));'))).toEqual([
      entry,
    ]);
    // The rows a query finds by the delivery's fields are no batch of deliveries.
    expect(
      handlersIn(
        lambda(
          'const { servers } = await hasura.query({ where: { node: event.Records[0].body } });\n  for (const server of servers) await processMessage(server);',
        ),
      ),
    ).toEqual([entry]);
    expect(
      handlersIn(
        lambda(
          'const { Records: records } = event;\n  for (const record of records) await processMessage(JSON.parse(record.body));',
        ),
      ),
    ).toEqual([work, entry]);
    // A map whose result is kept transforms the batch into data.
    expect(
      handlersIn(
        lambda(
          'const messages = event.Records.map((record) => processMessage(JSON.parse(record.body)));\n  await send(messages);',
        ),
      ),
    ).toEqual([entry]);
  });

  it('knows SNS, EventBridge, Kinesis and DynamoDB stream handlers by their event or handler type', () => {
    expect(
      handlersIn(`
import type { SNSEvent, EventBridgeEvent, KinesisStreamHandler, Handler, DynamoDBStreamEvent, APIGatewayProxyEvent } from 'aws-lambda';
export const onTopic = async (event: SNSEvent) => {};
export async function onRule(event: EventBridgeEvent<'Order Placed', Order>) {}
export const onStream: KinesisStreamHandler = async (event) => {};
export const onTable: Handler<DynamoDBStreamEvent> = async (event) => {};
export const api = async (event: APIGatewayProxyEvent) => ({ statusCode: 200 });
`),
    ).toEqual([
      { broker: 'lambda-sns', queue: undefined, line: 3 },
      { broker: 'lambda-eventbridge', queue: undefined, line: 4 },
      { broker: 'lambda-kinesis', queue: undefined, line: 5 },
      { broker: 'lambda-dynamodb', queue: undefined, line: 6 },
      // An API Gateway handler is no delivery: shaped like a handler, for the rules only.
      { broker: 'generic', queue: undefined, line: 7 },
    ]);
  });

  it('sees through single-function wrappers and SST handlers', () => {
    expect(
      handlersIn(`
import * as Sentry from '@sentry/serverless';
import middy from '@middy/core';
import { EventHandler } from 'sst/node/event-bus';
import { Handler } from 'sst/context';
import type { SQSEvent } from 'aws-lambda';
export const handler = Sentry.AWSLambda.wrapHandler(async (event: SQSEvent) => {});
export const main = middy(async (event: SQSEvent) => {}).use(jsonBodyParser());
export const onCreated = EventHandler(User.Events.Created, async (evt) => {});
export const usage = Handler('sqs', async (event) => {});
export const page = withAuth(async (req) => {});
`),
    ).toEqual([
      { broker: 'lambda-sqs', queue: undefined, line: 7 },
      { broker: 'lambda-sqs', queue: undefined, line: 8 },
      { broker: 'lambda-eventbridge', queue: undefined, line: 9 },
      { broker: 'lambda-sqs', queue: undefined, line: 10 },
    ]);
  });
});

describe('webhooks', () => {
  it("takes Fedify's inbox listeners, chained or on a binding that keeps the chain, through wrappers around wrappers, and nothing else's `on`", () => {
    expect(
      handlersIn(`
import { createFederation, Follow, Create, Undo } from '@fedify/fedify';
const federation = createFederation({ kv, queue });
const inbox = federation
  .setInboxListeners('/users/{identifier}/inbox', '/inbox')
  .withIdempotency('per-inbox');
inbox
  .on(Follow, async (ctx, follow) => { await saveFollower(follow); })
  .onError(onError)
  .on(Create, withContext(withSpan(async (ctx, create) => { await savePost(create); })));
federation.setInboxListeners('/inbox/{identifier}', '/inbox').on(Undo, async (ctx, undo) => { await undoIt(undo); });
emitter.on(Follow, async (follow) => { await notify(follow); });
`),
    ).toEqual([
      { broker: 'webhook', queue: undefined, line: 8 },
      { broker: 'webhook', queue: undefined, line: 10 },
      { broker: 'webhook', queue: undefined, line: 11 },
    ]);
    // The same chain in a file that does not import Fedify is someone else's.
    expect(
      handlersIn(
        "const inbox = federation.setInboxListeners('/inbox');\ninbox.on(Follow, async (ctx, follow) => { await save(follow); });",
      ),
    ).toEqual([]);
  });

  it("takes a Matrix application service's controller callbacks, whatever configuration is spread beside them", () => {
    expect(
      handlersIn(`
import { Bridge } from 'matrix-appservice-bridge';
export function start(stores: object) {
  return new Bridge({
    controller: {
      onEvent: (request) => { void bridgeEvent(request.getData()); },
      onEphemeralEvent: (request) => { void typing(request.getData()); },
      onUserQuery: (user) => ({ name: user.localpart }),
    },
    ...stores,
  });
}
`),
    ).toEqual([
      { broker: 'matrix-appservice', queue: undefined, line: 6 },
      { broker: 'matrix-appservice', queue: undefined, line: 7 },
    ]);
    expect(
      handlersIn("import { Bridge } from './bridge';\nnew Bridge({ controller: { onEvent: (r) => save(r) } });"),
    ).toEqual([]);
  });

  it("takes Slack Bolt's listeners and Telegraf's update handlers for webhooks, only in files that import them", () => {
    expect(
      handlersIn(`
import { App } from '@slack/bolt';
const app = new App({ token, signingSecret });
app.message(async ({ message, say }) => { await say('hi'); });
app.event('app_mention', async ({ event }) => { await record(event); });
app.command('/deploy', async ({ ack, command }) => { await ack(); await deploy(command.text); });
`),
    ).toEqual([
      { broker: 'webhook', queue: undefined, line: 4 },
      { broker: 'webhook', queue: 'app_mention', line: 5 },
      { broker: 'webhook', queue: '/deploy', line: 6 },
    ]);
    expect(
      handlersIn(`
import { Telegraf } from 'telegraf';
const bot = new Telegraf(token);
bot.on('message', async (ctx) => { await save(ctx.message); });
bot.command('start', async (ctx) => { await ctx.reply('hi'); });
bot.on('close', async () => { await flush(); });
process.on('SIGTERM', async () => { await bot.stop(); });
`),
    ).toEqual([
      { broker: 'webhook', queue: 'message', line: 4 },
      { broker: 'webhook', queue: 'start', line: 5 },
    ]);
    // The one function handed to a wrapper of the project, wherever it stands among its arguments.
    expect(
      handlersIn(`
import { Telegraf } from 'telegraf';
export class TelegramApi {
  start(telegraf: Telegraf, scope: string) {
    telegraf.on('callback_query', this.asyncCallback(scope, this.handleCallbackQuery.bind(this)));
  }
  asyncCallback(scope: string, fn: (scope: string, ctx: unknown) => Promise<void>) {
    return async (ctx: unknown) => fn(scope, ctx);
  }
  async handleCallbackQuery(scope: string, ctx: { callbackQuery: unknown }) {
    await save(scope, ctx.callbackQuery);
  }
}
`),
    ).toEqual([{ broker: 'webhook', queue: 'callback_query', line: 10 }]);
    expect(
      handlersIn("app.message(async ({ say }) => { await say('hi'); });\nbot.on('message', async (ctx) => save(ctx));"),
    ).toEqual([]);
  });

  it("takes a route that hands its request to the Bot Framework adapter's processActivity for a webhook", () => {
    const api = (call: string) => `
import express from 'express';
const app = express();
app.post('/api/messages', async (req, res) => {
  await ${call}(req, res, async (context) => { await context.sendActivity('hi'); });
});
`;
    expect(handlersIn(api('adapter.processActivity'))).toEqual([
      { broker: 'webhook', queue: '/api/messages', line: 4 },
    ]);
    expect(handlersIn(api('adapter.handle'))).toEqual([{ broker: 'route', queue: '/api/messages', line: 4 }]);
  });

  it('takes a Next.js POST for a webhook in a webhook route file or when it verifies a signature', () => {
    const route = `export async function POST(request: Request) { return new Response(null); }`;
    expect(handlersIn(route, { filename: 'app/api/webhooks/stripe/route.ts' })).toEqual([
      { broker: 'webhook', queue: undefined, line: 1 },
    ]);
    expect(handlersIn(route, { filename: 'app/api/projects/route.ts' })).toEqual([
      { broker: 'route', queue: undefined, line: 1 },
    ]);
    expect(
      handlersIn(
        `
import { Webhook } from 'svix';
export async function POST(request: Request) {
  const payload = new Webhook(secret).verify(await request.text(), headers);
}
export const PUT = withLogging(async (request: Request) => {
  const event = await stripe.webhooks.constructEventAsync(body, request.headers.get('stripe-signature'), secret);
});
`,
        { filename: 'app/api/billing/route.ts' },
      ),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 3 }]);
  });

  it("takes a Remix or React Router route module's action for a POST route, a webhook when its file says so", () => {
    const action = `import type { ActionFunctionArgs } from '@remix-run/node';
export async function action({ request }: ActionFunctionArgs) { return null; }
export async function loader() { return null; }`;
    expect(handlersIn(action, { filename: 'app/routes/webhooks.v1.accounts.ts' })).toEqual([
      { broker: 'webhook', queue: undefined, line: 2 },
    ]);
    expect(handlersIn(action, { filename: 'app/routes/projects.$id.ts' })).toEqual([
      { broker: 'route', queue: undefined, line: 2 },
    ]);
    // React Router 7's generated types; an `action` of a module that is no route is not one.
    expect(
      handlersIn(`export async function action({ request }: Route.ActionArgs) { return null; }`, {
        filename: 'app/routes/api.stripe-webhook.ts',
      }),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 1 }]);
    expect(
      handlersIn(`export async function action(name: string) { return name; }`, {
        filename: 'src/webhooks/actions.ts',
      }),
    ).toEqual([]);
    // A page's own form posts: the route renders a component, so its action is no endpoint of another system.
    expect(
      handlersIn(`${action}\nexport default function WebhookEndpoints() { return null; }`, {
        filename: 'app/routes/_app.projects.$id.webhooks.endpoints/route.ts',
      }),
    ).toEqual([{ broker: 'route', queue: undefined, line: 2 }]);
  });

  it('takes an express POST route for a webhook by its path or an HMAC check, not a browser form post', () => {
    expect(
      handlersIn(`
import express from 'express';
import crypto from 'node:crypto';
const router = express.Router();
router.post('/hooks/github', async (req, res) => {});
router.post('/shopify', async (req, res) => {
  const digest = crypto.createHmac('sha256', secret).update(req.rawBody).digest('base64');
  if (!crypto.timingSafeEqual(Buffer.from(digest), Buffer.from(req.get('x-shopify-hmac-sha256')))) return res.sendStatus(401);
});
router.post('/auth/callback', async (req, res) => {});
router.post('/comments', async (req, res) => {});
`),
    ).toEqual([
      { broker: 'webhook', queue: '/hooks/github', line: 5 },
      { broker: 'webhook', queue: '/shopify', line: 6 },
      { broker: 'route', queue: '/auth/callback', line: 10 },
      { broker: 'route', queue: '/comments', line: 11 },
    ]);
  });
});

describe('a route named for callbacks that answers with a redirect', () => {
  it("is a browser's flow, not a sender's delivery; the same route that answers with a status is a webhook", () => {
    expect(
      handlersIn(`
import express from 'express';
const router = express.Router();
router.post('/connections/apikey/callback', async (req, res) => {
  await saveKey(req.query.state, req.body);
  res.redirect('/');
});
router.post('/payments/callback', async (req, res) => {
  await savePayment(req.body);
  res.sendStatus(200);
});
`),
    ).toEqual([
      { broker: 'route', queue: '/connections/apikey/callback', line: 4 },
      { broker: 'webhook', queue: '/payments/callback', line: 8 },
    ]);
    // A NestJS controller's the same: its redirecting callback is a route.
    expect(
      handlersIn(`
import { Controller, Post, Res, Body } from '@nestjs/common';
@Controller('connections')
export class ConnectionsController {
  @Post('apikey/callback')
  async apiKeyCallback(@Res() res, @Body() body: KeyDto) {
    await this.connections.save(body);
    res.redirect('/');
  }
  @Post('payments/callback')
  async paymentCallback(@Body() body: PaymentDto) {
    await this.payments.save(body);
  }
}
`).map(({ broker, queue }) => ({ broker, queue })),
    ).toEqual([{ broker: 'webhook', queue: 'connections/payments/callback' }]);
  });
});

describe('express-openapi path modules', () => {
  it("takes the POST operation a path module's default export returns, a webhook when it verifies the sender", () => {
    const webhook = `
import { handleInvoicePaid, handleAccountUpdate, verifyStripeSignature } from '../../../utils/stripe';
export default function () {
  const operations = { POST };
  async function POST(req, res, next) {
    const event = await verifyStripeSignature(req, res, secret);
    switch (event.type) {
      case 'invoice.paid':
        await handleInvoicePaid(event.data.object);
        break;
      case 'account.updated':
        await handleAccountUpdate(event.data.object);
        break;
    }
    res.sendStatus(200);
  }
  return operations;
}
`;
    expect(handlersIn(webhook, { filename: 'src/routers/v1/webhooks/stripe/connect.ts' })).toEqual([
      { broker: 'webhook', queue: undefined, line: 5 },
    ]);
    // An ordinary path module's POST is a route the inventory does not list.
    const route = `
export default function () {
  const operations = { GET, POST };
  async function GET(req, res) { res.json([]); }
  async function POST(req, res) { res.json(await create(req.body)); }
  return operations;
}
`;
    expect(handlersIn(route, { filename: 'src/routers/v1/albums/index.ts' })).toEqual([
      { broker: 'route', queue: undefined, line: 5 },
    ]);
  });
});

describe('webhooks guarded elsewhere', () => {
  it('takes a route for a webhook when a middleware in front of it, or one mounted on its router, checks the sender', () => {
    expect(
      handlersIn(`
import express from 'express';
const router = express.Router();
router.post('/stripe', verifyStripeSignature, async (req, res) => {});
router.post('/shopify', checkShopify, asyncHandler(async (req, res) => {}));
function checkShopify(req, res, next) {
  const digest = crypto.createHmac('sha256', secret).update(req.rawBody).digest('base64');
  if (digest !== req.get('x-shopify-hmac-sha256')) return res.sendStatus(401);
  next();
}
router.post('/comments', requireUser, async (req, res) => {});
`),
    ).toEqual([
      { broker: 'webhook', queue: '/stripe', line: 4 },
      { broker: 'webhook', queue: '/shopify', line: 5 },
      { broker: 'route', queue: '/comments', line: 11 },
    ]);
    expect(
      handlersIn(`
import express from 'express';
const router = express.Router();
router.use(validateSignature(secret));
router.post('/events', async (req, res) => {});
`),
    ).toEqual([{ broker: 'webhook', queue: '/events', line: 5 }]);
  });

  it('follows the handler into a helper of its file that checks an HMAC, two calls deep', () => {
    expect(
      handlersIn(`
import type { APIGatewayEvent } from 'aws-lambda';
import { createHmac } from 'crypto';
export const handler = async (event: APIGatewayEvent) => {
  if (!isAuthentic(event)) return { statusCode: 401 };
  await forward(event.body);
  return { statusCode: 204 };
};
function isAuthentic(event: APIGatewayEvent) { return check(event.body, event.headers['x-signature-header']); }
function check(body: string, signature: string) {
  const expected = createHmac('sha256', secret).update(body).digest('base64');
  return expected === signature;
}
`).filter((found) => found.broker !== 'generic'),
      // An API Gateway Lambda that checks the sender's HMAC receives its retried deliveries.
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 4 }]);
    expect(
      handlersIn(`
import express from 'express';
const router = express.Router();
router.post('/tenovi', async (req, res) => { if (!isAuthentic(req)) return res.sendStatus(401); });
function isAuthentic(req) { return check(req.body, req.get('x-sig')); }
function check(body, sig) { return createHmac('sha256', secret).update(body).digest('hex') === sig; }
`),
    ).toEqual([{ broker: 'webhook', queue: '/tenovi', line: 4 }]);
  });

  it('takes the POST routes of a webhooks router file, wrapped or chained, unless the file manages webhooks as resources', () => {
    const receivers = `
import Router from 'express-promise-router';
const router = Router();
router.postAsync('/aws', async (req, res) => {});
router.post('/', asyncHandler(async (req, res) => {}));
router.get(path('webhook/meta'), (req, res) => {}).post(path('webhook/meta'), async (req, res) => {});
`;
    expect(handlersIn(receivers, { filename: 'server/routes/webhooks.ts' })).toEqual([
      { broker: 'webhook', queue: '/aws', line: 4 },
      { broker: 'webhook', queue: '/', line: 5 },
      { broker: 'webhook', queue: 'webhook/meta', line: 6 },
    ]);
    expect(handlersIn(receivers, { filename: 'server/routes/orders.ts' })).toEqual([
      { broker: 'route', queue: '/aws', line: 4 },
      { broker: 'route', queue: '/', line: 5 },
      { broker: 'webhook', queue: 'webhook/meta', line: 6 },
    ]);
    const management = `
import express from 'express';
const router = express.Router();
router.post('/', async (req, res) => {});
router.delete('/:id', async (req, res) => {});
`;
    expect(handlersIn(management, { filename: 'src/routes/webhooks.ts' })).toEqual([
      { broker: 'route', queue: '/', line: 4 },
    ]);
  });

  it("takes a route registered through the project's POST-route helper, a webhook when a validator factory in front of it checks Twilio's signature", () => {
    const plugin = `
import twilio from 'twilio';
const headerValidator = (url) => async (req, res, next) => twilio.webhook(process.env.TWILIO_TOKEN, { url })(req, res, next);
export function addServerEndpoints(addPostRoute) {
  addPostRoute('/twilio/:orgId?', headerValidator(process.env.URL), wrap(async (req, res) => {}));
  addPostRoute('/contacts', wrap(async (req, res) => {}));
}
`;
    expect(handlersIn(plugin, { filename: 'src/extensions/vendors/twilio/index.ts' })).toEqual([
      { broker: 'webhook', queue: '/twilio/:orgId?', line: 5 },
      { broker: 'route', queue: '/contacts', line: 6 },
    ]);
  });

  it('takes a sender whose name starts with "send" for a receiver, and a route that sends webhooks for none', () => {
    const routes = `
import Router from 'express-promise-router';
const router = Router();
router.postAsync('/sendgrid', async (req, res) => {});
router.postAsync('/zone-mta/sender-config/:id', async (req, res) => {});
router.postAsync('/sendWebhook', async (req, res) => {});
`;
    expect(handlersIn(routes, { filename: 'server/routes/webhooks.ts' })).toEqual([
      { broker: 'webhook', queue: '/sendgrid', line: 4 },
      { broker: 'route', queue: '/zone-mta/sender-config/:id', line: 5 },
      { broker: 'route', queue: '/sendWebhook', line: 6 },
    ]);
    const hono = `
import { OpenAPIHono } from '@hono/zod-openapi';
const app = new OpenAPIHono();
app.post('/', async (c) => {});
`;
    expect(handlersIn(hono, { filename: 'src/rest/routers/webhooks/sendblue/index.ts' })).toEqual([
      { broker: 'webhook', queue: '/', line: 4 },
    ]);
  });

  it("takes a hono OpenAPI POST route, and an exported function named as a webhook's receiver that takes the request", () => {
    expect(
      handlersIn(
        `
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
const app = new OpenAPIHono();
app.openapi(createRoute({ method: 'post', path: '/' }), async (c) => {});
app.openapi(createRoute({ method: 'get', path: '/' }), async (c) => {});
`,
        { filename: 'src/rest/routers/webhooks/stripe/index.ts' },
      ),
    ).toEqual([{ broker: 'webhook', queue: '/', line: 4 }]);
    expect(
      handlersIn(`
export async function stripeWebhookHandler(request: Request, context: Core): Promise<Response> {}
export async function sendWebhookHandler(request: Request) {}
export async function paypalWebhookHandler(payload: Payload) {}
`),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 2 }]);
  });
});

describe('Lambda functions invoked asynchronously', () => {
  it('takes the handler a Lambda exports and that returns nothing, not one that answers its caller', () => {
    expect(
      handlersIn(
        `
import * as Sentry from '@sentry/serverless';
export const handler = Sentry.AWSLambda.wrapHandler(async (params: PollParams) => {
  await poll(params);
});
`,
        { filename: 'packages/lambdas/src/poll.ts' },
      ),
    ).toEqual([{ broker: 'lambda-async', queue: undefined, line: 3 }]);
    expect(
      handlersIn(
        `
export const handler = capture.wrapHandler(async (params: IngestParams): Promise<void> => {
  if (skip) return;
  await ingest(params);
});
`,
        { filename: 'packages/lambdas/src/ingest.ts' },
      ),
    ).toEqual([{ broker: 'lambda-async', queue: undefined, line: 2 }]);
    expect(
      handlersIn(
        `
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
export async function handler(event: CloudFormationCustomResourceEvent) { await respond(event); }
`,
        { filename: 'src/connect.ts' },
      ),
    ).toEqual([{ broker: 'lambda-async', queue: undefined, line: 3 }]);
    // Answers a synchronous caller; an HTTP request; not a Lambda package; not the handler export.
    expect(
      handlersIn(
        `
export const handler = capture.wrapHandler(async (params: QueryParams) => {
  return await query(params);
});
`,
        { filename: 'packages/lambdas/src/query.ts' },
      ),
    ).toEqual([]);
    expect(
      handlersIn(
        `
import type { APIGatewayProxyEvent } from 'aws-lambda';
export const handler = async (req: APIGatewayProxyEvent) => { await forward(req); };
`,
        { filename: 'src/forward.ts' },
      ).filter((found) => found.broker !== 'generic'),
    ).toEqual([]);
    expect(
      handlersIn(`export async function handler(input: Input) { await work(input); }`, { filename: 'src/work.ts' }),
    ).toEqual([]);
    expect(
      handlersIn(`export const run = wrapHandler(async (params: P) => { await work(params); });`, {
        filename: 'packages/lambdas/src/work.ts',
      }),
    ).toEqual([]);
  });
});

describe("a project's own job systems", () => {
  it('takes the handlers of a job registry looked up by job type, and its dispatcher', () => {
    expect(
      handlersIn(`
import { exportCampaign } from './jobs';
const taskMap = Object.freeze({
  send_message: async (payload) => { await send(payload); },
  [Tasks.TAG_UPDATE]: tagUpdate,
  export: exportCampaign,
});
async function tagUpdate(payload) {}
export const invokeTaskFunction = async (taskName, payload) => {
  await taskMap[taskName](payload);
};
const labels = { a: () => 1 };
export const label = (key) => labels[key]();
`),
    ).toEqual([
      { broker: 'job-registry', queue: 'send_message', line: 4 },
      { broker: 'job-registry', queue: 'Tasks.TAG_UPDATE', line: 8 },
      { broker: 'job-registry', queue: 'taskMap', line: 9 },
    ]);
  });

  it("takes what a delivery's handler picks by the delivery's type from a table, whatever the table is named", () => {
    expect(
      handlersIn(`
import PgBoss from 'pg-boss';
const boss = new PgBoss(url);
const checkoutReminder = async ({ data }) => { await notify(data); };
async function overdue(job) { await flag(job.data); }
const event2HandlerMap = { [Events.checkout]: checkoutReminder, [Events.overdue]: overdue };
const byType = new Map([['archive', async (job) => archive(job.data)]]);
await boss.work('bookings', async (job) => {
  const handler = event2HandlerMap[job.data.eventType];
  if (typeof handler !== 'function') return;
  await handler(job);
});
await boss.work('archive', async (job) => { await byType.get(job.data.type)?.(job); });
const formats = { short: (d) => d.slice(0, 3) };
await boss.work('format', async (job) => { print(formats[locale](job.data.day)); });
`),
    ).toEqual([
      { broker: 'pg-boss', queue: 'Events.checkout', line: 4 },
      { broker: 'pg-boss', queue: 'Events.overdue', line: 5 },
      { broker: 'pg-boss', queue: 'archive', line: 7 },
      { broker: 'pg-boss', queue: 'bookings', line: 8 },
      { broker: 'pg-boss', queue: 'archive', line: 13 },
      { broker: 'pg-boss', queue: 'format', line: 15 },
    ]);
  });

  it("takes a per-type handler's own picks by a field of what it was handed, not by what it computes from it", () => {
    const route = `
async function credit(args, users) { await users.update(args); }
async function subscribe(args, users) { await users.update(args); }
async function refund(charge) { await ledger.refund(charge.id); }
async function dispute(charge) { await ledger.dispute(charge.id); }
async function onOrderPaid({ data: order }, users) {
  const plan = planOf(order.productId);
  switch (plan) {
    case 'credits': await credit({ id: order.customerId }, users); break;
    case 'pro': await subscribe({ id: order.customerId }, users); break;
  }
}
async function onCharge(event, users) {
  switch (event.data.kind) {
    case 'refund': return refund(event.data);
    case 'dispute': return dispute(event.data);
  }
}
export async function POST(request: Request) {
  const event = stripe.webhooks.constructEvent(await request.text(), sig, secret);
  switch (event.type) {
    case 'order.paid': return onOrderPaid(event, users);
    case 'charge.updated': return onCharge(event, users);
  }
}
`;
    expect(handlersIn(route, { filename: 'app/api/stripe/route.ts' })).toEqual([
      { broker: 'webhook', queue: 'refund', line: 4 },
      { broker: 'webhook', queue: 'dispute', line: 5 },
      { broker: 'webhook', queue: 'order.paid', line: 6 },
      { broker: 'webhook', queue: 'charge.updated', line: 13 },
      { broker: 'webhook', queue: undefined, line: 19 },
    ]);
  });

  it("takes the functions a webhook's switch or if chain on the event's type calls with the event", () => {
    const route = `
import Stripe from 'stripe';
const stripe = new Stripe(key);
async function paid(event, user) { await markPaid(event.data.object, user); }
async function failed(event) { await notifyFailure(event.data.object); }
async function resolved(event) {}
export async function POST(request: Request) {
  const { event, user } = await verify(request);
  switch (event.type) {
    case 'invoice.paid':
      return await paid(event, user);
    case 'invoice.voided':
    case 'invoice.marked_uncollectible':
      return resolved(event);
    case 'invoice.payment_failed':
      logger.info('failed', event.id);
      await failed(event);
      break;
    default:
      assertUnreachable(event);
  }
}
function assertUnreachable(event: never) { console.warn(event); }
async function verify(request) { return { event: stripe.webhooks.constructEvent(await request.text(), sig, secret), user: null }; }
`;
    expect(handlersIn(route, { filename: 'app/api/stripe/route.ts' })).toEqual([
      { broker: 'webhook', queue: 'invoice.paid', line: 4 },
      { broker: 'webhook', queue: 'invoice.payment_failed', line: 5 },
      { broker: 'webhook', queue: 'invoice.voided, invoice.marked_uncollectible', line: 6 },
      { broker: 'webhook', queue: undefined, line: 7 },
    ]);
    const chain = `
import { Worker } from 'bullmq';
async function created(job) {}
async function cancelled(job) {}
async function only(job) {}
new Worker('billing', async (job) => {
  if (job.data.alert === 'created') await created(job.data);
  else if (job.data.alert === 'cancelled') await cancelled(job.data);
});
new Worker('single', async (job) => {
  if (job.name === 'only') await only(job);
});
new Worker('static', async (job) => {
  switch (mode) { case 'a': return created(job); case 'b': return cancelled(job); }
});
`;
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
import { StepType } from './types';
async function start(data) {}
async function exit(data) {}
new Worker('steps', async (job) => {
  switch (job.data.step.type) {
    case StepType.START:
      await start(job.data);
      break;
    case StepType.EXIT:
      await exit(job.data);
      break;
  }
});
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'StepType.START', line: 4 },
      { broker: 'bullmq', queue: 'StepType.EXIT', line: 5 },
      { broker: 'bullmq', queue: 'steps', line: 6 },
    ]);
    // A guard that skips some deliveries of the type, logging, leaves the branch's call its work; one that does work does not.
    const guarded = (guard: string) => `
import { Worker } from 'bullmq';
async function created(data) {}
async function deleted(data) {}
new Worker('subscriptions', async (job) => {
  switch (job.data.type) {
    case 'created':
      if (isPledgeBased(job.data.metadata)) { logger.info('pledge based; skipping'); ${guard} }
      await created(job.data);
      break;
    case 'deleted':
      await deleted(job.data);
      break;
  }
});
`;
    expect(handlersIn(guarded('break;'))).toEqual([
      { broker: 'bullmq', queue: 'created', line: 3 },
      { broker: 'bullmq', queue: 'deleted', line: 4 },
      { broker: 'bullmq', queue: 'subscriptions', line: 5 },
    ]);
    // (and one pick left is no split by the type).
    expect(handlersIn(guarded('await refund(job.data); break;'))).toEqual([
      { broker: 'bullmq', queue: 'subscriptions', line: 5 },
    ]);
    // Two chains of a block on one field are one dispatch on it, each function picked once or twice.
    const topics = (second: string) => `
import { Worker } from 'bullmq';
async function tagRules(payload, kind) {}
async function metafieldRules(payload, kind) {}
new Worker('webhooks', async (job) => {
  const { topic, payload } = job.data;
  if (topic === 'ORDERS_CREATE' || topic === 'ORDERS_UPDATED') await tagRules(payload, 'orders');
  else if (topic === 'CUSTOMERS_UPDATE') await tagRules(payload, 'customers');
  if (${second} === 'PRODUCTS_CREATE') await metafieldRules(payload, 'products');
  else if (${second} === 'CUSTOMERS_CREATE') await metafieldRules(payload, 'customers');
});
`;
    expect(handlersIn(topics('topic'))).toEqual([
      { broker: 'bullmq', queue: 'ORDERS_CREATE', line: 3 },
      { broker: 'bullmq', queue: 'PRODUCTS_CREATE', line: 4 },
      { broker: 'bullmq', queue: 'webhooks', line: 5 },
    ]);
    expect(handlersIn(topics('payload.kind'))).toEqual([{ broker: 'bullmq', queue: 'webhooks', line: 5 }]);
    // Two calls a block makes for one type are two things the handler does on it, not a dispatch.
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function removeTimeout(id) {}
async function removeLobby(id) {}
new Worker('matches', async (job) => {
  const { op, id } = job.data;
  if (op === 'DELETE') await removeTimeout(id);
  if (op === 'DELETE') await removeLobby(id);
});
`),
    ).toEqual([{ broker: 'bullmq', queue: 'matches', line: 5 }]);
    expect(handlersIn(chain)).toEqual([
      { broker: 'bullmq', queue: 'created', line: 3 },
      { broker: 'bullmq', queue: 'cancelled', line: 4 },
      { broker: 'bullmq', queue: 'billing', line: 6 },
      { broker: 'bullmq', queue: 'single', line: 10 },
      { broker: 'bullmq', queue: 'static', line: 13 },
    ]);
  });

  it('takes the picks of an event given its value once after its declaration, and of a chain whose branch returns before the rest', () => {
    const route = `
import Stripe from 'stripe';
const stripe = new Stripe(key);
async function created(event) { await insertSubscription(event.data.object); }
async function updated(event) { await updateSubscription(event.data.object); }
export default async function handler(req, res) {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(await buffer(req), req.headers['stripe-signature'], secret);
  } catch (err) {
    return res.status(400).end();
  }
  switch (event.type) {
    case 'customer.subscription.created':
      await created(event);
      break;
    case 'customer.subscription.updated':
      await updated(event);
      break;
  }
  return res.status(200).end();
}
`;
    expect(handlersIn(route, { filename: 'pages/api/webhooks/stripe.ts' }).filter(({ line }) => line !== 6)).toEqual([
      { broker: 'webhook', queue: 'customer.subscription.created', line: 4 },
      { broker: 'webhook', queue: 'customer.subscription.updated', line: 5 },
    ]);
    const predicates = `
import Stripe from 'stripe';
const stripe = new Stripe(key);
async function cores(event) { await grantCores(event.data); }
async function plus(event) { await grantPlus(event.data); }
export async function POST(request: Request) {
  const event = stripe.webhooks.constructEvent(await request.text(), request.headers.get('stripe-signature'), secret);
  switch (true) {
    case isPurchaseType(PurchaseType.Cores, event):
      await cores(event);
      break;
    case isPurchaseType(PurchaseType.Plus, event):
      await plus(event);
      break;
    default:
      logger.info(event.eventType);
  }
}
`;
    expect(handlersIn(predicates, { filename: 'app/api/billing/route.ts' }).filter(({ line }) => line !== 6)).toEqual([
      { broker: 'webhook', queue: 'PurchaseType.Cores', line: 4 },
      { broker: 'webhook', queue: 'PurchaseType.Plus', line: 5 },
    ]);
    const processor = `
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { ExportService } from './export.service';
async function cleanup(data) {}
async function exportReplay(data) {}
@Processor('session-replay-export')
export class ExportProcessor extends WorkerHost {
  async process(job) {
    if (job.data.type === 'cleanup') {
      await cleanup(job.data);
      return;
    }
    await exportReplay(job.data);
  }
}
`;
    expect(handlersIn(processor)).toEqual([
      { broker: 'bullmq', queue: 'cleanup', line: 4 },
      { broker: 'bullmq', queue: undefined, line: 5 },
      { broker: 'bullmq', queue: 'session-replay-export', line: 8 },
    ]);
  });

  it('takes the functions a resolver of the file returns for the type it is handed, when the handler calls what it returns', () => {
    const resolved = `
import { Worker } from 'bullmq';
async function processVideo(props) {}
async function processFreeform(props) {}
async function processArticle(props) {}
async function processTweet(props) {}
const resolveProcessor = (contentType) => {
  if (isTweet(contentType)) return processTweet;
  switch (contentType) {
    case 'video':
      return processVideo;
    case 'freeform':
      return processFreeform;
    default:
      return processArticle;
  }
};
new Worker('content', async (job) => {
  const processor = resolveProcessor(job.data.content_type);
  await processor({ data: job.data });
});
`;
    expect(handlersIn(resolved)).toEqual([
      { broker: 'bullmq', queue: 'video', line: 3 },
      { broker: 'bullmq', queue: 'freeform', line: 4 },
      { broker: 'bullmq', queue: undefined, line: 5 },
      { broker: 'bullmq', queue: undefined, line: 6 },
      { broker: 'bullmq', queue: 'content', line: 18 },
    ]);
    // Called with a constant, or with its result never called, a function that returns functions picks nothing.
    const notPicked = `
import { Worker } from 'bullmq';
async function fast(props) {}
async function slow(props) {}
const pick = (mode) => (mode === 'fast' ? fast : slow);
function chooser(mode) { if (mode === 'fast') return fast; return slow; }
new Worker('a', async (job) => { const run = chooser('fast'); await run(job.data); });
new Worker('b', async (job) => { const run = chooser(job.data.mode); return { run }; });
`;
    expect(handlersIn(notPicked)).toEqual([
      { broker: 'bullmq', queue: 'a', line: 7 },
      { broker: 'bullmq', queue: 'b', line: 8 },
    ]);
  });

  it('takes the picks of an if chain of type guards the delivery is handed to, under each guard', () => {
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function onSuccess(output) {}
async function onFailure(output) {}
new Worker('outputs', async (job) => {
  const output = job.data.output;
  if (outputIsSuccess(output)) {
    logger.info('success');
    await onSuccess(output);
  } else if (outputIsFailure(output)) {
    await onFailure(output);
  }
});
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'outputIsSuccess', line: 3 },
      { broker: 'bullmq', queue: 'outputIsFailure', line: 4 },
      { broker: 'bullmq', queue: 'outputs', line: 5 },
    ]);
    // An awaited check looks an outcome up; a guard of something else than the delivery is the handler's own condition.
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function notify(id) {}
async function close(id) {}
new Worker('jobs', async (job) => {
  if (await jobWasSuccessful(job.data.id)) await notify(job.data.id);
  else if (await jobWasCancelled(job.data.id)) await close(job.data.id);
});
`),
    ).toEqual([{ broker: 'bullmq', queue: 'jobs', line: 5 }]);
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function fast(data) {}
async function slow(data) {}
new Worker('work', async (job) => {
  if (isPeak(new Date())) await slow(job.data);
  else if (isQuiet(clock)) await fast(job.data);
});
`),
    ).toEqual([{ broker: 'bullmq', queue: 'work', line: 5 }]);
  });

  it("takes the last else of a chain on the delivery's type for every other type's pick", () => {
    expect(
      handlersIn(`
import Queue from 'bull';
async function blockUser(data) {}
async function unblockUser(data) {}
const queue = new Queue('blocked');
queue.process('block', async (job) => {
  const { type } = job.data;
  if (type === 'block') {
    await blockUser(job.data);
  } else {
    await unblockUser(job.data);
  }
});
`),
    ).toEqual([
      { broker: 'bull', queue: 'block', line: 3 },
      { broker: 'bull', queue: undefined, line: 4 },
      { broker: 'bull', queue: 'blocked', line: 6 },
    ]);
  });

  it("takes the if statements of one block that each return as one dispatch, a guard held in a const, and a branch's plain answer", () => {
    expect(
      handlersIn(`
import express from 'express';
import { db } from './db';
async function onCheckout(event) { await db.insert(event.id); }
async function onInvoice(event) { await db.update(event.id); }
async function onOther(event) { await db.remove(event.id); }
const app = express();
app.post('/webhooks/stripe', async (req, res) => {
  const event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'], secret);
  const checkout = isCheckoutEvent(event);
  if (checkout) {
    await onCheckout(event);
    return res.json({ received: true });
  }
  const customer = await db.find(event.data.object.customer);
  if (!customer) throw new Error('no customer');
  if (event.type === 'invoice.paid') return onInvoice(event);
  await onOther(event);
  res.sendStatus(200);
});
`),
    ).toEqual([
      { broker: 'webhook', queue: 'isCheckoutEvent', line: 4 },
      { broker: 'webhook', queue: 'invoice.paid', line: 5 },
      { broker: 'webhook', queue: undefined, line: 6 },
      { broker: 'webhook', queue: '/webhooks/stripe', line: 8 },
    ]);
    // An answer built from what the branch computed is the branch's own work; one returning
    // branch is the handler's own condition.
    expect(
      handlersIn(`
import express from 'express';
async function listOrders(query) {}
async function archive(event) {}
const app = express();
app.post('/webhooks/shop', async (req, res) => {
  const event = verify(req);
  if (event.topic === 'orders/list') {
    const orders = await listOrders(event);
    return res.json(orders);
  }
  if (event.topic === 'orders/archive') {
    await archive(event);
    res.status(200);
  }
  return res.json({ ok: true });
});
`),
    ).toEqual([{ broker: 'webhook', queue: '/webhooks/shop', line: 6 }]);
    // Separate ifs comparing one value with a literal each pick as a chain does; ifs on different values do not.
    expect(
      handlersIn(`
import express from 'express';
async function createOrder(body) {}
async function completePayment(body) {}
async function refund(body) {}
const app = express();
app.post('/paypal/webhook', async (req, res) => {
  const body = JSON.parse(req.body);
  if (body.event_type === 'CHECKOUT.ORDER.APPROVED') createOrder(body);
  if (body.event_type === 'PAYMENT.CAPTURE.COMPLETED') completePayment(body);
  if (body.resource_type === 'refund') refund(body);
  res.sendStatus(200);
});
`).map(({ queue }) => queue),
    ).toEqual(['CHECKOUT.ORDER.APPROVED', 'PAYMENT.CAPTURE.COMPLETED', '/paypal/webhook']);
    // How a promise settled is no type of delivery, and one function called in an `if` and its `else` is one pick.
    expect(
      handlersIn(`
import express from 'express';
async function log(message) {}
async function flag(email) {}
const app = express();
app.post('/webhooks/stripe', async (req, res) => {
  const event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'], secret);
  const [result] = await Promise.allSettled([flag(event.data.object.email)]);
  if (result.status === 'fulfilled' && result.value) log('flagged');
  else log('failed');
  res.sendStatus(200);
});
`).map(({ queue }) => queue),
    ).toEqual(['/webhooks/stripe']);
    // What an awaited call answered is an outcome, not a type; a helper handed the context and a
    // message built in place does that message's work, not the delivery's.
    expect(
      handlersIn(`
import express from 'express';
async function log(entry) {}
async function track(req, event) {}
async function persist(id) {}
async function onExpiring(req, org) {
  await track(req, { event: 'card_expiring', user: org.id });
  return req.res.json({ ok: true });
}
async function onCreated(req, org) {
  await track(req, { event: 'card_created', user: org.id });
}
const app = express();
app.post('/webhooks/stripe', async (req, res) => {
  const event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'], secret);
  const outcome = await persist(event.id);
  if (outcome === 'duplicate') {
    log({ message: 'duplicate', id: event.id });
    return res.json({ ok: true });
  }
  if (outcome === 'stale') return log({ message: 'stale' });
  if (event.type === 'customer.source.expiring') return onExpiring(req, event.data.object);
  if (event.type === 'customer.source.created') return onCreated(req, event.data.object);
  res.sendStatus(200);
});
`).map(({ queue, line }) => [line, queue]),
    ).toEqual([
      [6, 'customer.source.expiring'],
      [10, 'customer.source.created'],
      [14, '/webhooks/stripe'],
    ]);
    // A check handed what the handler fetched (a secret) tells a forged delivery from a genuine one, not types apart.
    expect(
      handlersIn(`
import express from 'express';
async function forward(event) { await fetch(url, { method: 'POST', body: event.body }); }
function reply(status) { return { status }; }
const app = express();
app.post('/webhooks/fitbit', async (req, res) => {
  const secret = await getSecret('fitbit');
  const verified = verifyRequest(req, req.body, secret);
  if (verified) return forward(req);
  return reply(404);
});
`),
    ).toEqual([{ broker: 'webhook', queue: '/webhooks/fitbit', line: 6 }]);
  });

  it('takes what a processor hands the job to between logging and a constant status, and one branch for several types', () => {
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
class Tagger {
  static async onOrder(job) {}
  static async onCustomer(job) {}
  static async process(job) {
    const { topic } = job.data;
    if (topic === 'ORDERS_CREATE' || topic === 'ORDERS_UPDATED') await Tagger.onOrder(job);
    else if (topic === 'CUSTOMERS_UPDATE') await Tagger.onCustomer(job);
  }
}
const processWebhookJob = async (job) => {
  console.log('processing', job.id);
  await Tagger.process(job);
  return { status: 'processed' };
};
new Worker('webhooks', processWebhookJob);
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'ORDERS_CREATE', line: 4 },
      { broker: 'bullmq', queue: 'CUSTOMERS_UPDATE', line: 5 },
      { broker: 'bullmq', queue: 'webhooks', line: 6 },
      { broker: 'bullmq', queue: 'webhooks', line: 12 },
    ]);
    // A status computed from the work is the processor's own: it does more than hand the job on.
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function run(job) {}
new Worker('a', async (job) => {
  const result = await run(job);
  return { status: result.ok };
});
`),
    ).toEqual([{ broker: 'bullmq', queue: 'a', line: 4 }]);
  });

  it("takes a table of tables looked up by two delivered values, a branch by the last type its test names, and a route's forward inside try", () => {
    expect(
      handlersIn(`
import express from 'express';
const handlers = {
  Issue: { create: async (data) => {}, remove: async (data) => {} },
  Comment: { create: async (data) => {} },
};
async function handleRequest(payload) {
  const { data, type, action } = payload;
  await handlers[type][action](data);
}
const router = express.Router();
router.post('/webhooks/linear', async (req, res, next) => {
  try {
    console.log(req.body);
    await handleRequest(req.body);
    return res.send(200);
  } catch (error) {
    return next(error);
  }
});
`),
    ).toEqual([
      { broker: 'webhook', queue: 'Issue.create', line: 4 },
      { broker: 'webhook', queue: 'Issue.remove', line: 4 },
      { broker: 'webhook', queue: 'Comment.create', line: 5 },
      { broker: 'webhook', queue: '/webhooks/linear', line: 7 },
      { broker: 'webhook', queue: '/webhooks/linear', line: 12 },
    ]);
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function removeMessage(event) {}
async function addMessage(event) {}
new Worker('slack', async (job) => {
  const event = job.data.event;
  if (event.type === 'message' && event.subtype === 'message_deleted') await removeMessage(event);
  else await addMessage(event);
});
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'message_deleted', line: 3 },
      { broker: 'bullmq', queue: undefined, line: 4 },
      { broker: 'bullmq', queue: 'slack', line: 5 },
    ]);
  });

  it("takes the record function a batch handler pushes each record's promise of for Promise.all, and its guards' picks on the record", () => {
    expect(
      handlersIn(`
import type { DynamoDBStreamHandler, DynamoDBRecord } from 'aws-lambda';
import { lines } from './lines';
import { spots } from './spots';
async function onLine(keys) {}
async function onSpot(keys) {}
const processRecord = async (record: DynamoDBRecord) => {
  const keys = record.dynamodb.Keys;
  if (lines.converter.isItemMatching(keys)) {
    await onLine(keys);
    console.log('line');
  }
  if (spots.converter.isItemMatching(keys)) await onSpot(keys);
};
export const main: DynamoDBStreamHandler = async (event) => {
  const promises = [];
  for (const record of event.Records) promises.push(processRecord(record).catch((error) => console.error(error)));
  await Promise.all(promises.map(reflect));
};
`).map(({ queue, line }) => [line, queue]),
    ).toEqual([
      [5, 'lines.converter.isItemMatching'],
      [6, 'spots.converter.isItemMatching'],
      [7, undefined],
      [15, undefined],
    ]);
    // What the record function hands on again (each device it loads) is no longer the delivery:
    // the picks of that function by a device's field are not followed.
    expect(
      handlersIn(`
import type { SQSHandler } from 'aws-lambda';
async function sendFcm(device) {}
async function sendApns(device) {}
async function sendToDevice(device) {
  if (device.provider === 'fcm') return sendFcm(device);
  if (device.provider === 'apns') return sendApns(device);
}
async function notifyAll(message) {
  for (const device of message.devices) await sendToDevice(device);
}
export const main: SQSHandler = async (event) => {
  for (const record of event.Records) await notifyAll(JSON.parse(record.body));
};
`).map(({ line }) => line),
    ).toEqual([9, 12]);
    // A promise pushed into an array nobody waits for as a whole is no batch's work.
    expect(
      handlersIn(`
import type { SQSHandler } from 'aws-lambda';
async function handle(record) {}
export const main: SQSHandler = async (event) => {
  const started = [];
  for (const record of event.Records) started.push(handle(record));
  return started.length;
};
`).map(({ line }) => line),
    ).toEqual([4]);
  });

  it('takes no dispatch from a chain of typeof tests: they ask what JavaScript type a value is', () => {
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
async function fromText(data) {}
async function fromObject(data) {}
new Worker('parse', async (job) => {
  if (typeof job.data.value === 'string') await fromText(job.data);
  else if (typeof job.data.value === 'object') await fromObject(job.data);
});
`),
    ).toEqual([{ broker: 'bullmq', queue: 'parse', line: 5 }]);
  });

  it("takes the functions of a processor class's own table field that it picks by the job's name", () => {
    expect(
      handlersIn(`
import { Processor, WorkerHost } from '@nestjs/bullmq';
@Processor('message')
export class MessageProcessor extends WorkerHost {
  private messagesMap: Record<string, (job) => Promise<void>> = {
    email: async (job) => {
      await this.handleEmail(job);
    },
    sms: async (job) => this.handleSms(job),
  };
  async process(job) {
    await this.messagesMap[job.name](job);
  }
  async handleEmail(job) {}
  async handleSms(job) {}
}
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'email', line: 6 },
      { broker: 'bullmq', queue: 'sms', line: 9 },
      { broker: 'bullmq', queue: 'message', line: 11 },
      // The methods the picked functions only hand the job to do each type's work.
      { broker: 'bullmq', queue: 'email', line: 14 },
      { broker: 'bullmq', queue: 'sms', line: 15 },
    ]);
  });
  it('takes what a processor picks in the method it only hands the job to, on a class of the file made in place', () => {
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
class ReadmeWorker {
  constructor(private deps) {}
  async subgraph(job) { await this.deps.db.insert(job.data.id); }
  async federated(job) { await this.deps.db.update(job.data.id); }
  async handler(job) {
    try {
      if (job.data.type === 'subgraph') await this.subgraph(job);
      else if (job.data.type === 'federated') await this.federated(job);
      else throw new Error('unknown type');
    } catch (err) {
      throw err;
    }
  }
}
export const createReadmeWorker = (deps) => new Worker('readme', (job) => new ReadmeWorker(deps).handler(job));
new Worker('log', async (job) => { await new ReadmeWorker({}).handler({ data: { type: 'subgraph' } }); });
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'subgraph', line: 5 },
      { broker: 'bullmq', queue: 'federated', line: 6 },
      // The method the processor only hands its job to, the processor's own row; the second
      // processor hands on no part of its job, so it picks nothing.
      { broker: 'bullmq', queue: 'readme', line: 7 },
      { broker: 'bullmq', queue: 'readme', line: 17 },
      { broker: 'bullmq', queue: 'log', line: 18 },
    ]);
  });

  it('takes no function from a branch that does its work itself, calling several of the project’s', () => {
    expect(
      handlersIn(
        `
import { findApplication, extractImageName, extractBranchName, deploy } from './deploy';
export default async function handler(req, res) {
  const application = await findApplication(req.query.refreshToken);
  if (application.sourceType === 'docker') {
    const image = extractImageName(application.dockerImage);
    if (image !== req.body.image) return res.status(301).end();
    await deploy(application, image);
  } else if (application.sourceType === 'github') {
    const branch = extractBranchName(req.headers, req.body);
    if (branch !== application.branch) return res.status(301).end();
    await deploy(application, branch);
  }
}
`,
        { filename: 'pages/api/deploy/[refreshToken].ts' },
      ).filter(({ line }) => line !== 3),
    ).toEqual([]);
  });

  it("takes the default export of a framework's subscribers folder, with the event its folder names", () => {
    const subscriber = `
const buildUrlRewrite: EventSubscriber<'product_created'> = async (data) => { await rewrite(data); };
export default buildUrlRewrite;
`;
    expect(
      handlersIn(subscriber, { filename: 'src/modules/catalog/subscribers/product_created/buildUrlRewrite.ts' }),
    ).toEqual([{ broker: 'event-subscriber', queue: 'product_created', line: 2 }]);
    expect(handlersIn(subscriber, { filename: 'src/modules/catalog/services/buildUrlRewrite.ts' })).toEqual([]);
  });

  it("takes the work method of a project's worker object or of a class extending its base worker or queue", () => {
    expect(
      handlersIn(`
export const Heartbeat: IWorkerAdapter<Arg, Result> = {
  ...WorkerAdapter,
  key: 'heartbeat',
  doWork: async (input: Arg) => ({ success: true, result: input }),
};
export const Mailer = { ...WorkerAdapter, type: 'EMAIL', async doWork(input) { await send(input); } };
export const Theme: ThemeAdapter = { process: (input) => input };
export class PredictionQueue extends BaseQueue {
  async processJob(data) { await predict(data); }
  getQueueName() { return 'prediction'; }
}
export class Receiver extends PrioritizedQueueReciever {
  override async processMessage(message) { await sink(message); }
}
export class Form extends Component { process(input) {} }
`),
    ).toEqual([
      { broker: 'project-worker', queue: undefined, line: 5 },
      { broker: 'project-worker', queue: undefined, line: 7 },
      { broker: 'project-worker', queue: undefined, line: 10 },
      { broker: 'project-worker', queue: undefined, line: 14 },
    ]);
  });

  it('leaves out a job a timer starts in the process and an external worker whose work runs elsewhere', () => {
    expect(
      handlersIn(`
const job: IJobDefinition = { name: 'backup', cronTime: '0 0 * * *', process: async (ctx) => { await backup(ctx); } };
export const External: IWorkerAdapter<Arg, Result> = {
  ...WorkerAdapter,
  external: true,
  async doWork() { throw new Error('Cannot do work for external workers'); },
};
const queued: IJobDefinition = { name: 'sync', process: async (job) => { await sync(job); } };
`),
    ).toEqual([{ broker: 'project-worker', queue: undefined, line: 8 }]);
  });
});

describe('webhook libraries', () => {
  it("takes a function passed by name to a webhook object's createHandler, not a webhook list's callbacks", () => {
    expect(
      handlersIn(`
import { orderPaidWebhook } from '../../webhooks/order-paid';
export const handler = async (req, res, context) => { res.status(200).end(); };
export default orderPaidWebhook.createHandler(handler);
const active = webhooks.filter((webhook) => webhook.isActive);
`),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 3 }]);
  });
});

describe('message identity of the new brokers', () => {
  it('names the id each runner keeps across retries', () => {
    expect(
      identitiesIn(`
import { task } from '@trigger.dev/sdk';
import PgBoss from 'pg-boss';
import Agenda from 'agenda';
import { Processor, WorkerHost } from '@nestjs/bullmq';
export const sync = task({ id: 'sync', run: async (payload, { ctx }) => { await go(); } });
boss.work('refunds', async ([job]) => { await go(); });
agenda.define('purge', async (job) => { await go(); });
@Processor('q')
class P extends WorkerHost { async process(job) { await go(); } }
`),
    ).toEqual(['6: ctx.run.id', '7: job.id', '8: job.attrs._id', '10: job.id']);
  });
});

describe("Vendure's job queue", () => {
  it('finds the process function of createQueue on an injected JobQueueService, inline or a method', () => {
    expect(
      handlersIn(`
import { JobQueueService } from '@vendure/core';
export class SearchIndexService {
  constructor(private jobService: JobQueueService) {}
  async onApplicationBootstrap() {
    await this.jobService.createQueue({
      name: 'update-search-index',
      process: job => this.reindex(job.data),
    });
    await this.jobService.createQueue({ name: 'apply-collection-filters', process: this.applyFilters.bind(this) });
  }
  private async reindex(data: unknown) {}
  private async applyFilters(job: unknown) {}
}
`),
    ).toEqual([
      { broker: 'vendure-job-queue', queue: 'update-search-index', line: 8 },
      // The method the inline process function hands the job's data to.
      { broker: 'vendure-job-queue', queue: 'update-search-index', line: 12 },
      { broker: 'vendure-job-queue', queue: 'apply-collection-filters', line: 13 },
    ]);
  });

  it('needs the JobQueueService import: another library’s createQueue, or one without process, registers nothing', () => {
    expect(
      handlersIn(`
import { CloudTasksClient } from '@google-cloud/tasks';
const client = new CloudTasksClient();
export async function setUp() {
  await client.createQueue({ name: 'tasks', process: (task: unknown) => task });
}
`),
    ).toEqual([]);
    expect(
      handlersIn(`
import { JobQueueService } from '@vendure/core';
export async function setUp(jobs: JobQueueService) {
  await jobs.createQueue({ name: 'noop' });
}
`),
    ).toEqual([]);
  });
});

describe('handlers named as static methods of a class in the file', () => {
  it('finds `Class.method` handed to a registration, and not a static method of a class from elsewhere', () => {
    expect(
      handlersIn(`
import Agenda from 'agenda';
const agenda = new Agenda();
export class EventNotifier {
  constructor() {
    agenda.define('eventCreated', EventNotifier.jobHandler);
    agenda.define('eventUpdated', Imported.jobHandler);
  }
  private static async jobHandler(job: { attrs: { data: unknown } }) {}
}
`),
    ).toEqual([{ broker: 'agenda', queue: 'eventCreated', line: 9 }]);
  });
});
