import { dirname, relative, sep } from 'node:path';

import type * as TS from 'typescript';

import { ts } from '../typescript.js';
import type { LambdaDeclaration, LambdaTrigger } from './lambdas.js';
import { infrastructureCode } from './code-files.js';
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
    const triggers = fn.events.flatMap((event): LambdaTrigger[] =>
      isRecord(event) ? Object.entries(event).flatMap(([type, options]) => eventTrigger(type, options)) : [],
    );
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

/** What an event of `type` (`sqs`, `stream`, …) invokes the function as; nothing for a request (`http`). */
function eventTrigger(type: string, options: unknown): LambdaTrigger[] {
  if (type === 'stream') return [streamTrigger(options)];
  const trigger = EVENTS[type];
  return trigger ? [trigger] : [];
}

/**
 * A service configured in TypeScript (`serverless.ts`, typed by `@serverless/typescript`): the
 * same `functions`, written as object literals in the file or, as the framework's
 * `aws-nodejs-typescript` template does, one module per function (`src/functions/hello/index.ts`:
 * `export default { handler: \`${handlerPath(__dirname)}/handler.main\`, events: […] }`, where
 * `handlerPath` makes the module's folder relative to the service's). Read, not run: a handler is
 * a string, or a template whose only substitution names `__dirname`.
 */
export function serverlessTsLambdas(service: string): Declared<LambdaDeclaration> {
  const declarations: LambdaDeclaration[] = [];
  const modules = infrastructureCode(
    service,
    FUNCTION_DEPTH,
    [],
    (text) => /\bhandler\s*:/.test(text) && /\bevents\s*:/.test(text),
  );
  for (const { file, text } of modules) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: TS.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const declared = functionLiteral(node, file, service, source);
        if (declared) declarations.push(declared);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { declarations };
}

/** How deep under a service's folder its function modules are looked for (`src/functions/hello/index.ts`). */
const FUNCTION_DEPTH = 5;

/** `{ handler, events: [{ sqs: … }] }` written in TypeScript, as a declaration. */
function functionLiteral(
  node: TS.ObjectLiteralExpression,
  file: string,
  service: string,
  source: TS.SourceFile,
): LambdaDeclaration | undefined {
  const handler = literalProperty(node, 'handler');
  const events = literalProperty(node, 'events');
  if (!handler || !events || !ts.isArrayLiteralExpression(events.initializer)) return undefined;
  const triggers = events.initializer.elements.flatMap((event): LambdaTrigger[] =>
    ts.isObjectLiteralExpression(event)
      ? event.properties.flatMap((property) => {
          const type = property.name && ts.isIdentifier(property.name) ? property.name.text : undefined;
          return type === undefined ? [] : eventTrigger(type, property.getText(source));
        })
      : [],
  );
  const path = handlerText(handler.initializer, file, service);
  if (triggers.length === 0 || path === undefined) return undefined;
  const line = source.getLineAndCharacterOfPosition(handler.getStart(source)).line + 1;
  return { handler: path, base: service, triggers, declaredAt: { file, line } };
}

function literalProperty(node: TS.ObjectLiteralExpression, name: string): TS.PropertyAssignment | undefined {
  return node.properties.find(
    (property): property is TS.PropertyAssignment =>
      ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name,
  );
}

/** `'src/x.main'`, or `` `${handlerPath(__dirname)}/handler.main` ``: the module's folder, relative to the service's. */
function handlerText(node: TS.Expression, file: string, service: string): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (!ts.isTemplateExpression(node) || node.head.text !== '' || node.templateSpans.length !== 1) return undefined;
  const [span] = node.templateSpans;
  if (!span || !/\b__dirname\b/.test(span.expression.getText())) return undefined;
  return relative(service, dirname(file)).split(sep).join('/') + span.literal.text;
}

/** `stream: arn:aws:dynamodb:…` or `{ type: dynamodb }` is DynamoDB's; otherwise Kinesis's. */
function streamTrigger(options: unknown): LambdaTrigger {
  const text = JSON.stringify(options ?? '');
  return /dynamodb/i.test(text) ? 'lambda-dynamodb' : 'lambda-kinesis';
}
