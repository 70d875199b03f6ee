import { describe, expect, it } from 'vitest';

import { handlersOfRepo, inventoryOf, writeRepo } from './helpers.js';

const DECORATOR = [
  "import { MessagePattern } from '@nestjs/microservices';",
  '',
  '/** The project names its job workers with a decorator of its own. */',
  'export const ZeebeWorker = (taskType: string, options?: object): MethodDecorator => {',
  '  return MessagePattern(taskType, { options });',
  '};',
  "export const Roles = (...roles: string[]) => SetMetadata('roles', roles);",
  "import { SetMetadata } from '@nestjs/common';",
  '',
].join('\n');

const CONTROLLER = [
  "import { Controller } from '@nestjs/common';",
  "import { ZeebeWorker, Roles } from './zeebe/worker.decorator';",
  '',
  '@Controller()',
  'export class ApplicationController {',
  "  @ZeebeWorker('update-application-status')",
  '  async updateApplicationStatus(job: { variables: { id: string } }) {',
  "    await fetch('https://api.example.com/status', { method: 'POST', body: job.variables.id, signal: AbortSignal.timeout(5000) });",
  '  }',
  '',
  "  @Roles('admin')",
  '  async list() {',
  '    return [];',
  '  }',
  '}',
  '',
].join('\n');

describe("a project's own name for a handler decorator", () => {
  it('lists the methods a decorator of another module decorates when that decorator returns a library handler decorator', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "workers", "type": "module" }',
      'src/zeebe/worker.decorator.ts': DECORATOR,
      'src/application.controller.ts': CONTROLLER,
    });
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/application.controller.ts', line: 7, broker: 'nestjs-microservices' },
    ]);
  });

  it('lists through applyDecorators, and nothing when the decorator returns something else', () => {
    const composed = DECORATOR.replace(
      'return MessagePattern(taskType, { options });',
      'return applyDecorators(MessagePattern(taskType), UseFilters(new RpcFilter()));\n  // composed',
    ).replace(
      "import { MessagePattern } from '@nestjs/microservices';",
      "import { MessagePattern } from '@nestjs/microservices';\nimport { applyDecorators, UseFilters } from '@nestjs/common';",
    );
    expect(
      inventoryOf({
        'package.json': '{ "name": "workers", "type": "module" }',
        'src/zeebe/worker.decorator.ts': composed,
        'src/application.controller.ts': CONTROLLER,
      }),
    ).toHaveLength(1);
    expect(
      inventoryOf({
        'package.json': '{ "name": "workers", "type": "module" }',
        'src/zeebe/worker.decorator.ts': DECORATOR.replace(
          'return MessagePattern(taskType, { options });',
          "return SetMetadata('task', taskType);",
        ),
        'src/application.controller.ts': CONTROLLER,
      }),
    ).toEqual([]);
  });
});

describe('a Probot app function', () => {
  const app = [
    "const yaml = require('js-yaml');",
    'module.exports = (robot) => {',
    "  robot.on('push', async (context) => {",
    "    await fetch('https://api.example.com/sync', { method: 'POST', body: 'x', signal: AbortSignal.timeout(5000) });",
    '  });',
    "  robot.on(['check_suite.rerequested'], async (context) => {});",
    '};',
    '',
  ].join('\n');

  it("lists the handlers the module's exported function registers on its app when the package depends on probot", () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "settings-app", "dependencies": { "probot": "^12.3.3" } }',
      'index.js': app,
    });
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'index.js', line: 3, broker: 'webhook' },
      { file: 'index.js', line: 6, broker: 'webhook' },
    ]);
  });

  it('lists nothing from the same code in a package that does not depend on probot', () => {
    expect(inventoryOf({ 'package.json': '{ "name": "settings-app" }', 'index.js': app })).toEqual([]);
  });
});

