import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { memberName, memberPath, propertyKeyName } from '../ast/names.js';
import { importSource } from '../modules.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { fileMemo } from '../ast/memo.js';
import { forEachNode } from '../ast/walk.js';
import {
  isBullQueue,
  bullQueueName,
  isAmqpChannel,
  hasNoAckOption,
  isPubSubSubscription,
  pubSubName,
  isHttpRouter,
  routeMethods,
} from './brokers.js';
import { type ConsumerHandler, type Broker } from './consumer-handler.js';
import { tableHandlers } from './handler-tables.js';
import { resolveHandlerFunction, thisFieldFunction } from './methods.js';
import { TASK_METHODS, taskRegistrations } from './tasks.js';
import { isWebhookRoute } from './webhooks.js';
import { VENDURE_CREATE_QUEUE, vendureJobQueueHandlers } from './vendure.js';

// ---------------------------------------------------------------------------------------------
// Registrations: calls that hand a function to a broker client or an HTTP router

/** The methods {@link registrationsOf} reads a handler from, and the constructors it knows. */
const REGISTERING_METHODS = new Set([
  ...TASK_METHODS,
  'create',
  'run',
  'process',
  'consume',
  'on',
  'addListener',
  'once',
  'post',
  'postAsync',
  'openapi',
  'route',
  VENDURE_CREATE_QUEUE,
]);

/** The calls of a webhook library that take the delivery's handler. */
const WEBHOOK_REGISTRATION =
  /^(?:on|onAny|once|createHandler|handler|handle\w*|receive|\w*[Ww]ebhook\w*Handler|\w*[Hh]andler\w*[Ww]ebhook\w*)$/;

/** Events an emitter raises about itself (Node's EventEmitter, BullMQ's Queue and Worker), never a delivery. */
const LIFECYCLE_EVENTS: ReadonlySet<string> = new Set([
  'error',
  'close',
  'ready',
  'connect',
  'disconnect',
  'failed',
  'completed',
  'stalled',
  'drained',
  'progress',
  'waiting',
  'active',
  'paused',
  'resumed',
  'cleaned',
  'removed',
]);

/** Functions called by name that register a task: trigger.dev's `task`/`schemaTask`, graphile-worker's `run`. */
const REGISTERING_FUNCTIONS = new Set(['task', 'schemaTask', 'run', 'runOnce']);

const REGISTERING_CONSTRUCTORS = new Set(['Worker', 'WorkerPro', 'Consumer']);

/**
 * A syntactic test before {@link registrationsOf}, which asks the scope about every call it sees:
 * false only for a call it cannot match (a method name it never reads, a constructor it does not
 * know in a file that names no module it could be imported from under another name, and no
 * "webhook" anywhere in the file), so most calls of a file skip the scope work.
 */
export function mayRegister(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  gate: { webhook: boolean; constructorModules: boolean },
): boolean {
  if (gate.webhook) return true;
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const name = memberName(callee);
    if (name === undefined) return callee.computed;
    return call.type === AST_NODE_TYPES.NewExpression
      ? REGISTERING_CONSTRUCTORS.has(name)
      : REGISTERING_METHODS.has(name);
  }
  if (call.type === AST_NODE_TYPES.NewExpression && callee.type === AST_NODE_TYPES.Identifier) {
    return REGISTERING_CONSTRUCTORS.has(callee.name) || gate.constructorModules;
  }
  return (
    callee.type === AST_NODE_TYPES.Identifier &&
    (REGISTERING_FUNCTIONS.has(callee.name) || POST_ROUTE_HELPER.test(callee.name))
  );
}

/**
 * The project's own helper that registers a POST route, by its name (`addPostRoute(path, ...handlers)`,
 * often handed to a plugin as a parameter): a route like `app.post`, a webhook only when its
 * path says so or it verifies the sender.
 */
const POST_ROUTE_HELPER = /^(?:add|register|mount)?Post(?:Route|Endpoint)$/i;

