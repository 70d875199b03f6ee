import { describe, expect, it } from 'vitest';

import { inventoryOf, runCli, writeRepo } from './helpers.js';

const handlersOf = inventoryOf;

// Exports no code shape gives away as a Lambda handler: only the infrastructure files say what invokes them.
const work = (name: string): string =>
  [
    `export async function ${name}(input: unknown) {`,
    "  await fetch('https://api.example.com/sync', { method: 'POST', body: JSON.stringify(input), signal: AbortSignal.timeout(5000) });",
    '}',
    '',
  ].join('\n');

/** Three functions of a serverless.yml: a queue consumer, a schedule and an HTTP route. */
const SERVERLESS_SERVICE: Record<string, string> = {
  'package.json': '{ "name": "svc" }',
  'serverless.yml': [
    'service: svc',
    'functions:',
    '  sync:',
    '    handler: src/jobs/sync.run',
    '    events:',
    '      - sqs:',
    '          arn: arn:aws:sqs:eu-west-1:1:sync',
    '  nightly:',
    '    handler: src/jobs/nightly.main',
    '    events:',
    '      - schedule: rate(1 day)',
    '  api:',
    '    handler: src/api.serve',
    '    events:',
    '      - httpApi: POST /orders',
    '',
  ].join('\n'),
  'src/jobs/sync.ts': work('run'),
  'src/jobs/nightly.ts': work('main'),
  'src/api.ts': work('serve'),
};