describe('a class that extends a base named like a worker', () => {
  const subclass = (base: string): string =>
    [
      `import { ${base} } from './base';`,
      `export class InvoiceJob extends ${base} {`,
      '  async process(data: { id: string }) {',
      "    await fetch('https://api.example.com/invoices', { method: 'POST', body: data.id, signal: AbortSignal.timeout(5000) });",
      '  }',
      '}',
      '',
    ].join('\n');

  it("lists its work method when the base takes deliveries, and not when the base is only the project's strategy type", () => {
    const queueBase = [
      "import Queue from 'bull';",
      'export abstract class BaseQueue {',
      '  queue = new Queue(this.constructor.name);',
      '  start() {',
      '    this.queue.process(async (job) => this.process(job.data));',
      '  }',
      '  abstract process(data: unknown): Promise<void>;',
      '}',
      '',
    ].join('\n');
    const strategyBase = [
      'export abstract class EvaluationResultProcessor {',
      '  abstract process(data: unknown): Promise<void>;',
      '  protected log(message: string) {',
      '    console.log(message);',
      '  }',
      '}',
      '',
    ].join('\n');
    const listed = (base: string, text: string) =>
      inventoryOf({
        'package.json': '{ "name": "jobs", "type": "module" }',
        'src/base.ts': text,
        'src/invoice.ts': subclass(base),
      }).filter(({ file }) => file === 'src/invoice.ts');
    expect(listed('BaseQueue', queueBase)).toHaveLength(1);
    expect(listed('EvaluationResultProcessor', strategyBase)).toEqual([]);
  });

  it("lists its work method when the base's abstract work method takes a broker's job, wherever the queue module registers it", () => {
    const base = (job: string) =>
      [
        "import PgBoss, { Job } from 'pg-boss';",
        'export abstract class BaseWorker<T> {',
        '  constructor(protected pgBoss: PgBoss) {}',
        `  abstract process(jobs: ${job}): Promise<void>;`,
        '  async send(data: T) {',
        "    return this.pgBoss.send('invoice', data);",
        '  }',
        '}',
        '',
      ].join('\n');
    const listed = (text: string) =>
      inventoryOf({
        'package.json': '{ "name": "jobs", "type": "module" }',
        'src/base.ts': text,
        'src/invoice.ts': subclass('BaseWorker'),
      })
        .filter(({ file }) => file === 'src/invoice.ts')
        .map(({ file, line, broker }) => ({ file, line, broker }));
    expect(listed(base('Job<T>[]'))).toEqual([{ file: 'src/invoice.ts', line: 3, broker: 'project-worker' }]);
    expect(listed(base('T[]'))).toEqual([]);
  });
});

describe("a registrar's class whose instance another module imports", () => {
  const broadcast = [
    "import { Redis } from 'ioredis';",
    'export class Broadcast {',
    '  private subscriber?: Redis;',
    '  constructor(private readonly url: string) {}',
    '  async start(handler: (event: unknown) => Promise<void>) {',
    '    await this.initialize(this.url, handler);',
    '  }',
    '  private async initialize(url: string, handler: (event: unknown) => Promise<void>) {',
    '    this.subscriber = new Redis(url);',
    "    this.subscriber.on('message', async (channel, raw) => {",
    '      await handler(JSON.parse(String(raw)));',
    '    });',
    "    await this.subscriber.subscribe('monitor');",
    '  }',
    '}',
    'export const broadcast = new Broadcast(process.env.REDIS_URL ?? "");',
    '',
  ].join('\n');
  const manager = [
    'export class Manager {',
    '  async handleBroadcast(event: unknown) {',
    "    await fetch('https://api.example.com/monitors', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) });",
    '  }',
    '}',
    'export const manager = new Manager();',
    '',
  ].join('\n');
  const main = (handler: string) =>
    [
      "import { broadcast } from './broadcast.js';",
      "import { manager } from './manager.js';",
      `await broadcast.start(${handler});`,
      '',
    ].join('\n');
  const rows = (handler: string) =>
    inventoryOf({
      'package.json': '{ "name": "monitor", "type": "module", "dependencies": { "ioredis": "5.4.1" } }',
      'src/broadcast.ts': broadcast,
      'src/manager.ts': manager,
      'src/main.ts': main(handler),
    }).map(({ file, line, broker }) => ({ file, line, broker }));

  it('lists what the instance is handed and the method of another module it hands the whole message to', () => {
    expect(rows('(event) => manager.handleBroadcast(event)')).toEqual([
      { file: 'src/broadcast.ts', line: 10, broker: 'redis-pubsub' },
      { file: 'src/main.ts', line: 3, broker: 'redis-pubsub' },
      { file: 'src/manager.ts', line: 2, broker: 'redis-pubsub' },
    ]);
  });

  it('finds the method when the instance is made in a module of its own, of a class it imports', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "monitor", "type": "module", "dependencies": { "ioredis": "5.4.1" } }',
      'src/broadcast.ts': broadcast,
      'src/manager.ts': manager.replace('export const manager = new Manager();', ''),
      'src/index.ts': "import { Manager } from './manager.js';\nexport const manager = new Manager();\n",
      'src/main.ts': main('(event) => manager.handleBroadcast(event)').replace("'./manager.js'", "'./index.js'"),
    });
    expect(rows.map(({ file, line }) => `${file}:${line}`)).toEqual([
      'src/broadcast.ts:10',
      'src/main.ts:3',
      'src/manager.ts:2',
    ]);
  });

  it('lists no method it hands only a part of the message, or that it calls besides other work', () => {
    expect(rows('(event) => manager.handleBroadcast(String(event).length)')).toEqual([
      { file: 'src/broadcast.ts', line: 10, broker: 'redis-pubsub' },
      { file: 'src/main.ts', line: 3, broker: 'redis-pubsub' },
    ]);
    expect(
      rows(
        'async (event) => { console.log(event); await manager.handleBroadcast(event); await manager.handleBroadcast(event); }',
      ),
    ).toEqual([
      { file: 'src/broadcast.ts', line: 10, broker: 'redis-pubsub' },
      { file: 'src/main.ts', line: 3, broker: 'redis-pubsub' },
    ]);
  });
});

