import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { memberName, memberPath } from '../ast/names.js';
import { staticString } from '../ast/values.js';
import { forEachNode, walk } from '../ast/walk.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, resolveFunction, returnedFunction, returnedValues } from '../ast/function.js';
import { importSource } from '../modules.js';
import { type Broker, type ConsumerHandler } from './consumer-handler.js';
import { isWebhookRoute, verifiesSignature } from './webhooks.js';

/**
 * AWS Lambda handlers that consume deliveries, known by their event type (`SQSEvent`,
 * `SNSEvent`, `EventBridgeEvent`, `KinesisStreamEvent`, `DynamoDBStreamEvent`, `S3Event`), their
 * handler type (`SQSHandler`, `Handler<SQSEvent>`), SST's `EventHandler` / `Handler('sqs', …)`, or
 * (untyped) the SQS record fields they read; exported directly or through a wrapper
 * (`export const handler = Sentry.AWSLambda.wrapHandler(async (event: SQSEvent) => …)`, `middy(fn)`).
 */

const EVENT_TYPES: Record<string, Broker> = {
  SQSEvent: 'lambda-sqs',
  SNSEvent: 'lambda-sns',
  EventBridgeEvent: 'lambda-eventbridge',
  ScheduledEvent: 'lambda-eventbridge',
  KinesisStreamEvent: 'lambda-kinesis',
  DynamoDBStreamEvent: 'lambda-dynamodb',
  S3Event: 'lambda-s3',
};

const HANDLER_TYPES: Record<string, Broker> = {
  SQSHandler: 'lambda-sqs',
  SNSHandler: 'lambda-sns',
  EventBridgeHandler: 'lambda-eventbridge',
  ScheduledHandler: 'lambda-eventbridge',
  KinesisStreamHandler: 'lambda-kinesis',
  DynamoDBStreamHandler: 'lambda-dynamodb',
  S3Handler: 'lambda-s3',
};

/** SST's `Handler(kind, fn)` from `sst/context`: the kinds that are deliveries. */
const SST_KINDS: Record<string, Broker> = {
  sqs: 'lambda-sqs',
  sns: 'lambda-sns',
  kinesis: 'lambda-kinesis',
  dynamodb: 'lambda-dynamodb',
  s3: 'lambda-s3',
  kinesis_stream: 'lambda-kinesis',
  dynamodb_stream: 'lambda-dynamodb',
  event: 'lambda-eventbridge',
};

export function lambdaHandler(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
  wrapper?: TSESTree.CallExpression,
): ConsumerHandler | undefined {
  const param = fn.params[0];
  if (!param) return undefined;
  const make = (broker: Broker): ConsumerHandler => ({
    fn,
    broker,
    queue: undefined,
    registration: exportNode,
    messageParam: param,
  });
  const sst = wrapper && sstBroker(wrapper, context);
  if (sst) return make(sst);
  const typed = typeName(paramAnnotation(param));
  const byEvent = typed === undefined ? castEventType(fn, param, context) : EVENT_TYPES[typed];
  if (byEvent) return make(byEvent);
  const declared = declaredType(wrapper ?? fn);
  const handlerType = typeName(declared);
  if (handlerType !== undefined) {
    const broker =
      HANDLER_TYPES[handlerType] ?? (handlerType === 'Handler' ? handlerTypeArgument(declared) : undefined);
    if (broker) return make(broker);
  }
  if (typed === undefined && handlerType === undefined && readsSqsRecords(fn, context)) return make('lambda-sqs');
  if (
    typed === undefined &&
    handlerType === undefined &&
    (exportedAs(exportNode) === 'handler' || !returnsValue(fn)) &&
    readsEventEnvelope(fn, 0, context, 0)
  )
    return make('lambda-eventbridge');
  return asyncInvoked(fn, exportNode, context, wrapper, typed) ? make('lambda-async') : undefined;
}

/**
 * A Lambda handler a function of this module makes and returns, known by its event's type: an
 * exported factory that takes the handler's dependencies (`export const create = (deps) => async
 * (event: SQSEvent) => …`, wired elsewhere as `export const handler = create(deps)`), or a
 * wrapper's callback that returns the handler (`metricScope((metrics) => async (event: SQSEvent) =>
 * …)`). The event's type says what invokes it wherever the factory is called.
 */
