import { dirname } from 'node:path';

import type { LambdaDeclaration, LambdaTrigger } from './lambdas.js';
import { isRecord, lineOfKey, readYaml, type Declared } from './yaml.js';

/**
 * The Serverless Framework's `serverless.yml`: `functions: <name>: { handler: path/file.export,
 * events: [...] }`, the handler's path relative to the service's folder
 * (https://www.serverless.com/framework/docs/providers/aws/guide/functions). Events that deliver
 * (https://www.serverless.com/framework/docs/providers/aws/events): `sqs`, `sns`, `schedule`,
 * `eventBridge`, `cloudwatchEvent`, `stream` (Kinesis or DynamoDB), `s3`; `http` and `httpApi`
 * are requests.
 */

const EVENTS: Readonly<Record<string, LambdaTrigger>> = {
  sqs: 'lambda-sqs',
  sns: 'lambda-sns',
  schedule: 'lambda-eventbridge',
  eventBridge: 'lambda-eventbridge',
  cloudwatchEvent: 'lambda-eventbridge',
  s3: 'lambda-s3',
};

export function serverlessLambdas(file: string): Declared<LambdaDeclaration> {
  const read = readYaml(file);
  if ('problem' in read) return { declarations: [], problem: read.problem };
  if (!isRecord(read.data) || !isRecord(read.data.functions)) return { declarations: [] };
  const declarations: LambdaDeclaration[] = [];
  for (const [name, fn] of Object.entries(read.data.functions)) {
    if (!isRecord(fn) || typeof fn.handler !== 'string' || !Array.isArray(fn.events)) continue;
    const triggers = fn.events.flatMap((event): LambdaTrigger[] => {
      if (!isRecord(event)) return [];
      return Object.entries(event).flatMap(([type, options]): LambdaTrigger[] => {
        if (type === 'stream') return [streamTrigger(options)];
        const trigger = EVENTS[type];
        return trigger ? [trigger] : [];
      });
    });
    if (triggers.length > 0)
      declarations.push({
        handler: fn.handler,
        base: dirname(file),
        triggers,
        declaredAt: { file, line: lineOfKey(read.text, name) },
      });
  }
  return { declarations };
}

/** `stream: arn:aws:dynamodb:…` or `{ type: dynamodb }` is DynamoDB's; otherwise Kinesis's. */
function streamTrigger(options: unknown): LambdaTrigger {
  const text = JSON.stringify(options ?? '');
  return /dynamodb/i.test(text) ? 'lambda-dynamodb' : 'lambda-kinesis';
}