describe('a route module of a Remix app that imports nothing of the framework', () => {
  const action = [
    "import shopify from '../shopify.server';",
    'export const action = async ({ request }) => {',
    '  const { shop } = await shopify.authenticate.webhook(request);',
    "  await fetch('https://api.example.com/uninstall', { method: 'POST', body: shop, signal: AbortSignal.timeout(5000) });",
    '  return new Response();',
    '};',
    '',
  ].join('\n');

  it("takes its action for the route's handler, by the routes folder of a package that depends on Remix", () => {
    const files = {
      'app/shopify.server.ts':
        'export default { authenticate: { webhook: async (request: Request) => ({ shop: "x" }) } };\n',
      'app/routes/webhooks.app.uninstalled.ts': action,
    };
    expect(
      inventoryOf({ 'package.json': '{ "name": "shop", "dependencies": { "@remix-run/node": "2" } }', ...files }),
    ).toEqual([{ file: 'app/routes/webhooks.app.uninstalled.ts', line: 2, name: 'action', broker: 'webhook' }]);
    expect(inventoryOf({ 'package.json': '{ "name": "shop" }', ...files })).toEqual([]);
  });
});

describe("a processor another module registers, which picks other modules' functions by the job's name", () => {
  it('lists the functions it picks with it, and nothing when no module registers it', () => {
    const processor = [
      "import { Job } from 'bullmq';",
      "import webhook from './processes/webhook';",
      "import reset from './processes/reset';",
      'export async function processor(job: Job) {',
      '  switch (job.name) {',
      "    case 'webhook':",
      '      await webhook(job.data);',
      '      break;',
      "    case 'reset':",
      '      await reset(job.data);',
      '      break;',
      '  }',
      '}',
      '',
    ].join('\n');
    const work = (what: string): string =>
      `export default async function (data: { id: string }) {\n  await fetch('https://api.example.com/${what}', { method: 'POST', body: data.id, signal: AbortSignal.timeout(5000) });\n}\n`;
    const files = {
      'package.json': '{ "name": "jobs", "type": "module" }',
      'src/processor.ts': processor,
      'src/processes/webhook.ts': work('webhook'),
      'src/processes/reset.ts': work('reset'),
    };
    const worker =
      "import { Worker } from 'bullmq';\nimport { processor } from './processor';\nexport const worker = new Worker('jobs', processor);\n";
    expect(inventoryOf({ ...files, 'src/worker.ts': worker }).map(({ file, broker }) => ({ file, broker }))).toEqual([
      { file: 'src/processes/reset.ts', broker: 'bullmq' },
      { file: 'src/processes/webhook.ts', broker: 'bullmq' },
      { file: 'src/processor.ts', broker: 'bullmq' },
    ]);
    expect(inventoryOf(files)).toEqual([]);
  });

  it("lists what ifs pick by an enum's members (compared as a case's literals are), not by a value of the handler's own", () => {
    const processor = (compared: [string, string]): string =>
      [
        "import { Job, Worker } from 'bullmq';",
        "import { JobTypes } from './types';",
        "import sync from './processes/sync';",
        "import purge from './processes/purge';",
        'export async function processor(job: Job, limits: { low: string; high: string }) {',
        `  if (job.data.type === ${compared[0]}) return sync(job.data);`,
        `  if (job.data.type === ${compared[1]}) return purge(job.data);`,
        '}',
        "export const worker = new Worker('jobs', processor);",
        '',
      ].join('\n');
    const work = (what: string): string =>
      `export default async function (data: { id: string }) {\n  await fetch('https://api.example.com/${what}', { method: 'POST', body: data.id, signal: AbortSignal.timeout(5000) });\n}\n`;
    const files = (compared: [string, string]) => ({
      'package.json': '{ "name": "jobs", "type": "module" }',
      'src/types.ts': "export enum JobTypes {\n  SYNC = 'sync',\n  PURGE = 'purge',\n}\n",
      'src/processor.ts': processor(compared),
      'src/processes/sync.ts': work('sync'),
      'src/processes/purge.ts': work('purge'),
    });
    expect(inventoryOf(files(['JobTypes.SYNC', 'JobTypes.PURGE'])).map(({ file }) => file)).toEqual([
      'src/processes/purge.ts',
      'src/processes/sync.ts',
      'src/processor.ts',
    ]);
    expect(inventoryOf(files(['limits.low', 'limits.high'])).map(({ file }) => file)).toEqual(['src/processor.ts']);
    // Items of the job taken one by one are split by their kind, not deliveries by their type.
    const items = files(['JobTypes.SYNC', 'JobTypes.PURGE']);
    items['src/processor.ts'] = items['src/processor.ts']
      .replace(
        'export async function processor(job: Job, limits: { low: string; high: string }) {',
        'export async function processor(job: Job) {\n  for (const item of job.data.items) {',
      )
      .replaceAll('job.data.type', 'item.type')
      .replace('return purge(job.data);', 'return purge(job.data);\n  }');
    expect(inventoryOf(items).map(({ file }) => file)).toEqual(['src/processor.ts']);
  });

  it("lists a switch's one case beside a default for the other names, and not one guarded call", () => {
    const processor = (pick: string): string =>
      [
        "import { Job, Worker } from 'bullmq';",
        "import webhook from './processes/webhook';",
        'export async function processor(job: Job) {',
        pick,
        '}',
        "export const worker = new Worker('jobs', processor);",
        '',
      ].join('\n');
    const files = (pick: string) => ({
      'package.json': '{ "name": "jobs", "type": "module" }',
      'src/processor.ts': processor(pick),
      'src/processes/webhook.ts':
        "export default async function (data: { id: string }) {\n  await fetch('https://api.example.com/webhook', { method: 'POST', body: data.id, signal: AbortSignal.timeout(5000) });\n}\n",
    });
    const switched =
      "  switch (job.name) {\n    case 'webhook':\n      return webhook(job.data);\n    default:\n      console.warn(`Job ${job.name} is not handled.`);\n  }";
    expect(inventoryOf(files(switched)).map(({ file }) => file)).toEqual([
      'src/processes/webhook.ts',
      'src/processor.ts',
    ]);
    const guarded = "  if (job.name === 'webhook') await webhook(job.data);";
    expect(inventoryOf(files(guarded)).map(({ file }) => file)).toEqual(['src/processor.ts']);
    // A service's method called in the one case is that type's work, not a handler of its own.
    const serviced = {
      ...files(switched.replace('return webhook(job.data)', 'return hooks.send(job.data)')),
      'src/hooks.ts':
        "export const hooks = { send: async (data: { id: string }) => fetch('https://api.example.com/hook', { method: 'POST', body: data.id, signal: AbortSignal.timeout(5000) }) };\n",
    };
    serviced['src/processor.ts'] = serviced['src/processor.ts'].replace(
      "import webhook from './processes/webhook';",
      "import { hooks } from './hooks';",
    );
    expect(inventoryOf(serviced).map(({ file }) => file)).toEqual(['src/processor.ts']);
  });
});