export function factoryMadeLambdaHandler(
  factory: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const fn = returnedFunction(factory, context.sourceCode.getScope(factory));
  const param = fn?.params[0];
  if (!fn || !param) return undefined;
  const typed = typeName(paramAnnotation(param));
  const broker = typed === undefined ? undefined : EVENT_TYPES[typed];
  return broker && { fn, broker, queue: undefined, registration: exportNode, messageParam: param };
}

/** Events of an HTTP request: API Gateway, an ALB, a function URL. */
const HTTP_EVENT = /^(?:APIGateway\w*|ALB\w*|LambdaFunctionURL\w*)$/;

/**
 * A Lambda behind API Gateway (or a function URL, or SST's `ApiHandler`) that receives a
 * sender's deliveries: its file says webhook or it checks the sender's signature. The sender retries until it gets a 2xx, like any webhook's.
 */
export function httpLambdaWebhook(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
  wrapper?: TSESTree.CallExpression,
): ConsumerHandler | undefined {
  const param = fn.params[0];
  if (!param || exportedAs(exportNode) !== 'handler') return undefined;
  const typed = typeName(paramAnnotation(param));
  const http =
    (typed !== undefined && HTTP_EVENT.test(typed)) || (wrapper !== undefined && isSstApiHandler(wrapper, context));
  if (!http || !isWebhookRoute(fn, undefined, exportNode, context)) return undefined;
  // An `inbound` or `callback` Lambda may answer a synchronous query; only a signature check or
  // the word webhook says a sender retries it.
  if (!/web-?hooks?/i.test(context.filename) && !verifiesSignature(fn, context)) return undefined;
  return { fn, broker: 'webhook', queue: undefined, registration: exportNode, messageParam: param };
}

/** `ApiHandler(fn)` from `sst/node/api`. */
function isSstApiHandler(wrapper: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const callee = unwrap(wrapper.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(callee, context.sourceCode.getScope(wrapper));
  return source?.module === 'sst/node/api' && source.imported === 'ApiHandler';
}

/** Events of a synchronous caller: an HTTP request (API Gateway, ALB, function URL) or an authorizer's. */
const SYNCHRONOUS_EVENT =
  /^(?:APIGateway\w*|ALB\w*|LambdaFunctionURL\w*|\w*Authorizer\w*|CloudFrontRequest\w*|Cognito\w*)$/;

/** Modules only a Lambda function imports: its types, its wrappers, its SDKs' Lambda entry points. */
const LAMBDA_MODULES =
  /^(?:aws-lambda|@sentry\/(?:aws-)?serverless|@middy\/core|middy|@aws-lambda-powertools\/\w+|sst\/\w+|serverless-http)$/;

/**
 * A Lambda function invoked for its effect: the `handler` a Lambda package exports (the file
 * imports Lambda's types or wrappers, a Lambda wrapper such as `Sentry.AWSLambda.wrapHandler`
 * or a project's `wrapHandler` exports it, or it sits in a `lambda(s)` folder) that returns
 * nothing to its caller. A caller that waits for nothing invokes it asynchronously (an
 * `InvocationType: 'Event'` invoke, an EventBridge rule or schedule, a custom resource), and
 * Lambda retries a failed asynchronous invocation. One that returns a value answers a
 * synchronous caller (an HTTP request, a `RequestResponse` invoke) and is not listed.
 */
function asyncInvoked(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
  wrapper: TSESTree.CallExpression | undefined,
  eventType: string | undefined,
): boolean {
  if (fn.params.length > 3 || !fn.body || exportedAs(exportNode) !== 'handler') return false;
  if (eventType !== undefined && SYNCHRONOUS_EVENT.test(eventType)) return false;
  if (returnsValue(fn)) return false;
  const wrapperName = wrapper && memberPath(wrapper.callee)?.join('.');
  if (wrapperName !== undefined && /wrapHandler|AWSLambda|^middy$/i.test(wrapperName)) return true;
  if (/(?:^|[\\/])lambdas?[\\/]/i.test(context.filename)) return true;
  return context.sourceCode.ast.body.some(
    (statement) => statement.type === AST_NODE_TYPES.ImportDeclaration && LAMBDA_MODULES.test(statement.source.value),
  );
}

/** `export const handler = …`, `export async function handler`, `exports.handler = …`. */
function exportedAs(exportNode: TSESTree.Node): string | undefined {
  if (exportNode.type === AST_NODE_TYPES.ExportNamedDeclaration) {
    const declaration = exportNode.declaration;
    if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return declaration.id?.name;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      const declarator = declaration.declarations.length === 1 ? declaration.declarations[0] : undefined;
      return declarator?.id.type === AST_NODE_TYPES.Identifier ? declarator.id.name : undefined;
    }
    return undefined;
  }
  if (exportNode.type === AST_NODE_TYPES.AssignmentExpression) return memberPath(exportNode.left)?.at(-1);
  return undefined;
}

