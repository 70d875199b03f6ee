import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import type * as TS from 'typescript';

import { ts } from '../typescript.js';
import type { LambdaDeclaration, LambdaTrigger } from './lambdas.js';
import type { Declared } from './yaml.js';
import { infrastructureCode } from './code-files.js';

/**
 * AWS CDK apps (a folder with `cdk.json`): the stacks declare each function in code, and what
 * invokes it beside it (https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cdk-lib.aws_lambda-readme.html):
 * - the function: `new NodejsFunction(this, id, { entry: 'src/x.ts', handler: 'run' })` (the
 *   source itself), `new lambda.Function(this, id, { code: Code.fromAsset('dir'), handler:
 *   'index.handler' })`, or a construct of a library or of the project that takes the same
 *   props: any `new X(this, id, { handler: '…' })` with a name ending in `Function` or
 *   `Lambda` (`GuLambdaFunction`, `GuScheduledLambda` of `@guardian/cdk`, whose `fileName:
 *   'output-handler.zip'` names the workspace package the zip is built from);
 * - what invokes it: `fn.addEventSource(new SqsEventSource(queue))` (and the SNS, DynamoDB,
 *   Kinesis and S3 sources, also in `events: [...]`), an EventBridge rule's target (`new
 *   Rule(this, id, { targets: [new LambdaFunction(fn)] })`, `rule.addTarget(...)`), or a
 *   construct whose name says it (`…ScheduledLambda` runs on `rules`/`schedule`, `…SqsLambda`
 *   on a queue), or a state machine's Task (`new LambdaInvoke(this, id, { lambdaFunction: fn })`
 *   of aws-stepfunctions-tasks). A function nothing here invokes (an API's) is left out.
 * Stacks are read, not run: a path is a string literal, or `path.join(__dirname, …)` of them.
 */

const EVENT_SOURCES: Readonly<Record<string, LambdaTrigger>> = {
  SqsEventSource: 'lambda-sqs',
  SnsEventSource: 'lambda-sns',
  DynamoEventSource: 'lambda-dynamodb',
  KinesisEventSource: 'lambda-kinesis',
  S3EventSource: 'lambda-s3',
};

/**
 * A construct of a Lambda function, by its class name: a function (`…Function`, `…Lambda`), or a
 * project's construct of a function and the event source it adds (`LambdaDynamoEventSource`).
 */
const FUNCTION_CONSTRUCT = /(?:Function|Lambda)$|^Lambda\w*EventSource$/;

/** What a construct's name says invokes its function: a schedule, a queue, a table's or a stream's records. */
const NAMED_TRIGGERS: readonly (readonly [RegExp, LambdaTrigger])[] = [
  [/Schedule/i, 'lambda-eventbridge'],
  [/Sqs/, 'lambda-sqs'],
  [/Dynamo/, 'lambda-dynamodb'],
  [/Kinesis/, 'lambda-kinesis'],
];

/** How deep under a CDK app's folder stack files are looked for (`cdk/lib/stacks/queue.ts`). */
const STACK_DEPTH = 4;

/** The folders of the tree's CDK apps: those with a `cdk.json`. */
export function cdkApps(files: readonly string[]): string[] {
  return files.filter((file) => basename(file) === 'cdk.json').map((file) => dirname(file));
}

/** The Lambdas a CDK app's stacks declare, with what invokes each; `root` bounds the search for packages. */
export function cdkLambdas(app: string, root: string): Declared<LambdaDeclaration> {
  const stacks = infrastructureCode(app, STACK_DEPTH, ['cdk.out'], (text) =>
    /aws-cdk-lib|@aws-cdk\/|@guardian\/cdk/.test(text),
  );
  return { declarations: stacks.flatMap(({ file, text }) => stackLambdas(file, text, app, root)) };
}

interface Declared_ {
  node: TS.NewExpression;
  construct: string;
  props: TS.ObjectLiteralExpression;
  triggers: Set<LambdaTrigger>;
}