describe('a handler that only hands its delivery on', () => {
  const files = (action: string) => ({
    'package.json': '{ "name": "payments", "dependencies": { "ffc-messaging": "2.10.7" } }',
    'app/messaging/index.js': [
      "const { MessageReceiver } = require('ffc-messaging');",
      "const { processPaymentMessage } = require('./process-payment-message');",
      'let paymentReceiver;',
      'const start = async () => {',
      `  const paymentAction = ${action};`,
      '  paymentReceiver = new MessageReceiver(config.processingSubscription, paymentAction);',
      '  await paymentReceiver.subscribe();',
      '};',
      'module.exports = { start };',
      '',
    ].join('\n'),
    'app/messaging/process-payment-message.js': [
      "const { savePayment } = require('../payments');",
      'const processPaymentMessage = async (message, receiver) => {',
      '  await savePayment(message.body);',
      '  await receiver.completeMessage(message);',
      '};',
      'module.exports = { processPaymentMessage };',
      '',
    ].join('\n'),
  });

  it('lists the function of another module it hands the message to, beside its own row', () => {
    expect(inventoryOf(files('(message) => processPaymentMessage(message, paymentReceiver)'))).toEqual([
      { file: 'app/messaging/index.js', line: 5, name: 'paymentAction', broker: 'ffc-messaging' },
      {
        file: 'app/messaging/process-payment-message.js',
        line: 2,
        name: 'processPaymentMessage',
        broker: 'ffc-messaging',
      },
    ]);
  });

  it('lists nothing more when it hands on only a part a helper takes for something else, or does more than hand it on', () => {
    expect(inventoryOf(files('(message) => processPaymentMessage(message.body.url, paymentReceiver)'))).toEqual([
      { file: 'app/messaging/index.js', line: 5, name: 'paymentAction', broker: 'ffc-messaging' },
    ]);
    expect(
      inventoryOf(files('async (message) => { log(message); await processPaymentMessage(message, paymentReceiver); }')),
    ).toEqual([{ file: 'app/messaging/index.js', line: 5, name: 'paymentAction', broker: 'ffc-messaging' }]);
  });
});

