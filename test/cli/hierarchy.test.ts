import { describe, expect, it } from 'vitest';

import { inventoryOf, runCli, writeRepo } from './helpers.js';

/** Each inventory row of the repository at `root`: where it is, what it reaches, its verdict. */
function handlerEffects(root: string): { file: string; line: number; effects: string[]; verdict: string }[] {
  const run = runCli([root, '--format', 'json'], { cwd: root });
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout) as {
    handlers: { file: string; line: number; effects: string[]; verdict: string }[];
  };
  return report.handlers.map(({ file, line, effects, verdict }) => ({ file, line, effects, verdict }));
}

describe('methods a class inherits from a class of another module', () => {
  it("composes the effects of an injected service's inherited method into the handler", () => {
    const root = writeRepo({
      'package.json': '{ "name": "billing" }',
      'src/clients/base-client.ts': [
        'export class BaseClient {',
        '  async post(path: string, body: unknown) {',
        "    await fetch('https://api.example.com' + path, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });",
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/clients/payments-client.ts': [
        "import { BaseClient } from './base-client';",
        '',
        'export class PaymentsClient extends BaseClient {}',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { PaymentsClient } from './clients/payments-client';",
        '',
        'export class ChargeWorker {',
        '  constructor(private readonly payments: PaymentsClient) {}',
        '  start() {',
        "    return new Worker('charges', async (job: { data: unknown }) => {",
        "      await this.payments.post('/charges', job.data);",
        '    });',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(handlerEffects(root)).toEqual([
      { file: 'src/worker.ts', line: 7, effects: ['http-write'], verdict: 'unprotected' },
    ]);
  });
});

describe('calls a handler makes through use cases and repositories', () => {
  it("follows `execute(command)` of a use case, a `const _this = this` alias, and a repository's inherited method", () => {
    const root = writeRepo({
      'package.json': '{ "name": "notify", "dependencies": { "mongoose": "8" } }',
      'src/dal/base-repository.ts': [
        "import { Model } from 'mongoose';",
        '',
        'export class BaseRepository<T> {',
        '  constructor(protected MongooseModel: Model<T>) {}',
        '  async update(query: object, body: object) {',
        '    return await this.MongooseModel.updateMany(query, body);',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/dal/job-repository.ts': [
        "import { BaseRepository } from './base-repository';",
        '',
        'export class JobRepository extends BaseRepository<{ status: string }> {',
        '  async updateStatus(id: string, status: string) {',
        '    return this.update({ _id: id }, { status });',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/usecases/run-job.ts': [
        "import { JobRepository } from '../dal/job-repository';",
        '',
        'export class RunJob {',
        '  constructor(private readonly jobRepository: JobRepository) {}',
        '  async execute(command: { jobId: string }) {',
        "    await this.jobRepository.updateStatus(command.jobId, 'running');",
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/worker.ts': [
        "import { Worker } from 'bullmq';",
        "import { RunJob } from './usecases/run-job';",
        '',
        'export class StandardWorker {',
        '  constructor(private readonly runJob: RunJob) {}',
        '  start() {',
        "    return new Worker('standard', async (job: { data: { jobId: string } }) => {",
        '      const _this = this;',
        '      await new Promise((resolve) => {',
        '        setImmediate(function processTask() {',
        '          resolve(_this.runJob.execute({ jobId: job.data.jobId }));',
        '        });',
        '      });',
        '    });',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(handlerEffects(root)).toEqual([
      { file: 'src/worker.ts', line: 7, effects: ['db-write'], verdict: 'unprotected' },
    ]);
  });
});

describe('a base class whose own handler calls a method its subclasses write (a template method)', () => {
  const base = [
    "import { Kafka } from 'kafkajs';",
    '',
    'export abstract class Consumer<T> {',
    '  abstract topic: string;',
    '  data!: T;',
    '  abstract run(): Promise<void>;',
    '  describe() { return this.topic; }',
    '  async listen() {',
    '    const consumer = new Kafka({ brokers: [] }).consumer({ groupId: this.topic });',
    '    await consumer.run({',
    '      eachMessage: async ({ message }) => {',
    '        this.data = JSON.parse(String(message.value));',
    '        await this.run();',
    '      },',
    '    });',
    '  }',
    '}',
    '',
  ].join('\n');
  const subclass = (name: string, extendsClause: string): string =>
    [
      `import { ${extendsClause} } from '@shop/common';`,
      '',
      `export class ${name} extends ${extendsClause}<{ id: string }> {`,
      "  topic = 'user-created';",
      '  async run() {',
      "    await fetch('https://api.example.com/users', { method: 'POST', body: JSON.stringify(this.data), signal: AbortSignal.timeout(5000) });",
      '  }',
      '  describe() { return `users`; }',
      '}',
      '',
    ].join('\n');

  it("lists each subclass's override, in another package, with the base handler's broker, and not its other methods", () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "shop", "private": true, "workspaces": ["common", "users"] }',
      'common/package.json':
        '{ "name": "@shop/common", "main": "./src/index.ts", "dependencies": { "kafkajs": "2.2.4" } }',
      'common/src/index.ts': "export * from './consumer';\n",
      'common/src/consumer.ts': base,
      'users/package.json': '{ "name": "users", "dependencies": { "@shop/common": "*" } }',
      'users/src/user-created.ts': subclass('UserCreatedConsumer', 'Consumer'),
      'users/src/start.ts':
        "import { UserCreatedConsumer } from './user-created';\nvoid new UserCreatedConsumer().listen();\n",
    });
    expect(rows).toEqual([
      { file: 'common/src/consumer.ts', line: 11, name: 'eachMessage', broker: 'kafkajs' },
      { file: 'users/src/user-created.ts', line: 5, name: 'UserCreatedConsumer.run', broker: 'kafkajs' },
    ]);
  });

  it("lists a NATS Streaming Listener subclass's onMessage, which the base's 'message' listener calls", () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "tickets", "dependencies": { "node-nats-streaming": "0.3.2" } }',
      'src/events/listener.ts': [
        "import { Message, Stan } from 'node-nats-streaming';",
        'export abstract class Listener<T> {',
        '  abstract subject: string;',
        '  abstract onMessage(data: T, msg: Message): void;',
        '  constructor(protected client: Stan) {}',
        '  listen() {',
        "    const subscription = this.client.subscribe(this.subject, 'orders-service');",
        "    subscription.on('message', (msg: Message) => {",
        '      this.onMessage(JSON.parse(msg.getData() as string), msg);',
        '    });',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/events/ticket-created-listener.ts': [
        "import { Message } from 'node-nats-streaming';",
        "import { Listener } from './listener';",
        'export class TicketCreatedListener extends Listener<{ id: string }> {',
        "  subject = 'ticket:created';",
        '  async onMessage(data: { id: string }, msg: Message) {',
        "    await fetch('https://api.example.com/tickets', { method: 'POST', body: data.id, signal: AbortSignal.timeout(5000) });",
        '    msg.ack();',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([
      { file: 'src/events/listener.ts', line: 8, broker: 'nats-streaming' },
      {
        file: 'src/events/ticket-created-listener.ts',
        line: 5,
        name: 'TicketCreatedListener.onMessage',
        broker: 'nats-streaming',
      },
    ]);
  });
});