export function registrationsOf(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): ConsumerHandler[] {
  const scope = context.sourceCode.getScope(call);
  const callee = unwrap(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee, scope) : undefined;
  const receiver = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : undefined;
  const args = call.arguments;
  const make = (broker: Broker, fnNode: TSESTree.Node | undefined, queue: string | undefined): ConsumerHandler[] => {
    const fn = fnNode && (wrappedHandler(fnNode, scope) ?? thisFieldFunction(fnNode, context));
    // A processor taken from each row of a table of handlers (handler-tables.ts).
    const fns = fn ? [fn] : fnNode ? tableHandlers(fnNode, scope) : [];
    return fns.map((handler) => ({ fn: handler, broker, queue, registration: call, messageParam: handler.params[0] }));
  };
  // A POST route: a webhook when its path says so or its handler verifies a signature.
  const route = (fnNode: TSESTree.Node | undefined, path: string | undefined): ConsumerHandler[] => {
    const fn = fnNode && resolveHandlerFunction(fnNode, scope);
    if (!fn) return [];
    const broker = isWebhookRoute(fn, path, call, context) ? 'webhook' : 'route';
    return [{ fn, broker, queue: path, registration: call, messageParam: fn.params[0] }];
  };
  // app.post(path, ...middleware, handler): the last function is the handler, possibly wrapped
  // (`asyncHandler(async (req, res) => …)`); the middleware before it may be what checks the sender.
  const guardedRoute = (handlers: readonly TSESTree.Node[], path: string | undefined): ConsumerHandler[] => {
    const last = handlers.at(-1);
    const fn = last && wrappedHandler(last, scope);
    if (!fn) return [];
    const guards = handlers.slice(0, -1);
    const broker = isWebhookRoute(fn, path, call, context, guards) ? 'webhook' : 'route';
    return [{ fn, broker, queue: path, registration: call, messageParam: fn.params[0] }];
  };

  if (call.type === AST_NODE_TYPES.NewExpression) {
    // BullMQ: new Worker(queueName, processor, opts)
    if (isConstructor(callee, ['Worker', 'WorkerPro'], ['bullmq', '@taskforcesh/bullmq-pro'], scope) && args[1]) {
      return make('bullmq', args[1], args[0] && staticString(args[0], scope));
    }
    // sqs-consumer: new Consumer({ queueUrl, handleMessage })
    if (isConstructor(callee, ['Consumer'], ['sqs-consumer'], scope)) return sqsConsumerHandlers(call, context);
    return [];
  }

  const task = taskRegistrations(call, context, imports);
  if (task.length > 0) return task;
  // Vendure: jobQueueService.createQueue({ name, process })
  if (method === VENDURE_CREATE_QUEUE) return vendureJobQueueHandlers(call, scope);
  // sqs-consumer: Consumer.create({ queueUrl, handleMessage, handleMessageBatch })
  if (method === 'create' && receiver?.type === AST_NODE_TYPES.Identifier && receiver.name === 'Consumer') {
    return sqsConsumerHandlers(call, context);
  }
  // kafkajs: consumer.run({ eachMessage, eachBatch })
  if (method === 'run' && args[0]) {
    const options = resolveValue(args[0], scope);
    if (options.type === AST_NODE_TYPES.ObjectExpression) {
      return ['eachMessage', 'eachBatch'].flatMap((name) => {
        const property = findProperty(options, (key) => key === name, scope);
        return property && property !== 'unknown' ? make('kafkajs', property.value, undefined) : [];
      });
    }
    return [];
  }
  // Bull: queue.process([name,] [concurrency,] processor)
  if (
    method === 'process' &&
    receiver &&
    args.length >= 1 &&
    args.length <= 3 &&
    isBullQueue(receiver, scope, imports)
  ) {
    return make('bull', args.at(-1), bullQueueName(receiver, scope));
  }
  // amqplib: channel.consume(queue, onMessage, options)
  if (
    method === 'consume' &&
    receiver &&
    args[1] &&
    (isAmqpChannel(receiver, scope, imports) || hasNoAckOption(args[2], scope))
  ) {
    return make('amqplib', args[1], args[0] && staticString(args[0], scope));
  }
  // Pub/Sub: subscription.on('message', onMessage)
  if (
    (method === 'on' || method === 'addListener' || method === 'once') &&
    receiver &&
    args[0] &&
    args[1] &&
    staticString(args[0], scope) === 'message'
  ) {
    const fn = resolveHandlerFunction(args[1], scope);
    if (fn && isPubSubSubscription(receiver, fn, context, imports)) {
      return [
        { fn, broker: 'pubsub', queue: pubSubName(receiver, scope), registration: call, messageParam: fn.params[0] },
      ];
    }
  }
  // express / fastify / hono / koa-router: app.post(path, ...middleware, handler), also chained
  // after the router's other routes (`router.get(…).post(…)`) and as express-promise-router's postAsync
  if (
    (method === 'post' || method === 'postAsync') &&
    receiver &&
    args.length >= 2 &&
    (isHttpRouter(receiver, scope, imports) || isRouteChain(receiver, scope, imports))
  ) {
    const [first, ...handlers] = args;
    return guardedRoute(handlers, first && routePath(first, scope));
  }
  // The project's own POST-route helper: addPostRoute('/twilio', validator, handler).
  if (callee.type === AST_NODE_TYPES.Identifier && POST_ROUTE_HELPER.test(callee.name) && args.length >= 2) {
    const [first, ...handlers] = args;
    const path = first && staticString(first, scope);
    if (path?.startsWith('/')) return guardedRoute(handlers, path);
  }
  // @hono/zod-openapi: app.openapi(createRoute({ method: 'post', path }), handler)
  if (method === 'openapi' && receiver && args.length >= 2 && args[0]) {
    const config = unwrap(resolveValue(args[0], scope));
    const options =
      config.type === AST_NODE_TYPES.CallExpression && config.arguments[0]
        ? unwrap(resolveValue(config.arguments[0], scope))
        : config;
    if (options.type !== AST_NODE_TYPES.ObjectExpression) return [];
    const methodProperty = findProperty(options, (key) => key === 'method', scope);
    if (!methodProperty || methodProperty === 'unknown' || !routeMethods(methodProperty.value, scope).includes('POST'))
      return [];
    const pathProperty = findProperty(options, (key) => key === 'path', scope);
    const path = pathProperty && pathProperty !== 'unknown' ? staticString(pathProperty.value, scope) : undefined;
    return guardedRoute(args.slice(1), path);
  }
  // express: app.route(path).post(handler)
  if (method === 'post' && receiver?.type === AST_NODE_TYPES.CallExpression && args.length >= 1) {
    const routeCallee = unwrap(receiver.callee);
    if (
      routeCallee.type === AST_NODE_TYPES.MemberExpression &&
      memberName(routeCallee) === 'route' &&
      isHttpRouter(unwrap(routeCallee.object), scope, imports)
    ) {
      const path = receiver.arguments[0] && staticString(receiver.arguments[0], scope);
      return args.flatMap((arg) => route(arg, path));
    }
  }
  // fastify: app.route({ method: 'POST', url, handler })
  if (method === 'route' && receiver && args[0] && isHttpRouter(receiver, scope, imports)) {
    const options = resolveValue(args[0], scope);
    if (options.type !== AST_NODE_TYPES.ObjectExpression) return [];
    const methodProperty = findProperty(options, (key) => key === 'method', scope);
    if (!methodProperty || methodProperty === 'unknown') return [];
    if (!routeMethods(methodProperty.value, scope).includes('POST')) return [];
    const handler = findProperty(options, (key) => key === 'handler', scope);
    const url = findProperty(options, (key) => key === 'url' || key === 'path', scope);
    const path = url && url !== 'unknown' ? staticString(url.value, scope) : undefined;
    return handler && handler !== 'unknown' ? route(handler.value, path) : [];
  }
  // A webhook library or factory: makeGitHubWebhookHandler({ onPush }), webhooks.on('push', fn),
  // stripeWebhook.createHandler(fn); not any call that mentions webhooks (`webhooks.filter(fn)`).
  const path = memberPath(callee, scope);
  const last = path?.at(-1);
  if (path?.some((part) => /webhook/i.test(part)) && last !== undefined && WEBHOOK_REGISTRATION.test(last)) {
    // `webhookQueue.on('error', fn)`: an emitter's own lifecycle events (Node's EventEmitter
    // 'error', a queue's 'failed' or 'completed') report on the emitter; no sender delivers them.
    const event = (last === 'on' || last === 'once') && args[0] ? staticString(args[0], scope) : undefined;
    if (event !== undefined && LIFECYCLE_EVENTS.has(event)) return [];
    return args.flatMap((arg) => {
      const value = unwrap(arg);
      // The handler itself, or wrapped once: `createHandler(withRecipientVerification(async (req, ctx) => …))`.
      const handler = wrappedHandler(value, scope);
      if (handler)
        return [
          { fn: handler, broker: 'webhook', queue: undefined, registration: call, messageParam: handler.params[0] },
        ];
      if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
      return value.properties.flatMap((property) => {
        if (property.type !== AST_NODE_TYPES.Property) return [];
        const name = propertyKeyName(property);
        return name !== undefined && /^(on[A-Z]\w*|handler|handle\w*)$/.test(name)
          ? make('webhook', property.value, undefined)
          : [];
      });
    });
  }
  return [];
}