describe('a handler that hands its delivery to a service it looks up in a container', () => {
  const files = (listener: string, type = "import type { FollowHandler } from './follow.handler';") => ({
    'package.json': '{ "name": "social", "dependencies": { "@fedify/fedify": "1.8.0", "awilix": "12.0.0" } }',
    'src/app.ts': [
      "import { createFederation, Follow } from '@fedify/fedify';",
      "import { container } from './container';",
      type,
      'const federation = createFederation({});',
      "federation.setInboxListeners('/inbox/{identifier}', '/inbox').on(Follow, async (ctx, follow) => {",
      listener,
      '});',
      '',
    ].join('\n'),
    'src/container.ts': "import { createContainer } from 'awilix';\nexport const container = createContainer();\n",
    'src/follow.handler.ts': [
      'export class FollowHandler {',
      '  async handle(ctx: unknown, follow: { id: string }) {',
      "    await fetch('https://social.example.com/accept', { method: 'POST', body: follow.id, signal: AbortSignal.timeout(5000) });",
      '  }',
      '}',
      '',
    ].join('\n'),
  });

  it("lists the method of the class the lookup's type argument names, beside the listener", () => {
    const rows = inventoryOf(
      files(
        "  const handler = container.resolve<FollowHandler>('followHandler');\n  return handler.handle(ctx, follow);",
      ),
    );
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/app.ts', line: 5, broker: 'webhook' },
      { file: 'src/follow.handler.ts', line: 2, broker: 'webhook' },
    ]);
  });

  it('lists the function an imported factory returns when the lookup is declared as its ReturnType', () => {
    const rows = inventoryOf({
      ...files(
        "  const accept = container.resolve<ReturnType<typeof createAcceptHandler>>('acceptHandler');\n  return accept(ctx, follow);",
        "import type { createAcceptHandler } from './accept';",
      ),
      'src/accept.ts': [
        'export function createAcceptHandler(db: { save(id: string): Promise<void> }) {',
        '  return async function handleAccept(ctx: unknown, accept: { id: string }) {',
        '    await db.save(accept.id);',
        '  };',
        '}',
        '',
      ].join('\n'),
    });
    expect(rows.map(({ file, line }) => ({ file, line }))).toEqual([
      { file: 'src/accept.ts', line: 2 },
      { file: 'src/app.ts', line: 5 },
    ]);
  });

  it('lists only the listener when the service it looks up does other work with the delivery too', () => {
    const rows = inventoryOf(
      files(
        "  const handler = container.resolve<FollowHandler>('followHandler');\n  await handler.handle(ctx, follow);\n  await handler.handle(ctx, follow);",
      ),
    );
    expect(rows.map(({ file, line }) => ({ file, line }))).toEqual([{ file: 'src/app.ts', line: 5 }]);
  });
});

