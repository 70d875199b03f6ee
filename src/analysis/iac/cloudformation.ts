import { dirname, resolve } from 'node:path';

import type { LambdaDeclaration, LambdaTrigger } from './lambdas.js';
import { isRecord, lineOfKey, readYaml, type Declared } from './yaml.js';

/**
 * CloudFormation and SAM templates: `AWS::Serverless::Function` and `AWS::Lambda::Function`
 * resources with their `Handler` and `CodeUri`, invoked by the SAM `Events` of the function
 * (https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-property-function-eventsource.html),
 * by an `AWS::Lambda::EventSourceMapping` (a queue or a stream), by an `AWS::Events::Rule`
 * (a schedule or an event pattern) that names the function, or by a state machine that runs it
 * as a Task: its definition's substitutions (`DefinitionSubstitutions: { LetterFunctionArn: !GetAtt
 * LetterFunction.Arn }`), its inline definition, or SAM's `LambdaInvokePolicy` that lets it
 * invoke the function. Step Functions retries a Task by the state's `Retry`, and AWS recommends
 * retrying Lambda's transient errors on every Lambda Task
 * (https://docs.aws.amazon.com/step-functions/latest/dg/concepts-error-handling.html): the
 * function may run again for one state.
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
const STATE_MACHINE_TYPES = new Set(['AWS::Serverless::StateMachine', 'AWS::StepFunctions::StateMachine']);

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
    } else if (typeof resource.Type === 'string' && STATE_MACHINE_TYPES.has(resource.Type)) {
      const tasks = new Set<string>();
      const isFunction = (id: string | undefined): id is string =>
        id !== undefined && FUNCTION_TYPES.has(String(typeOf(resources[id])));
      const collect = (value: unknown): void => {
        const id = logicalId(value);
        if (isFunction(id)) tasks.add(id);
        else if (Array.isArray(value)) for (const item of value) collect(item);
        else if (isRecord(value)) for (const item of Object.values(value)) collect(item);
        // A definition written with `!Sub`: the `${LetterFunction.Arn}` it names.
        else if (typeof value === 'string')
          for (const match of value.matchAll(/\$\{([A-Za-z0-9]+)(?:\.Arn)?\}/g))
            if (isFunction(match[1])) tasks.add(match[1]);
      };
      collect(properties.DefinitionSubstitutions);
      collect(properties.Definition);
      collect(properties.DefinitionString);
      if (Array.isArray(properties.Policies))
        for (const policy of properties.Policies) if (isRecord(policy)) collect(policy.LambdaInvokePolicy);
      for (const id of tasks) attach(id, 'lambda-stepfunctions');
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