function sqsConsumerHandlers(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  context: AnyRuleContext,
): ConsumerHandler[] {
  const scope = context.sourceCode.getScope(call);
  const options = call.arguments[0] && resolveValue(call.arguments[0], scope);
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const queueUrl = findProperty(options, (key) => key === 'queueUrl', scope);
  const queue = queueUrl && queueUrl !== 'unknown' ? staticString(queueUrl.value, scope) : undefined;
  return ['handleMessage', 'handleMessageBatch'].flatMap((name) => {
    const property = findProperty(options, (key) => key === name, scope);
    const fn = property && property !== 'unknown' ? resolveHandlerFunction(property.value, scope) : undefined;
    return fn ? [{ fn, broker: 'sqs-consumer' as const, queue, registration: call, messageParam: fn.params[0] }] : [];
  });
}

/** `router.get(…).post(…)`: a receiver that is itself a route registration on a router. */
function isRouteChain(receiver: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  for (let current = receiver; current.type === AST_NODE_TYPES.CallExpression;) {
    const callee = unwrap(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const name = memberName(callee);
    if (name === undefined || !ROUTE_METHODS.has(name)) return false;
    const object = unwrap(callee.object);
    if (object.type !== AST_NODE_TYPES.CallExpression) return isHttpRouter(object, scope, imports);
    current = object;
  }
  return false;
}

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'options', 'head']);