describe('a CommonJS module that exports what it requires', () => {
  it('leads the composition on to the module that defines the function', () => {
    const files = {
      'package.json': '{ "name": "payments", "dependencies": { "ffc-messaging": "2.10.7" } }',
      'app/messaging/index.js': [
        "const { MessageReceiver } = require('ffc-messaging');",
        "const { processPayment } = require('../payments');",
        'const receiver = new MessageReceiver(config, (message) => processPayment(message.body));',
        'module.exports = { receiver };',
        '',
      ].join('\n'),
      'app/payments/index.js': [
        "const { processPayment } = require('./process-payment');",
        'module.exports = { processPayment };',
        '',
      ].join('\n'),
      'app/payments/process-payment.js': [
        'const processPayment = async (payment) => {',
        "  await fetch('https://bank.example.com/payments', { method: 'POST', body: JSON.stringify(payment), signal: AbortSignal.timeout(5000) });",
        '};',
        'module.exports = { processPayment };',
        '',
      ].join('\n'),
    };
    const rows = handlersOfRepo(writeRepo(files)).map(({ file, line, effects, verdict }) => ({
      file,
      line,
      effects,
      verdict,
    }));
    expect(rows).toEqual([
      { file: 'app/messaging/index.js', line: 3, effects: ['http-write'], verdict: 'unprotected' },
      { file: 'app/payments/process-payment.js', line: 1, effects: ['http-write'], verdict: 'unprotected' },
    ]);
  });
});