/** A value returned on some path: an expression body (its value is not known here), or a `return x`. */
function returnsValue(fn: TSESTree.FunctionLike): boolean {
  if (fn.body?.type !== AST_NODE_TYPES.BlockStatement) return true;
  return returnedValues(fn.body).some(
    (value) => !(value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined'),
  );
}

/** `Handler<SQSEvent, void>`: the broker of its event type argument. */
function handlerTypeArgument(type: TSESTree.TypeNode | undefined): Broker | undefined {
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = typeName(type.typeArguments?.params[0]);
  return name === undefined ? undefined : EVENT_TYPES[name];
}

/** `EventHandler(event, fn)` from `sst/node/event-bus`, `Handler('sqs', fn)` from `sst/context`. */
function sstBroker(wrapper: TSESTree.CallExpression, context: AnyRuleContext): Broker | undefined {
  const callee = unwrap(wrapper.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const scope = context.sourceCode.getScope(wrapper);
  const source = importSource(callee, scope);
  if (!source?.module.startsWith('sst/')) return undefined;
  if (source.imported === 'EventHandler') return 'lambda-eventbridge';
  if (source.imported !== 'Handler') return undefined;
  const kind = wrapper.arguments[0] && staticString(wrapper.arguments[0], scope);
  return kind === undefined ? undefined : SST_KINDS[kind];
}

/**
 * The function a wrapper call exports: `wrap(fn)`, `wrap(opts, fn)`, `a(b(fn))`,
 * `middy(fn).use(…)`; the innermost function argument, with the outermost call.
 */
export function wrappedFunction(
  node: TSESTree.Node,
  context: AnyRuleContext | undefined,
): TSESTree.FunctionLike | undefined {
  const value = unwrap(node);
  if (isFunction(value)) return value;
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  for (const arg of [...value.arguments].reverse()) {
    // A function of this file passed by name: `compose(withLogger)(stripeWebhookHandler)`.
    const inner =
      wrappedFunction(arg, context) ??
      (context && arg.type === AST_NODE_TYPES.Identifier
        ? resolveFunction(arg, context.sourceCode.getScope(arg))
        : undefined);
    if (inner) return inner;
  }
  const callee = unwrap(value.callee);
  // middy(fn).use(...): the chain's start
  return callee.type === AST_NODE_TYPES.MemberExpression ? wrappedFunction(callee.object, context) : undefined;
}

/**
 * The calls a wrapped export goes through to its function: `withError('digest',
 * withQstashOrInternal(fn))` gives both, `middy(fn).use(auth())` gives `middy(fn)` too. Each may
 * guard the function (a sender check in front of a route).
 */
export function wrapperCalls(wrapper: TSESTree.CallExpression): TSESTree.CallExpression[] {
  const calls = [wrapper];
  for (const arg of wrapper.arguments) {
    const value = unwrap(arg);
    if (value.type === AST_NODE_TYPES.CallExpression) calls.push(...wrapperCalls(value));
  }
  const callee = unwrap(wrapper.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const object = unwrap(callee.object);
    if (object.type === AST_NODE_TYPES.CallExpression) calls.push(...wrapperCalls(object));
  }
  return calls;
}

/** Exported wrapper calls (`export const handler = wrap(fn)`, `exports.handler = wrap(fn)`), with the wrapped function. */
export function wrappedExports(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { fn: TSESTree.FunctionLike; exportNode: TSESTree.Node; wrapper: TSESTree.CallExpression }[] {
  const from = (init: TSESTree.Node | null | undefined): TSESTree.CallExpression | undefined => {
    const value = init && unwrap(init);
    return value?.type === AST_NODE_TYPES.CallExpression ? value : undefined;
  };
  const calls: TSESTree.CallExpression[] = [];
  if (
    node.type === AST_NODE_TYPES.ExportNamedDeclaration &&
    node.declaration?.type === AST_NODE_TYPES.VariableDeclaration
  ) {
    for (const declarator of node.declaration.declarations) {
      const call = from(declarator.init);
      if (call) calls.push(call);
    }
  } else if (node.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
    const call = from(node.declaration);
    if (call) calls.push(call);
  } else if (node.type === AST_NODE_TYPES.AssignmentExpression) {
    const call = from(node.right);
    const exportsSomething = /^(?:module\.)?exports(?:\.\w+)?$/.test(memberPath(node.left)?.join('.') ?? '');
    if (call && exportsSomething) calls.push(call);
  }
  return calls.flatMap((wrapper) => {
    const fn = wrappedFunction(wrapper, context);
    return fn ? [{ fn, exportNode: node, wrapper }] : [];
  });
}

function paramAnnotation(param: TSESTree.Parameter): TSESTree.TypeNode | undefined {
  const target = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
  return 'typeAnnotation' in target ? target.typeAnnotation?.typeAnnotation : undefined;
}

/** `const handler: SQSHandler = …`: the declared type of the variable the function (or its wrapper) initialises. */
function declaredType(node: TSESTree.Node): TSESTree.TypeNode | undefined {
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.typeAnnotation?.typeAnnotation;
  }
  return undefined;
}

/**
 * The event type a loosely typed handler (`(event: unknown) => …`, the callback of middy's
 * `.handler(…)`, typed by the middlewares before it) asserts its event to be: `(event as
 * SQSEvent).Records`. A type assertion is how such code says what it receives.
 */
function castEventType(
  fn: TSESTree.FunctionLike,
  param: TSESTree.Parameter,
  context: AnyRuleContext,
): Broker | undefined {
  if (param.type !== AST_NODE_TYPES.Identifier || !fn.body) return undefined;
  let found: Broker | undefined;
  walk(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.TSAsExpression && node.type !== AST_NODE_TYPES.TSTypeAssertion) return undefined;
    const expression = node.expression;
    if (expression.type !== AST_NODE_TYPES.Identifier || expression.name !== param.name) return undefined;
    const broker = EVENT_TYPES[typeName(node.typeAnnotation) ?? ''];
    if (!broker) return undefined;
    found = broker;
    return 'stop';
  });
  return found;
}