/** A route's path: a string, or a project's path helper over one (`this.routerPath('webhook/meta')`). */
function routePath(node: TSESTree.Node, scope: Scope): string | undefined {
  const text = staticString(node, scope);
  if (text !== undefined) return text;
  const value = unwrap(node);
  const first = value.type === AST_NODE_TYPES.CallExpression ? value.arguments[0] : undefined;
  return first && staticString(first, scope);
}

/** A handler: a function, or the function a wrapper call is given (`asyncHandler(fn)`, `catchAsync(fn)`, `queueWrapper(fn, name)`). */
function wrappedHandler(node: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const direct = resolveHandlerFunction(node, scope);
  if (direct) return direct;
  const value = unwrap(node);
  if (value.type !== AST_NODE_TYPES.CallExpression || !value.arguments[0]) return undefined;
  // `asyncHandler(fn)`, `transactionQueueWrapper(fn, 'scan')`: the wrapped function is the only
  // function handed to the wrapper, and the work a delivery repeats is its.
  const [first, ...rest] = value.arguments;
  if (rest.some((argument) => resolveHandlerFunction(argument, scope) !== undefined)) return undefined;
  return resolveHandlerFunction(first, scope);
}

/** A project's worker factory: the function, the parameter it registers as a processor, and the queue's. */
export interface WorkerFactory {
  factory: TSESTree.FunctionLike;
  index: number;
  queueIndex: number | undefined;
}