describe('methods a decorator of the project puts in a table that a delivery handler looks up', () => {
  const files = {
    'package.json': '{ "name": "api", "dependencies": { "@nestjs/common": "10.0.0" } }',
    'src/hasura/hasura.controller.ts': [
      "import { Controller, Post, Req } from '@nestjs/common';",
      '',
      'const _events: Record<string, { target: unknown }> = {};',
      'const _actions: Record<string, { target: unknown }> = {};',
      'export const HasuraEvent = (): MethodDecorator => (target, propertyKey: string) => {',
      '  _events[propertyKey] = { target };',
      '};',
      'export const HasuraAction = (): MethodDecorator => (target, propertyKey: string) => {',
      '  _actions[propertyKey] = { target };',
      '};',
      '',
      "@Controller('hasura')",
      'export class HasuraController {',
      "  @Post('events')",
      '  async events(@Req() request: { body: { event: { op: string; data: unknown }; trigger: { name: string } } }) {',
      '    const { event, trigger } = request.body;',
      '    const handler = _events[trigger.name];',
      '    return (handler.target as Record<string, (data: unknown) => Promise<void>>)[trigger.name]({ op: event.op, data: event.data });',
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/chat/chat.controller.ts': [
      "import { HasuraAction, HasuraEvent } from '../hasura/hasura.controller';",
      '',
      'export class ChatController {',
      '  @HasuraEvent()',
      '  async chat_lobbies_removed(data: { old: { id: string } }) {',
      "    await fetch('https://chat.example.com/lobbies/' + data.old.id, { method: 'DELETE', signal: AbortSignal.timeout(5000) });",
      '  }',
      '',
      '  @HasuraAction()',
      '  async sendMessage(data: { text: string }) {',
      '    return data.text;',
      '  }',
      '}',
      '',
    ].join('\n'),
  };

  it('lists the receiver of Hasura event triggers and each method its decorator stores, not those of a table no handler reads', () => {
    expect(inventoryOf(files)).toEqual([
      { file: 'src/chat/chat.controller.ts', line: 5, name: 'chat_lobbies_removed', broker: 'webhook' },
      { file: 'src/hasura/hasura.controller.ts', line: 15, broker: 'webhook' },
    ]);
  });
  it('lists the methods of a module the prefilter sets aside, imported through a baseUrl specifier', () => {
    // Nothing in the draft controller's text is a rule's anchor: it is read because it imports
    // the decorator, by the `src/…` specifier its tsconfig's baseUrl resolves.
    const aliased = {
      ...files,
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": "./", "experimentalDecorators": true }, "include": ["src"] }',
      'src/drafts/drafts.controller.ts': [
        "import { HasuraEvent } from 'src/hasura/hasura.controller';",
        '',
        'export class DraftsController {',
        '  constructor(private readonly drafts: { remove(id: string): Promise<void> }) {}',
        '  @HasuraEvent()',
        '  async draft_events(data: { old: { id: string } }) {',
        '    await this.drafts.remove(data.old.id);',
        '  }',
        '}',
        '',
      ].join('\n'),
    };
    expect(inventoryOf(aliased)).toEqual([
      { file: 'src/chat/chat.controller.ts', line: 5, name: 'chat_lobbies_removed', broker: 'webhook' },
      { file: 'src/drafts/drafts.controller.ts', line: 6, name: 'draft_events', broker: 'webhook' },
      { file: 'src/hasura/hasura.controller.ts', line: 15, broker: 'webhook' },
    ]);
  });
});

describe("a Cloudflare Worker's queue consumer named in its default export", () => {
  it('lists a function of the file, and one of another module, where it is defined', () => {
    const worker = (queue: string) => ({
      'package.json': '{ "name": "worker" }',
      'src/index.ts': [
        "import { processBatch } from './notifications';",
        'async function consume(batch: { messages: { body: unknown }[] }) {',
        '  for (const message of batch.messages) await save(message.body);',
        '}',
        `export default { fetch: () => new Response('ok'), queue: ${queue} };`,
        '',
      ].join('\n'),
      'src/notifications.ts':
        'export async function processBatch(batch: { messages: unknown[] }) { await send(batch.messages); }\n',
    });
    expect(inventoryOf(worker('consume'))).toEqual([
      { file: 'src/index.ts', line: 2, name: 'consume', broker: 'cloudflare-queues' },
    ]);
    expect(inventoryOf(worker('processBatch'))).toEqual([
      { file: 'src/notifications.ts', line: 1, name: 'processBatch', broker: 'cloudflare-queues' },
    ]);
  });
});

describe("a consumer that picks functions of a module it imports through the project's own path alias", () => {
  const files = (specifier: string) => ({
    'package.json': '{ "name": "users", "dependencies": { "amqplib": "0.10.4", "lodash": "4.17.21" } }',
    'tsconfig.json': JSON.stringify({
      compilerOptions: { baseUrl: '.', paths: { '@users/*': ['src/*'] }, module: 'commonjs', strict: true },
    }),
    'src/queues/consumer.ts': [
      "import { Channel, ConsumeMessage } from 'amqplib';",
      `import { createBuyer, updateBuyer } from '${specifier}';`,
      'export function consumeBuyers(channel: Channel) {',
      "  channel.consume('buyers', async (msg: ConsumeMessage | null) => {",
      '    const { type } = JSON.parse(msg!.content.toString());',
      "    if (type === 'auth') {",
      '      const { username, email } = JSON.parse(msg!.content.toString());',
      '      const buyer = { username, email, purchasedGigs: [] };',
      '      await createBuyer(buyer);',
      '    } else {',
      '      const { buyerId } = JSON.parse(msg!.content.toString());',
      '      await updateBuyer(buyerId, type);',
      '    }',
      '    channel.ack(msg!);',
      '  });',
      '}',
      '',
    ].join('\n'),
    'src/services/buyer.ts': [
      'export async function createBuyer(buyer: { username: string }) {',
      "  await fetch('https://api.example.com/buyers', { method: 'POST', body: JSON.stringify(buyer), signal: AbortSignal.timeout(5000) });",
      '}',
      'export async function updateBuyer(id: string, type: string) {',
      "  await fetch(`https://api.example.com/buyers/${id}`, { method: 'PUT', body: type, signal: AbortSignal.timeout(5000) });",
      '}',
      '',
    ].join('\n'),
  });

  it('lists each function a branch hands the message to, once it has decoded and put together its parts', () => {
    expect(
      inventoryOf(files('@users/services/buyer')).map(({ file, line, broker }) => ({ file, line, broker })),
    ).toEqual([
      { file: 'src/queues/consumer.ts', line: 4, broker: 'amqplib' },
      { file: 'src/services/buyer.ts', line: 1, broker: 'amqplib' },
      { file: 'src/services/buyer.ts', line: 4, broker: 'amqplib' },
    ]);
  });
});

