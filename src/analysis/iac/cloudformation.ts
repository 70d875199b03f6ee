import { dirname, resolve } from 'node:path';

import type { LambdaDeclaration, LambdaTrigger } from './lambdas.js';
import { isRecord, lineOfKey, readYaml, type Declared } from './yaml.js';

/**
 * CloudFormation and SAM templates: `AWS::Serverless::Function` and `AWS::Lambda::Function`
 * resources with their `Handler` and `CodeUri`, invoked by the SAM `Events` of the function
 * (https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-property-function-eventsource.html),
 * by an `AWS::Lambda::EventSourceMapping` (a queue or a stream) or by an `AWS::Events::Rule`
 * (a schedule or an event pattern) that names the function.
 */

/** SAM event types, by the broker they stand for; `Api` and `HttpApi` are requests, not deliveries. */
const SAM_EVENTS: Readonly<Record<string, LambdaTrigger>> = {
  SQS: 'lambda-sqs',
  SNS: 'lambda-sns',
  Schedule: 'lambda-eventbridge',
  ScheduleV2: 'lambda-eventbridge',
  EventBridgeRule: 'lambda-eventbridge',
  CloudWatchEvent: 'lambda-eventbridge',
  Kinesis: 'lambda-kinesis',
  DynamoDB: 'lambda-dynamodb',
  S3: 'lambda-s3',
};

const FUNCTION_TYPES = new Set(['AWS::Serverless::Function', 'AWS::Lambda::Function']);

export function cloudFormationLambdas(file: string): Declared<LambdaDeclaration> {
  const read = readYaml(file);
  if ('problem' in read) return { declarations: [], problem: read.problem };
  if (!isRecord(read.data) || !isRecord(read.data.Resources)) return { declarations: [] };
  const resources = read.data.Resources;
  const globals = isRecord(read.data.Globals) && isRecord(read.data.Globals.Function) ? read.data.Globals.Function : {};
  const folder = dirname(file);
  // Triggers that other resources attach to a function, by the function's logical id.
  const attached = new Map<string, LambdaTrigger[]>();
  const attach = (reference: unknown, trigger: LambdaTrigger): void => {
    const id = logicalId(reference);
    if (id === undefined) return;
    attached.set(id, [...(attached.get(id) ?? []), trigger]);
  };
  for (const resource of Object.values(resources)) {
    if (!isRecord(resource) || !isRecord(resource.Properties)) continue;
    const properties = resource.Properties;
    if (resource.Type === 'AWS::Lambda::EventSourceMapping') {
      const source = logicalId(properties.EventSourceArn);
      const type = source === undefined ? undefined : typeOf(resources[source]);
      attach(
        properties.FunctionName,
        type === 'AWS::SQS::Queue'
          ? 'lambda-sqs'
          : type === 'AWS::DynamoDB::Table'
            ? 'lambda-dynamodb'
            : 'lambda-kinesis',
      );
    } else if (resource.Type === 'AWS::Events::Rule' && Array.isArray(properties.Targets)) {
      for (const target of properties.Targets) if (isRecord(target)) attach(target.Arn, 'lambda-eventbridge');
    } else if (resource.Type === 'AWS::SNS::Subscription' && properties.Protocol === 'lambda') {
      attach(properties.Endpoint, 'lambda-sns');
    }
  }
  const declarations: LambdaDeclaration[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    if (!isRecord(resource) || typeof resource.Type !== 'string' || !FUNCTION_TYPES.has(resource.Type)) continue;
    const properties = isRecord(resource.Properties) ? resource.Properties : {};
    const handler = properties.Handler ?? globals.Handler;
    if (typeof handler !== 'string') continue;
    const codeUri = properties.CodeUri ?? globals.CodeUri;
    const triggers = [...(attached.get(id) ?? [])];
    if (isRecord(properties.Events))
      for (const event of Object.values(properties.Events)) {
        const trigger = isRecord(event) && typeof event.Type === 'string' ? SAM_EVENTS[event.Type] : undefined;
        if (trigger) triggers.push(trigger);
      }
    if (triggers.length === 0) continue;
    const build =
      isRecord(resource.Metadata) && isRecord(resource.Metadata.BuildProperties)
        ? resource.Metadata.BuildProperties
        : {};
    const entryPoint: unknown = Array.isArray(build.EntryPoints) ? (build.EntryPoints as unknown[])[0] : undefined;
    declarations.push({
      handler,
      base: typeof codeUri === 'string' ? resolve(folder, codeUri) : folder,
      ...(typeof entryPoint === 'string' ? { entryPoint } : {}),
      triggers,
      declaredAt: { file, line: lineOfKey(read.text, id) },
    });
  }
  return { declarations };
}

/** The logical id a reference names: `!Ref Fn`, `!GetAtt Fn.Arn`, `!GetAtt [Fn, Arn]`, `!Sub '${Fn.Arn}'`. */
function logicalId(reference: unknown): string | undefined {
  if (Array.isArray(reference)) return typeof reference[0] === 'string' ? reference[0] : undefined;
  if (isRecord(reference)) return logicalId(reference.Ref ?? reference['Fn::GetAtt'] ?? reference['Fn::Sub']);
  if (typeof reference !== 'string') return undefined;
  const match =
    /^\$\{([A-Za-z0-9]+)(?:\.[A-Za-z]+)?\}$/.exec(reference) ?? /^([A-Za-z0-9]+)(?:\.Arn)?$/.exec(reference);
  return match?.[1];
}

function typeOf(resource: unknown): unknown {
  return isRecord(resource) ? resource.Type : undefined;
}