/**
 * A project's worker factory: `function createWorker(queue, processor) { return new Worker(queue, processor) }`.
 * For a BullMQ `new Worker` whose processor is a parameter of the function around it, handed on
 * as it is or through a wrapper call (`new Worker(queue, withMetrics(processor, queue))`, whose
 * first argument is the work a delivery runs), that function and the parameter's position; each
 * call of the factory registers its argument there.
 */
function workerFactory(call: TSESTree.NewExpression, context: AnyRuleContext): WorkerFactory | undefined {
  const scope = context.sourceCode.getScope(call);
  let processor = call.arguments[1] && unwrap(call.arguments[1]);
  if (processor?.type === AST_NODE_TYPES.CallExpression && processor.arguments[0])
    processor = unwrap(processor.arguments[0]);
  if (processor?.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (!isConstructor(unwrap(call.callee), ['Worker', 'WorkerPro'], ['bullmq', '@taskforcesh/bullmq-pro'], scope))
    return undefined;
  const def = findVariable(scope, processor)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
  const factory = def.node;
  const name = processor.name;
  const index = factory.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === name);
  if (index < 0) return undefined;
  const queue = call.arguments[0] && unwrap(call.arguments[0]);
  const queueIndex =
    queue?.type === AST_NODE_TYPES.Identifier
      ? factory.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === queue.name)
      : -1;
  return { factory, index, queueIndex: queueIndex < 0 ? undefined : queueIndex };
}

/** The file's worker factories, by function: one reading of its `new Worker(...)` calls, kept for the file. */
export function workerFactories(
  program: TSESTree.Program,
  context: AnyRuleContext,
): ReadonlyMap<TSESTree.FunctionLike, WorkerFactory> {
  return fileMemo(context, 'handler/worker-factories', () => {
    const found = new Map<TSESTree.FunctionLike, WorkerFactory>();
    if (!/bullmq/.test(context.sourceCode.text)) return found;
    forEachNode(program, context, (node) => {
      if (node.type !== AST_NODE_TYPES.NewExpression) return;
      const factory = workerFactory(node, context);
      if (factory) found.set(factory.factory, factory);
    });
    return found;
  });
}

/** `new Name(...)` where Name comes from one of `modules`, or is an unresolved global of that name. */
function isConstructor(
  callee: TSESTree.Node,
  names: readonly string[],
  modules: readonly string[],
  scope: Scope,
): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    if (source)
      return modules.includes(source.module) && (names.includes(source.imported) || names.includes(callee.name));
    // Not imported in a way we can read: accept only when nothing else in the file binds the name.
    return names.includes(callee.name) && !findVariable(scope, callee)?.defs.length;
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    // bullmq.Worker, require('bullmq').Worker
    const name = memberName(callee);
    const object = unwrap(callee.object);
    if (name === undefined || !names.includes(name)) return false;
    if (object.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(object, scope);
      return source !== undefined && modules.includes(source.module);
    }
  }
  return false;
}

export function lastName(node: TSESTree.Node, scope: Scope): string | undefined {
  const path = memberPath(node, scope);
  return path?.[path.length - 1];
}

/** What a receiver was created from: the resolved initialiser, or the node. */
export function origin(receiver: TSESTree.Node, scope: Scope): TSESTree.Node {
  return unwrap(resolveValue(receiver, scope));
}