function stackLambdas(file: string, text: string, app: string, root: string): LambdaDeclaration[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const functions: Declared_[] = [];
  const byName = new Map<string, Declared_>();
  // Each function construct, by the binding or field that holds it.
  const visit = (node: TS.Node): void => {
    if (ts.isNewExpression(node)) {
      const declared = functionConstruct(node);
      if (declared) {
        functions.push(declared);
        const holder = holderName(node);
        if (holder !== undefined) byName.set(holder, declared);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (functions.length === 0) return [];
  // What invokes each: event sources added to it, rules that target it.
  const invoke = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target = byName.get(lastName(node.expression.expression) ?? '');
      if (method === 'addEventSource' && target) for (const argument of node.arguments) addSource(target, argument);
      if (method === 'addTarget') for (const argument of node.arguments) ruleTarget(argument, byName);
    }
    // A state machine's Task: `new tasks.LambdaInvoke(this, id, { lambdaFunction: fn })`.
    if (ts.isNewExpression(node) && lastName(node.expression) === 'LambdaInvoke') {
      const props = node.arguments?.[2];
      const fn = props && ts.isObjectLiteralExpression(props) ? property(props, 'lambdaFunction') : undefined;
      const declared = fn && byName.get(lastName(fn) ?? '');
      declared?.triggers.add('lambda-stepfunctions');
    }
    if (ts.isNewExpression(node) && lastName(node.expression) === 'Rule') {
      const props = node.arguments?.[2];
      const targets = props && ts.isObjectLiteralExpression(props) ? property(props, 'targets') : undefined;
      if (targets && ts.isArrayLiteralExpression(targets))
        for (const element of targets.elements) ruleTarget(element, byName);
    }
    ts.forEachChild(node, invoke);
  };
  invoke(source);
  return functions.flatMap((declared): LambdaDeclaration[] => {
    const events = property(declared.props, 'events');
    if (events && ts.isArrayLiteralExpression(events))
      for (const element of events.elements) addSource(declared, element);
    for (const [name, trigger] of NAMED_TRIGGERS) if (name.test(declared.construct)) declared.triggers.add(trigger);
    if (declared.triggers.size === 0) return [];
    const where = codeOf(declared.props, file, app, root);
    const handler = stringValue(property(declared.props, 'handler'), file);
    if (!where || handler === undefined) return [];
    const line = source.getLineAndCharacterOfPosition(declared.node.getStart(source)).line + 1;
    return [
      {
        // NodejsFunction's handler is the export's name alone; the entry is its module.
        handler: where.entry === undefined ? handler : `index.${handler.split('.').at(-1) ?? handler}`,
        base: where.base,
        ...(where.entry === undefined ? {} : { entryPoint: where.entry }),
        triggers: [...declared.triggers],
        declaredAt: { file, line },
      },
    ];
  });
}

function functionConstruct(node: TS.NewExpression): Declared_ | undefined {
  const construct = lastName(node.expression);
  const props = node.arguments?.[2];
  if (construct === undefined || !FUNCTION_CONSTRUCT.test(construct) || !props || !ts.isObjectLiteralExpression(props))
    return undefined;
  if (!property(props, 'handler') && !property(props, 'entry')) return undefined;
  return { node, construct, props, triggers: new Set() };
}

/**
 * `const fn = new …`, `this.fn = new …`, `fn: new …` in an object: the name it is held by; also
 * when what is held is the function a project's construct exposes (`const fn = new Lambda(…).lambda`).
 */
function holderName(node: TS.NewExpression): string | undefined {
  let child: TS.Node = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) [child, parent] = [parent, parent.parent];
  if (ts.isPropertyAccessExpression(parent) && parent.expression === child) parent = parent.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
    return lastName(parent.left);
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return ts.isIdentifier(parent.name) ? parent.name.text : undefined;
  return undefined;
}

function addSource(declared: Declared_, node: TS.Node): void {
  if (!ts.isNewExpression(node)) return;
  const trigger = EVENT_SOURCES[lastName(node.expression) ?? ''];
  if (trigger) declared.triggers.add(trigger);
}

/** `new LambdaFunction(fn)` (aws-events-targets) names a function an EventBridge rule invokes. */
function ruleTarget(node: TS.Node, byName: ReadonlyMap<string, Declared_>): void {
  if (!ts.isNewExpression(node) || lastName(node.expression) !== 'LambdaFunction') return;
  const [fn] = node.arguments ?? [];
  const declared = fn && byName.get(lastName(fn) ?? '');
  declared?.triggers.add('lambda-eventbridge');
}

/**
 * Where the function's code is: NodejsFunction's `entry` (a source file), `code:
 * Code.fromAsset(dir)` (the folder its handler's path is relative to), or `fileName: 'x.zip'`
 * (`@guardian/cdk`: the zip a workspace package named `x` builds). A relative path is the app's:
 * the CDK reads it from the folder `cdk` runs in, the one with `cdk.json` (NodejsFunction checks
 * `fs.existsSync(entry)`; `Code.fromAsset` resolves its path likewise), unless `__dirname` makes
 * it the stack file's.
 */
function codeOf(
  props: TS.ObjectLiteralExpression,
  file: string,
  app: string,
  root: string,
): { base: string; entry?: string } | undefined {
  const entry = stringValue(property(props, 'entry'), file);
  if (entry !== undefined) return { base: dirname(file), entry: resolve(app, entry) };
  const code = property(props, 'code');
  if (code && ts.isCallExpression(code) && lastName(code.expression) === 'fromAsset') {
    const dir = stringValue(code.arguments[0], file);
    if (dir !== undefined) return { base: resolve(app, dir) };
  }
  const zip = stringValue(property(props, 'fileName'), file);
  if (zip !== undefined) {
    const name = basename(zip).replace(/\.zip$/, '');
    const found = packageFolder(root, name);
    if (found) return { base: found };
  }
  return undefined;
}

/** The workspace folder of a package called `name` (by folder or manifest name), a few levels down. */
function packageFolder(root: string, name: string): string | undefined {
  for (const parent of ['', 'packages', 'handlers', 'lambdas', 'lambda', 'apps', 'services', 'src']) {
    const folder = join(root, parent, name);
    if (existsSync(join(folder, 'package.json'))) return folder;
  }
  return undefined;
}

function property(object: TS.ObjectLiteralExpression, name: string): TS.Expression | undefined {
  for (const element of object.properties) {
    if (ts.isPropertyAssignment(element) && propertyName(element.name) === name) return element.initializer;
    if (ts.isShorthandPropertyAssignment(element) && element.name.text === name) return element.name;
  }
  return undefined;
}

function propertyName(name: TS.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** A string literal, a template without substitutions, or `path.join(__dirname, '…', …)` / `path.resolve(…)` of them. */
function stringValue(node: TS.Node | undefined, file: string): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isCallExpression(node) && ['join', 'resolve'].includes(lastName(node.expression) ?? '')) {
    const parts: string[] = [];
    for (const argument of node.arguments) {
      if (ts.isIdentifier(argument) && argument.text === '__dirname') parts.push(dirname(file));
      else {
        const part = stringValue(argument, file);
        if (part === undefined) return undefined;
        parts.push(part);
      }
    }
    return parts.length > 0 ? resolve(...parts) : undefined;
  }
  return undefined;
}

/** `Rule`, `events.Rule`, `this.fn`: the last name of an expression. */
function lastName(node: TS.Node): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return undefined;
}