describe('Lambdas declared in infrastructure files', () => {
  it('reads serverless.yml functions by their events: queues, topics and schedules, not HTTP', () => {
    expect(handlersOf(SERVERLESS_SERVICE)).toEqual([
      { file: 'src/jobs/nightly.ts', line: 1, name: 'main', broker: 'lambda-eventbridge' },
      { file: 'src/jobs/sync.ts', line: 1, name: 'run', broker: 'lambda-sqs' },
    ]);
  });

  it("lists a class's handler method exported bound to an instance held once (Powertools' decorator pattern)", () => {
    const service = {
      ...SERVERLESS_SERVICE,
      'src/jobs/sync.ts': [
        'class SyncHandler {',
        '  async handler(input: unknown) {',
        "    await fetch('https://api.example.com/sync', { method: 'POST', body: JSON.stringify(input), signal: AbortSignal.timeout(5000) });",
        '  }',
        '}',
        'const handlerClass = new SyncHandler();',
        'export const run = handlerClass.handler.bind(handlerClass);',
        '',
      ].join('\n'),
    };
    expect(handlersOf(service)).toContainEqual({
      file: 'src/jobs/sync.ts',
      line: 2,
      name: 'run',
      broker: 'lambda-sqs',
    });
  });

  it('names the serverless.yml entry that wires each Lambda as where it is registered', () => {
    const root = writeRepo(SERVERLESS_SERVICE);
    const report = JSON.parse(runCli([root, '--format', 'json'], { cwd: root }).stdout) as {
      handlers: { file: string; registeredAt?: unknown }[];
    };
    expect(report.handlers.map(({ file, registeredAt }) => ({ file, registeredAt }))).toEqual([
      { file: 'src/jobs/nightly.ts', registeredAt: { file: 'serverless.yml', line: 8 } },
      { file: 'src/jobs/sync.ts', registeredAt: { file: 'serverless.yml', line: 3 } },
    ]);
  });

  it("reads a serverless.ts service: functions in the file and in modules of their own, with the template's handlerPath(__dirname) and middyfy", () => {
    const declared = (events: string, name = 'handler.main'): string =>
      [
        "import { handlerPath } from '../../libs/handler-resolver';",
        `export default { handler: \`\${handlerPath(__dirname)}/${name}\`, events: [${events}] };`,
        '',
      ].join('\n');
    expect(
      handlersOf({
        'package.json': '{ "name": "svc" }',
        'serverless.ts': [
          "import type { AWS } from '@serverless/typescript';",
          "import drain from './src/functions/drain';",
          "import streams from './src/functions/streams';",
          "import api from './src/functions/api';",
          'const config: AWS = {',
          "  service: 'svc',",
          '  functions: {',
          '    drain, streams, api,',
          "    nightly: { handler: 'src/jobs/nightly.main', events: [{ schedule: 'rate(1 day)' }] },",
          '  },',
          '};',
          'module.exports = config;',
          '',
        ].join('\n'),
        'src/libs/handler-resolver.ts':
          'export const handlerPath = (context: string) => context.split(process.cwd())[1].substring(1);\n',
        'src/functions/drain/index.ts': declared("{ sqs: { arn: 'arn:aws:sqs:eu-west-1:1:drain' } }"),
        // The template wraps the function in middy (`middyfy`), a wrapper of another module.
        'src/functions/drain/handler.ts': [
          work('drainQueue'),
          "import { middyfy } from '../../libs/lambda';",
          'export const main = middyfy(drainQueue);',
          '',
        ].join('\n'),
        'src/functions/streams/index.ts': declared("{ stream: { type: 'dynamodb', arn: 'arn' } }", 'handler.run'),
        'src/functions/streams/handler.ts': work('run'),
        'src/functions/api/index.ts': declared("{ http: { method: 'post', path: 'orders' } }"),
        'src/functions/api/handler.ts': work('main'),
        'src/jobs/nightly.ts': work('main'),
      }),
    ).toEqual([
      { file: 'src/functions/drain/handler.ts', line: 1, name: 'main', broker: 'lambda-sqs' },
      { file: 'src/functions/streams/handler.ts', line: 1, name: 'run', broker: 'lambda-dynamodb' },
      { file: 'src/jobs/nightly.ts', line: 1, name: 'main', broker: 'lambda-eventbridge' },
    ]);
  });

  it('reads a SAM template: CodeUri with an esbuild entry point, CloudFormation tags, an event source mapping', () => {
    expect(
      handlersOf({
        'package.json': '{ "name": "sam" }',
        'template.yaml': [
          'Transform: AWS::Serverless-2016-10-31',
          'Resources:',
          '  Queue:',
          '    Type: AWS::SQS::Queue',
          '  NotifyFunction:',
          '    Type: AWS::Serverless::Function',
          '    Properties:',
          '      CodeUri: src/',
          '      Handler: notify.handler',
          '      Events:',
          '        Topic:',
          '          Type: SNS',
          '          Properties:',
          '            Topic: !Ref Topic',
          '    Metadata:',
          '      BuildMethod: esbuild',
          '      BuildProperties:',
          '        EntryPoints:',
          '          - notify.ts',
          '  DrainFunction:',
          '    Type: AWS::Lambda::Function',
          '    Properties:',
          '      Handler: drain.handler',
          '      Code:',
          '        S3Bucket: !Ref Bucket',
          '  DrainMapping:',
          '    Type: AWS::Lambda::EventSourceMapping',
          '    Properties:',
          '      EventSourceArn: !GetAtt Queue.Arn',
          '      FunctionName: !Ref DrainFunction',
          '',
        ].join('\n'),
        'src/notify.ts': work('handler'),
        // A bundle named by a webpack entry: `Handler: drain.handler` runs the `drain` bundle.
        'webpack.config.js': "module.exports = { entry: { drain: './src/queue/drain.ts' } };\n",
        'src/queue/drain.ts': work('handler'),
      }),
    ).toEqual([
      { file: 'src/notify.ts', line: 1, name: 'handler', broker: 'lambda-sns' },
      { file: 'src/queue/drain.ts', line: 1, name: 'handler', broker: 'lambda-sqs' },
    ]);
  });

  it("reads a SAM state machine's Tasks: the functions its definition or its invoke policy names", () => {
    const template = (machine: string[]): string =>
      [
        'Transform: AWS::Serverless-2016-10-31',
        'Resources:',
        '  PrintFunction:',
        '    Type: AWS::Serverless::Function',
        '    Properties:',
        '      CodeUri: src/',
        '      Handler: print.handler',
        '  ApiFunction:',
        '    Type: AWS::Serverless::Function',
        '    Properties:',
        '      CodeUri: src/',
        '      Handler: api.handler',
        '  Letters:',
        '    Type: AWS::Serverless::StateMachine',
        '    Properties:',
        ...machine,
        '',
      ].join('\n');
    const files = (machine: string[]) => ({
      'package.json': '{ "name": "sam" }',
      'template.yaml': template(machine),
      'src/print.ts': work('handler'),
      'src/api.ts': work('handler'),
    });
    const printed = [{ file: 'src/print.ts', line: 1, name: 'handler', broker: 'lambda-stepfunctions' }];
    expect(
      handlersOf(
        files([
          '      DefinitionUri: letters.asl.json',
          '      DefinitionSubstitutions:',
          '        PrintFunctionArn: !GetAtt PrintFunction.Arn',
        ]),
      ),
    ).toEqual(printed);
    expect(
      handlersOf(
        files([
          '      DefinitionString: !Sub \'{"StartAt":"Print","States":{"Print":{"Type":"Task","Resource":"${PrintFunction.Arn}","End":true}}}\'',
        ]),
      ),
    ).toEqual(printed);
    expect(
      handlersOf(
        files(['      Policies:', '        - LambdaInvokePolicy:', '            FunctionName: !Ref PrintFunction']),
      ),
    ).toEqual(printed);
  });

  it('lists the function a factory of the module or of another returns, and nothing for a template that does not parse', () => {
    expect(
      handlersOf({
        'package.json': '{ "name": "built" }',
        'serverless.yml':
          'functions:\n  sync:\n    handler: src/sync.handler\n    events:\n      - sqs: arn:aws:sqs:x\n',
        'src/sync.ts': [
          'export const buildHandler = (send: typeof fetch) => async (event: unknown) => {',
          "  await send('https://api.example.com/sync', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) });",
          '};',
          'export const handler = buildHandler(fetch);',
          '',
        ].join('\n'),
      }),
    ).toEqual([{ file: 'src/sync.ts', line: 1, name: 'handler', broker: 'lambda-sqs' }]);
    // A factory another module exports: the function it returns there.
    expect(
      handlersOf({
        'package.json': '{ "name": "built" }',
        'serverless.yml':
          'functions:\n  sync:\n    handler: src/sync.handler\n    events:\n      - sqs: arn:aws:sqs:x\n',
        'src/lib/stream.ts': [
          'export const streamHandler = (send: typeof fetch) => {',
          '  return async (event: unknown) => {',
          "    await send('https://api.example.com/sync', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) });",
          '  };',
          '};',
          '',
        ].join('\n'),
        'src/sync.ts': "import { streamHandler } from './lib/stream';\nexport const handler = streamHandler(fetch);\n",
      }),
    ).toEqual([{ file: 'src/lib/stream.ts', line: 2, name: 'handler', broker: 'lambda-sqs' }]);
    // A template that does not parse declares nothing, and says so: it is not analysed, with the reason.
    const root = writeRepo({
      'package.json': '{ "name": "broken" }',
      'template.yaml': 'Resources: [unclosed\n',
      'src/a.ts': work('handler'),
    });
    const run = runCli([root, '--format', 'json'], { cwd: root });
    const report = JSON.parse(run.stdout) as { handlers: unknown[]; notAnalysed: { file: string; reason: string }[] };
    expect(report.handlers).toEqual([]);
    expect(report.notAnalysed.map((entry) => entry.file)).toEqual(['template.yaml']);
    expect(report.notAnalysed[0]?.reason).toMatch(/^not read \(.+\); the Lambdas it declares are not listed$/);
    expect(run.stderr).toMatch(/^idempotency-check: template\.yaml: not read \(/);
  });
});

describe('Lambdas declared in AWS CDK stacks', () => {
  /** A CDK app: a NodejsFunction fed by a queue, a Function on a rule's schedule, an API's function, and a zip of a workspace package. */
  const CDK_APP: Record<string, string> = {
    'package.json': '{ "name": "svc", "workspaces": ["packages/*"] }',
    'cdk/cdk.json': '{ "app": "npx ts-node bin/app.ts" }',
    'cdk/lib/stack.ts': [
      "import * as path from 'node:path';",
      "import { Stack } from 'aws-cdk-lib';",
      "import * as lambda from 'aws-cdk-lib/aws-lambda';",
      "import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';",
      "import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';",
      "import { Rule, Schedule } from 'aws-cdk-lib/aws-events';",
      "import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';",
      "import { GuLambdaFunction } from '@guardian/cdk/lib/constructs/lambda';",
      'export class ServiceStack extends Stack {',
      '  constructor(scope, id) {',
      '    super(scope, id);',
      "    const sync = new NodejsFunction(this, 'Sync', {",
      "      entry: path.join(__dirname, '../../src/jobs/sync.ts'),",
      "      handler: 'run',",
      '    });',
      '    sync.addEventSource(new SqsEventSource(queue));',
      "    const nightly = new lambda.Function(this, 'Nightly', {",
      "      code: lambda.Code.fromAsset(path.join(__dirname, '../../src/jobs')),",
      "      handler: 'nightly.main',",
      '      runtime: lambda.Runtime.NODEJS_20_X,',
      '    });',
      "    new Rule(this, 'NightlyRule', { schedule: Schedule.rate(Duration.days(1)), targets: [new LambdaFunction(nightly)] });",
      "    new NodejsFunction(this, 'Api', { entry: path.join(__dirname, '../../src/api.ts'), handler: 'serve' });",
      "    const output = new GuLambdaFunction(this, 'Output', { fileName: 'output-handler.zip', handler: 'index.outputHandler', app: 'output' });",
      '    output.addEventSource(new SqsEventSource(outputQueue));',
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/jobs/sync.ts': work('run'),
    'src/jobs/nightly.ts': work('main'),
    'src/api.ts': work('serve'),
    'packages/output-handler/package.json': '{ "name": "output-handler", "main": "index.js" }',
    'packages/output-handler/src/index.ts': work('outputHandler'),
  };

  it('reads the functions a stack declares with what invokes each: an event source, a rule, a construct', () => {
    expect(handlersOf(CDK_APP).map(({ file, name, broker }) => ({ file, name, broker }))).toEqual([
      { file: 'packages/output-handler/src/index.ts', name: 'outputHandler', broker: 'lambda-sqs' },
      { file: 'src/jobs/nightly.ts', name: 'main', broker: 'lambda-eventbridge' },
      { file: 'src/jobs/sync.ts', name: 'run', broker: 'lambda-sqs' },
    ]);
  });

  it("reads a project's constructs: the function one exposes, one named for its event source, and entries relative to the app", () => {
    // `new Lambda(…).lambda` is the function the project's construct makes; `LambdaDynamoEventSource`
    // says by its name that a table's stream invokes it. Relative entries are read from the folder
    // `cdk` runs in (the one with cdk.json), as NodejsFunction reads them.
    const app = {
      'package.json': '{ "name": "seds" }',
      'cdk.json': '{ "app": "npx tsx deployment/app.ts" }',
      'deployment/stacks/api.ts': [
        "import * as events from 'aws-cdk-lib/aws-events';",
        "import * as targets from 'aws-cdk-lib/aws-events-targets';",
        "import { Lambda } from '../constructs/lambda';",
        "import { LambdaDynamoEventSource } from '../constructs/lambda-dynamo-event';",
        'export function createApi(scope, tables) {',
        "  new LambdaDynamoEventSource(scope, 'postKafkaData', { entry: 'services/kafka/post.ts', handler: 'handler', tables });",
        "  const scheduled = new Lambda(scope, 'onSchedule', { entry: 'services/admin/generate.ts', handler: 'scheduled' }).lambda;",
        "  const rule = new events.Rule(scope, 'Quarterly', { schedule: events.Schedule.cron({ minute: '0' }) });",
        '  rule.addTarget(new targets.LambdaFunction(scheduled));',
        "  new Lambda(scope, 'api', { entry: 'services/admin/generate.ts', handler: 'main', path: '/admin', method: 'POST' });",
        '}',
        '',
      ].join('\n'),
      'services/kafka/post.ts': work('handler'),
      'services/admin/generate.ts': `${work('scheduled')}${work('main')}`,
    };
    expect(handlersOf(app).map(({ file, name, broker }) => ({ file, name, broker }))).toEqual([
      { file: 'services/admin/generate.ts', name: 'scheduled', broker: 'lambda-eventbridge' },
      { file: 'services/kafka/post.ts', name: 'handler', broker: 'lambda-dynamodb' },
    ]);
  });

  it("reads a state machine's Lambda Tasks (aws-stepfunctions-tasks' LambdaInvoke)", () => {
    const app = {
      'package.json': '{ "name": "letters" }',
      'cdk.json': '{ "app": "npx tsx stack.ts" }',
      'stack.ts': [
        "import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';",
        "import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';",
        'export function letters(scope) {',
        "  const print = new NodejsFunction(scope, 'Print', { entry: 'src/print.ts', handler: 'handler' });",
        "  const api = new NodejsFunction(scope, 'Api', { entry: 'src/api.ts', handler: 'handler' });",
        "  return new tasks.LambdaInvoke(scope, 'PrintLetter', { lambdaFunction: print });",
        '}',
        '',
      ].join('\n'),
      'src/print.ts': work('handler'),
      'src/api.ts': work('handler'),
    };
    expect(handlersOf(app).map(({ file, broker }) => ({ file, broker }))).toEqual([
      { file: 'src/print.ts', broker: 'lambda-stepfunctions' },
    ]);
  });

  it('reads no stack outside a CDK app (no cdk.json)', () => {
    const withoutApp = Object.fromEntries(Object.entries(CDK_APP).filter(([file]) => file !== 'cdk/cdk.json'));
    expect(handlersOf(withoutApp)).toEqual([]);
  });
});

describe("a middy handler that asserts its event's type and dispatches each record by a field of its body", () => {
  /** The job handlers, exported from a barrel beside the enum their table is keyed by. */
  const JOBS: Record<string, string> = {
    'package.json': '{ "name": "jobs" }',
    'src/sqs/types.ts': "export enum Job { Ping = 'ping', Mail = 'mail' }\n",
    'src/sqs/handlers/index.ts': "export { ping } from './ping.js';\nexport { mail } from './mail.js';\n",
    'src/sqs/handlers/ping.ts': work('ping'),
    'src/sqs/handlers/mail.ts': work('mail'),
  };
  const handler = (records: string): string =>
    [
      "import middy from '@middy/core';",
      "import sqsPartialBatchFailure from '@middy/sqs-partial-batch-failure';",
      "import type { SQSEvent } from 'aws-lambda';",
      "import { Job } from './types.js';",
      "import { ping, mail } from './handlers/index.js';",
      '',
      'const handlers = { [Job.Ping]: ping, [Job.Mail]: mail };',
      '',
      'export const handler = middy()',
      '  .use(sqsPartialBatchFailure())',
      '  .handler((event: unknown) => {',
      records,
      '  });',
      '',
    ].join('\n');

  it('lists the handler and each function its table holds, picked in the callback that takes each record', () => {
    const rows = handlersOf({
      ...JOBS,
      'src/sqs/index.ts': handler(
        [
          '    const results = (event as SQSEvent).Records.map(async (record) => {',
          '      let body = JSON.parse(record.body);',
          '      body = body as { function: Job; payload: unknown };',
          '      const run = handlers[body.function as Job] as (payload: unknown) => Promise<void>;',
          '      return run(body.payload);',
          '    });',
          '    return Promise.all(results);',
        ].join('\n'),
      ),
    });
    expect(rows).toEqual([
      { file: 'src/sqs/handlers/mail.ts', line: 1, name: 'mail', broker: 'lambda-sqs' },
      { file: 'src/sqs/handlers/ping.ts', line: 1, name: 'ping', broker: 'lambda-sqs' },
      { file: 'src/sqs/index.ts', line: 11, broker: 'lambda-sqs' },
    ]);
  });

  it('lists no pick by a value the callback of a list of its own makes', () => {
    const rows = handlersOf({
      ...JOBS,
      'src/sqs/index.ts': handler(
        [
          '    const records = (event as SQSEvent).Records;',
          '    const defaults: Job[] = [Job.Ping, Job.Mail];',
          '    return Promise.all(defaults.map((name) => handlers[name](records.length)));',
        ].join('\n'),
      ),
    });
    expect(rows).toEqual([{ file: 'src/sqs/index.ts', line: 11, broker: 'lambda-sqs' }]);
  });
});