function typeName(type: TSESTree.TypeNode | undefined): string | undefined {
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name.name;
  if (name.type === AST_NODE_TYPES.TSQualifiedName) return name.right.name;
  return undefined;
}

/**
 * An untyped handler that reads its event's `detail-type`, a field only EventBridge's envelope
 * has (`{ version, id, 'detail-type', source, time, detail }`, "Amazon EventBridge events",
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-events-structure.html), in its own
 * body or in a function of this file it hands the event to. EventBridge invokes its targets
 * asynchronously, and Lambda retries a failed asynchronous invocation.
 */
function readsEventEnvelope(fn: TSESTree.FunctionLike, index: number, context: AnyRuleContext, depth: number): boolean {
  const param = fn.params[index];
  if (param?.type !== AST_NODE_TYPES.Identifier || !fn.body || depth > 2) return false;
  let reads = false;
  forEachNode(fn.body, context, (node) => {
    if (reads) return;
    if (node.type === AST_NODE_TYPES.MemberExpression) {
      const object = unwrap(node.object);
      reads =
        object.type === AST_NODE_TYPES.Identifier &&
        object.name === param.name &&
        memberName(node, context.sourceCode.getScope(node)) === 'detail-type';
      return;
    }
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const at = node.arguments.findIndex(
      (argument) => argument.type === AST_NODE_TYPES.Identifier && argument.name === param.name,
    );
    const callee = at < 0 ? undefined : resolveFunction(node.callee, context.sourceCode.getScope(node));
    reads = callee !== undefined && callee !== fn && readsEventEnvelope(callee, at, context, depth + 1);
  });
  return reads;
}

/** An untyped Lambda handler that reads `event.Records` and an SQS record field (`body`, `messageId`, `receiptHandle`). */
function readsSqsRecords(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const param = fn.params[0];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  const seen = { records: false, sqsField: false };
  if (!fn.body) return false;
  forEachNode(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.MemberExpression) return;
    const name = memberName(node);
    if (name === 'Records' && node.object.type === AST_NODE_TYPES.Identifier && node.object.name === param.name)
      seen.records = true;
    if (name === 'receiptHandle' || name === 'messageId' || name === 'body') seen.sqsField = true;
  });
  return seen.records && seen.sqsField;
}