describe('a function of another module a handler reaches, which picks by a field of what it is handed', () => {
  it('is listed as the delivery’s dispatcher with its picks that may do work, not its pure ones', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "deployer", "type": "module" }',
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { deploy } from './deploy.js';",
        "new Worker('deploys', async (job) => {",
        "  console.log('deploying');",
        '  const result = await deploy(job.data);',
        "  await fetch('https://api.example.com/done', { method: 'POST', body: String(result), signal: AbortSignal.timeout(5000) });",
        '});',
        '',
      ].join('\n'),
      'src/deploy.ts': [
        "import { cloneRepository, dockerCommand, lookUp } from './providers.js';",
        'export async function deploy(job: { source: string; id: string }) {',
        "  if (job.source === 'git') return cloneRepository(job.id);",
        "  if (job.source === 'docker') return dockerCommand(job.id);",
        "  if (job.source === 'registry') return lookUp(job.id);",
        "  return '';",
        '}',
        '',
      ].join('\n'),
      'src/providers.ts': [
        "import { audit } from './generated/audit.js';",
        'export async function cloneRepository(id: string) {',
        "  await fetch('https://api.example.com/keys', { method: 'PUT', body: id, signal: AbortSignal.timeout(5000) });",
        '  return `git clone ${id}`;',
        '}',
        'export function dockerCommand(id: string) {',
        '  return `docker pull ${id}`;',
        '}',
        'export async function lookUp(id: string) {',
        '  return audit(id);',
        '}',
        '',
      ].join('\n'),
      // What the analysis does not follow: lookUp may do work.
      'src/generated/audit.ts': "export { audit } from 'audit-client';\n",
    });
    expect(rows.map(({ file, line }) => `${file}:${line}`)).toEqual([
      'src/deploy.ts:2',
      'src/providers.ts:2',
      'src/providers.ts:9',
      'src/worker.ts:3',
    ]);
  });
});

describe('a table of job definitions whose handlers other modules define', () => {
  it('lists each row’s imported handler where it is defined, registered by the loop over the table', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "jobs", "dependencies": { "pg-boss": "10.0.0" } }',
      'src/jobs/index.ts': [
        "import PgBoss from 'pg-boss';",
        "import { sendMail } from './mail';",
        "import { buildReport } from './report';",
        'const boss = new PgBoss(process.env.DATABASE_URL ?? "");',
        "const jobs = [{ name: 'mail', handler: sendMail }, { name: 'report', handler: buildReport }];",
        'export async function start() {',
        '  for (const job of jobs) await boss.work(job.name, job.handler);',
        '}',
        '',
      ].join('\n'),
      'src/jobs/mail.ts':
        "export async function sendMail(jobs: { data: { to: string } }[]) {\n  await fetch('https://mail.example.com', { method: 'POST', body: jobs[0]?.data.to, signal: AbortSignal.timeout(5000) });\n}\n",
      'src/jobs/report.ts': 'export async function buildReport(jobs: unknown[]) {\n  return jobs.length;\n}\n',
    });
    expect(rows.map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'src/jobs/mail.ts', line: 1, broker: 'pg-boss' },
      { file: 'src/jobs/report.ts', line: 1, broker: 'pg-boss' },
    ]);
  });
});
