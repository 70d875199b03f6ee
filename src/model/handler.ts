import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, childNodes, findProperty, forEachNode, findVariable, importSource, isNode, memberName, memberPath, propertyKeyName, resolveValue, staticString, unwrap } from './ast.js';
import { isCheckedOutClient, poolEvidence } from './pool.js';
import { getOutgoingRequest } from './request.js';
import { isStripeCall } from './sdk.js';
import { settingsOf } from './settings.js';
import { getQueryCall } from './sql.js';

/**
 * Consumer handlers: the functions a broker (or an HTTP sender that retries) calls once per
 * delivery. A handler runs at least once per message, so the rules look inside them for
 * effects that a second run repeats, and for work that outlives the delivery's ack.
 */

type Scope = TSESLint.Scope.Scope;

export type Broker =
  | 'bullmq'
  | 'bull'
  | 'sqs-consumer'
  | 'lambda-sqs'
  | 'amqplib'
  | 'kafkajs'
  | 'pubsub'
  | 'webhook'
  | 'generic';

export interface ConsumerHandler {
  /** The handler function (resolved through an identifier to a function in the same file). */
  fn: TSESTree.FunctionLike;
  broker: Broker;
  /** Queue, topic, subscription or route name when static. */
  queue: string | undefined;
  /** The call that registers the handler, or the export for a Lambda or generic handler. */
  registration: TSESTree.Node;
  /** The parameter that receives the delivery (job, message, event, payload, request). */
  messageParam: TSESTree.Parameter | undefined;
}

/** The handler `fn` is, or undefined when nothing in this file registers or exports it as one. */
export function getConsumerHandler(fn: TSESTree.FunctionLike, context: AnyRuleContext): ConsumerHandler | undefined {
  return handlerIndex(context).get(fn);
}

/** The nearest function around `node` (or `node` itself) that is a consumer handler. */
export function enclosingConsumerHandler(node: TSESTree.Node, context: AnyRuleContext): ConsumerHandler | undefined {
  const index = handlerIndex(context);
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
    if (isFunction(current)) {
      const handler = index.get(current);
      if (handler) return handler;
    }
  }
  return undefined;
}

/** Every consumer handler in the file, in source order (used by the CLI inventory). */
export function findConsumerHandlers(program: TSESTree.Program, context: AnyRuleContext): ConsumerHandler[] {
  const index = program === context.sourceCode.ast ? handlerIndex(context) : buildIndex(program, context);
  return [...new Set(index.values())].sort((a, b) => a.fn.range[0] - b.fn.range[0]);
}

/** True for the three function node types. */
export function isFunction(node: TSESTree.Node): node is TSESTree.FunctionLike {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** The function an expression denotes: an inline function, or an identifier bound to one in this file. */
export function resolveFunction(node: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const target = unwrap(node);
  if (isFunction(target)) return target;
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || !def) return undefined;
  if (def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    if (variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
    const init = unwrap(def.node.init);
    return isFunction(init) ? init : undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The per-file index

const cache = new WeakMap<object, Map<TSESTree.FunctionLike, ConsumerHandler>>();

function handlerIndex(context: AnyRuleContext): Map<TSESTree.FunctionLike, ConsumerHandler> {
  const key = context.sourceCode;
  let index = cache.get(key);
  if (!index) {
    index = buildIndex(context.sourceCode.ast, context);
    cache.set(key, index);
  }
  return index;
}

function buildIndex(program: TSESTree.Program, context: AnyRuleContext): Map<TSESTree.FunctionLike, ConsumerHandler> {
  const index = new Map<TSESTree.FunctionLike, ConsumerHandler>();
  const add = (handler: ConsumerHandler | undefined): void => {
    // The first (most specific) registration wins; generic never overrides a broker.
    if (!handler) return;
    const existing = index.get(handler.fn);
    if (!existing || (existing.broker === 'generic' && handler.broker !== 'generic')) index.set(handler.fn, handler);
  };
  const imports = importedModules(program);
  const exported = new Map<TSESTree.FunctionLike, TSESTree.Node>();
  const registered = new Map<TSESTree.FunctionLike, TSESTree.Node>();
  const calls: (TSESTree.CallExpression | TSESTree.NewExpression)[] = [];
  const seen = { messageParamFunction: false };

  forEachNode(program, context, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) calls.push(node);
    else if (isFunction(node) && hasMessageParamName(node)) seen.messageParamFunction = true;
    else if (node.type === AST_NODE_TYPES.ExportNamedDeclaration || node.type === AST_NODE_TYPES.ExportDefaultDeclaration || node.type === AST_NODE_TYPES.AssignmentExpression) {
      for (const [fn, exportNode] of exportedFunctions(node, context)) {
        if (!exported.has(fn)) exported.set(fn, exportNode);
      }
    }
  });
  const text = context.sourceCode.text;
  const gate = { webhook: /webhook/i.test(text), constructorModules: /bullmq|sqs-consumer/.test(text) };
  for (const call of calls) {
    if (mayRegister(call, gate)) for (const handler of registrationsOf(call, context, imports)) add(handler);
    // Only a function whose first parameter is named like a delivery is taken from such a call.
    if (seen.messageParamFunction) for (const fn of registeredByName(call, context)) registered.set(fn, call);
  }

  for (const [fn, exportNode] of exported) {
    add(lambdaHandler(fn, exportNode, context) ?? routeHandler(fn, exportNode, context));
  }
  const listed = settingsOf(context).consumerHandlers ?? [];
  for (const [fn, exportNode] of exported) {
    const name = exportedName(fn, exportNode);
    if (name !== undefined && listed.some((entry) => entry.name === name && sameModule(entry.from, context.filename))) {
      add({ fn, broker: 'generic', queue: undefined, registration: exportNode, messageParam: fn.params[0] });
    }
  }
  for (const [fn, exportNode] of exported) {
    if (hasMessageParamName(fn)) add({ fn, broker: 'generic', queue: undefined, registration: exportNode, messageParam: fn.params[0] });
  }
  for (const [fn, call] of registered) {
    if (hasMessageParamName(fn) && !hasParamNamed(fn, 'event')) add({ fn, broker: 'generic', queue: undefined, registration: call, messageParam: fn.params[0] });
  }
  return index;
}

/** The module specifiers this file imports or requires. */
function importedModules(program: TSESTree.Program): Set<string> {
  const modules = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) modules.add(statement.source.value);
  }
  // require() anywhere at module level, in declarations.
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      let init = declarator.init && unwrap(declarator.init);
      while (init?.type === AST_NODE_TYPES.MemberExpression) init = unwrap(init.object);
      while (init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.CallExpression) init = init.callee;
      if (
        init?.type === AST_NODE_TYPES.CallExpression &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === AST_NODE_TYPES.Literal
      ) {
        modules.add(String(init.arguments[0].value));
      }
    }
  }
  return modules;
}

// ---------------------------------------------------------------------------------------------
// Registrations: calls that hand a function to a broker client or an HTTP router

/** The methods {@link registrationsOf} reads a handler from, and the constructors it knows. */
const REGISTERING_METHODS = new Set(['create', 'run', 'process', 'consume', 'on', 'addListener', 'once', 'post', 'route']);
const REGISTERING_CONSTRUCTORS = new Set(['Worker', 'WorkerPro', 'Consumer']);

/**
 * A syntactic test before {@link registrationsOf}, which asks the scope about every call it sees:
 * false only for a call it cannot match (a method name it never reads, a constructor it does not
 * know in a file that names no module it could be imported from under another name, and no
 * "webhook" anywhere in the file), so most calls of a file skip the scope work.
 */
function mayRegister(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  gate: { webhook: boolean; constructorModules: boolean },
): boolean {
  if (gate.webhook) return true;
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const name = memberName(callee);
    if (name === undefined) return callee.computed;
    return call.type === AST_NODE_TYPES.NewExpression ? REGISTERING_CONSTRUCTORS.has(name) : REGISTERING_METHODS.has(name);
  }
  if (call.type === AST_NODE_TYPES.NewExpression && callee.type === AST_NODE_TYPES.Identifier) {
    return REGISTERING_CONSTRUCTORS.has(callee.name) || gate.constructorModules;
  }
  return false;
}

function registrationsOf(
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
    const fn = fnNode && resolveFunction(fnNode, scope);
    return fn ? [{ fn, broker, queue, registration: call, messageParam: fn.params[0] }] : [];
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
  if (method === 'process' && receiver && args.length >= 1 && args.length <= 3 && isBullQueue(receiver, scope, imports)) {
    return make('bull', args.at(-1), bullQueueName(receiver, scope));
  }
  // amqplib: channel.consume(queue, onMessage, options)
  if (method === 'consume' && receiver && args[1] && (isAmqpChannel(receiver, scope, imports) || hasNoAckOption(args[2], scope))) {
    return make('amqplib', args[1], args[0] && staticString(args[0], scope));
  }
  // Pub/Sub: subscription.on('message', onMessage)
  if ((method === 'on' || method === 'addListener' || method === 'once') && receiver && args[0] && args[1] && staticString(args[0], scope) === 'message') {
    const fn = resolveFunction(args[1], scope);
    if (fn && isPubSubSubscription(receiver, fn, context, imports)) {
      return [{ fn, broker: 'pubsub', queue: pubSubName(receiver, scope), registration: call, messageParam: fn.params[0] }];
    }
  }
  // express / fastify / hono / koa-router: app.post(path, ...handlers)
  if (method === 'post' && receiver && args.length >= 2 && isHttpRouter(receiver, scope, imports)) {
    const [first, ...handlers] = args;
    const path = first && staticString(first, scope);
    return handlers.flatMap((arg) => make('webhook', arg, path));
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
      return args.flatMap((arg) => make('webhook', arg, path));
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
    return handler && handler !== 'unknown' ? make('webhook', handler.value, path) : [];
  }
  // A webhook library or factory: makeGitHubWebhookHandler({ onPush }), webhooks.on('push', fn)
  if (memberPath(callee, scope)?.some((part) => /webhook/i.test(part))) {
    return args.flatMap((arg) => {
      const value = unwrap(arg);
      if (isFunction(value)) return make('webhook', value, undefined);
      if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
      return value.properties.flatMap((property) => {
        if (property.type !== AST_NODE_TYPES.Property) return [];
        const name = propertyKeyName(property);
        return name !== undefined && /^(on[A-Z]\w*|handler|handle\w*)$/.test(name) ? make('webhook', property.value, undefined) : [];
      });
    });
  }
  return [];
}

function sqsConsumerHandlers(call: TSESTree.CallExpression | TSESTree.NewExpression, context: AnyRuleContext): ConsumerHandler[] {
  const scope = context.sourceCode.getScope(call);
  const options = call.arguments[0] && resolveValue(call.arguments[0], scope);
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const queueUrl = findProperty(options, (key) => key === 'queueUrl', scope);
  const queue = queueUrl && queueUrl !== 'unknown' ? staticString(queueUrl.value, scope) : undefined;
  return ['handleMessage', 'handleMessageBatch'].flatMap((name) => {
    const property = findProperty(options, (key) => key === name, scope);
    const fn = property && property !== 'unknown' ? resolveFunction(property.value, scope) : undefined;
    return fn ? [{ fn, broker: 'sqs-consumer' as const, queue, registration: call, messageParam: fn.params[0] }] : [];
  });
}

/** `new Name(...)` where Name comes from one of `modules`, or is an unresolved global of that name. */
function isConstructor(callee: TSESTree.Node, names: readonly string[], modules: readonly string[], scope: Scope): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    if (source) return modules.includes(source.module) && (names.includes(source.imported) || names.includes(callee.name));
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

function lastName(node: TSESTree.Node, scope: Scope): string | undefined {
  const path = memberPath(node, scope);
  return path?.[path.length - 1];
}

/** What a receiver was created from: the resolved initialiser, or the node. */
function origin(receiver: TSESTree.Node, scope: Scope): TSESTree.Node {
  return unwrap(resolveValue(receiver, scope));
}

function calleeName(node: TSESTree.Node): string | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return memberName(callee);
  return undefined;
}

function isBullQueue(receiver: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const created = origin(receiver, scope);
  if (created.type === AST_NODE_TYPES.NewExpression || created.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(created.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(callee, scope);
      if (source?.module === 'bull') return true;
    }
    if (calleeName(created) === 'Queue' || calleeName(created) === 'Bull') return imports.has('bull');
    return false;
  }
  // A queue built elsewhere: trust the file's import and the receiver's name.
  const name = lastName(receiver, scope);
  return imports.has('bull') && name !== undefined && /queue$/i.test(name);
}

function bullQueueName(receiver: TSESTree.Node, scope: Scope): string | undefined {
  const created = origin(receiver, scope);
  if (created.type === AST_NODE_TYPES.NewExpression || created.type === AST_NODE_TYPES.CallExpression) {
    const first = created.arguments[0];
    return first && staticString(first, scope);
  }
  return undefined;
}

const AMQP_MODULES = ['amqplib', 'amqplib/callback_api', 'amqp-connection-manager'];

/** True when `receiver` looks like an amqplib channel: made by `createChannel()`, named so, or in a file that imports amqplib. */
export function isAmqpChannel(receiver: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const created = origin(receiver, scope);
  const created_by = calleeName(created);
  if (created_by === 'createChannel' || created_by === 'createConfirmChannel') return true;
  if (AMQP_MODULES.some((module) => imports.has(module))) return true;
  const name = lastName(receiver, scope);
  return name !== undefined && /^(ch|chan|channel|\w*Channel)$/.test(name);
}

/** The third argument of `consume` is amqplib's options, with `noAck`. */
function hasNoAckOption(node: TSESTree.Node | undefined, scope: Scope): boolean {
  const options = node && resolveValue(node, scope);
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const property = findProperty(options, (key) => key === 'noAck', scope);
  return property !== undefined && property !== 'unknown';
}

/** A handler's first parameter used as `p.ack()` / `p.nack()`. */
function acksItsParam(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const param = fn.params[0];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(fn), param.name);
  return (
    variable?.references.some((reference) => {
      const parent = reference.identifier.parent;
      if (parent.type !== AST_NODE_TYPES.MemberExpression || parent.object !== reference.identifier) return false;
      const name = memberName(parent);
      return (name === 'ack' || name === 'nack') && parent.parent.type === AST_NODE_TYPES.CallExpression;
    }) ?? false
  );
}

function isPubSubSubscription(
  receiver: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  const scope = context.sourceCode.getScope(receiver);
  const created = origin(receiver, scope);
  const createdBy = calleeName(created);
  if (createdBy === 'subscription' || createdBy === 'createSubscription' || createdBy === 'Subscription') return true;
  const name = lastName(receiver, scope);
  if (name !== undefined && /subscription$/i.test(name)) return true;
  // ws / worker_threads / process also emit 'message'; only an acked message is Pub/Sub's.
  return imports.has('@google-cloud/pubsub') && acksItsParam(fn, context);
}

function pubSubName(receiver: TSESTree.Node, scope: Scope): string | undefined {
  const created = origin(receiver, scope);
  if (created.type === AST_NODE_TYPES.CallExpression || created.type === AST_NODE_TYPES.NewExpression) {
    const first = created.arguments[0];
    return first && staticString(first, scope);
  }
  return undefined;
}

const HTTP_MODULES = ['express', 'fastify', 'hono', 'koa-router', '@koa/router', 'restify', 'polka', 'h3'];
const ROUTER_FACTORIES = ['express', 'Router', 'fastify', 'Fastify', 'Hono', 'polka', 'createRouter'];
const ROUTER_NAMES = /^(app|router|server|api|fastify|hono|routes|route|instance|webhooks?|\w*(App|Router|Server|Routes))$/;

function isHttpRouter(receiver: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const created = origin(receiver, scope);
  const factory = calleeName(created);
  if (factory !== undefined && ROUTER_FACTORIES.includes(factory)) return true;
  if (created.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(created, scope);
    // msw's `http.post` registers a mock resolver, not a server route.
    if (source && !HTTP_MODULES.includes(source.module)) return false;
  }
  const name = lastName(receiver, scope);
  if (name === undefined || !ROUTER_NAMES.test(name)) return false;
  return HTTP_MODULES.some((module) => imports.has(module)) || name !== 'api';
}

function routeMethods(node: TSESTree.Node, scope: Scope): string[] {
  const value = unwrap(node);
  if (value.type === AST_NODE_TYPES.ArrayExpression) {
    return value.elements.flatMap((element) => (element ? routeMethods(element, scope) : []));
  }
  const text = staticString(value, scope);
  return text === undefined ? [] : [text.toUpperCase()];
}

// ---------------------------------------------------------------------------------------------
// Exports: Lambda handlers and generic handlers

/** Functions that `node` exports, with the node that exports them. */
function exportedFunctions(node: TSESTree.Node, context: AnyRuleContext): [TSESTree.FunctionLike, TSESTree.Node][] {
  const scope = (): Scope => context.sourceCode.getScope(node);
  switch (node.type) {
    case AST_NODE_TYPES.ExportNamedDeclaration: {
      const declaration = node.declaration;
      if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return [[declaration, node]];
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
        return declaration.declarations.flatMap((declarator) => {
          const init = declarator.init && unwrap(declarator.init);
          return init && isFunction(init) ? [[init, node] as [TSESTree.FunctionLike, TSESTree.Node]] : [];
        });
      }
      return node.specifiers.flatMap((specifier) => {
        if (node.source || specifier.local.type !== AST_NODE_TYPES.Identifier) return [];
        const fn = resolveFunction(specifier.local, scope());
        return fn ? [[fn, node] as [TSESTree.FunctionLike, TSESTree.Node]] : [];
      });
    }
    case AST_NODE_TYPES.ExportDefaultDeclaration: {
      const declaration = node.declaration;
      if (isFunction(declaration)) return [[declaration, node]];
      const fn = resolveFunction(declaration, scope());
      return fn ? [[fn, node]] : [];
    }
    case AST_NODE_TYPES.AssignmentExpression: {
      // exports.handler = fn / module.exports.handler = fn / module.exports = { handler }
      const path = memberPath(node.left);
      if (!path) return [];
      const isNamed = (path.length === 2 && path[0] === 'exports') || (path.length === 3 && path[0] === 'module' && path[1] === 'exports');
      if (isNamed) {
        const fn = resolveFunction(node.right, scope());
        return fn ? [[fn, node]] : [];
      }
      if (path.length === 2 && path[0] === 'module' && path[1] === 'exports') {
        const right = unwrap(node.right);
        if (right.type === AST_NODE_TYPES.ObjectExpression) {
          return right.properties.flatMap((property) => {
            if (property.type !== AST_NODE_TYPES.Property) return [];
            const fn = resolveFunction(property.value, scope());
            return fn ? [[fn, node] as [TSESTree.FunctionLike, TSESTree.Node]] : [];
          });
        }
        const fn = resolveFunction(right, scope());
        return fn ? [[fn, node]] : [];
      }
      return [];
    }
    default:
      return [];
  }
}

/**
 * A route handler that receives POSTs: a Next.js app-router `export async function POST()`,
 * or an exported `(req, res)` handler (Next.js pages, Vercel functions) that checks
 * `req.method` against `'POST'`.
 */
function routeHandler(fn: TSESTree.FunctionLike, exportNode: TSESTree.Node, context: AnyRuleContext): ConsumerHandler | undefined {
  const make = (): ConsumerHandler => ({ fn, broker: 'webhook', queue: undefined, registration: exportNode, messageParam: fn.params[0] });
  if (exportedName(fn, exportNode) === 'POST') return make();
  const request = fn.params[0];
  if (request?.type !== AST_NODE_TYPES.Identifier || fn.params.length !== 2 || !fn.body) return undefined;
  const seen = { post: false };
  forEachNode(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.BinaryExpression || !['===', '==', '!==', '!='].includes(node.operator)) return;
    const sides = [node.left, node.right];
    const readsMethod = sides.some((side) => {
      const path = memberPath(side);
      return path?.length === 2 && path[0] === request.name && path[1] === 'method';
    });
    if (readsMethod && sides.some((side) => side.type === AST_NODE_TYPES.Literal && side.value === 'POST')) seen.post = true;
  });
  return seen.post ? make() : undefined;
}

/** The name under which `fn` is exported, for matching `settings.consumerHandlers`. */
function exportedName(fn: TSESTree.FunctionLike, exportNode: TSESTree.Node): string | undefined {
  if (exportNode.type === AST_NODE_TYPES.ExportDefaultDeclaration) return 'default';
  if (exportNode.type === AST_NODE_TYPES.ExportNamedDeclaration) {
    const declaration = exportNode.declaration;
    if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return declaration.id?.name;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      const declarator = declaration.declarations.find((item) => item.init && unwrap(item.init) === fn);
      return declarator?.id.type === AST_NODE_TYPES.Identifier ? declarator.id.name : undefined;
    }
    const local = bindingName(fn);
    const specifier = exportNode.specifiers.find((item) => item.local.type === AST_NODE_TYPES.Identifier && item.local.name === local);
    if (!specifier) return undefined;
    return specifier.exported.type === AST_NODE_TYPES.Identifier ? specifier.exported.name : specifier.exported.value;
  }
  if (exportNode.type === AST_NODE_TYPES.AssignmentExpression) {
    const path = memberPath(exportNode.left);
    if (path && path.length >= 2 && path[path.length - 1] !== 'exports') return path[path.length - 1];
    const right = unwrap(exportNode.right);
    if (right.type === AST_NODE_TYPES.ObjectExpression) {
      for (const item of right.properties) {
        if (item.type !== AST_NODE_TYPES.Property) continue;
        const value = unwrap(item.value);
        if (value === fn || (value.type === AST_NODE_TYPES.Identifier && value.name === bindingName(fn))) return propertyKeyName(item);
      }
      return undefined;
    }
    return 'default';
  }
  return undefined;
}

function bindingName(fn: TSESTree.FunctionLike): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  return parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name : undefined;
}

/** `from` names this file when its last path segment, without extension, is the file's basename. */
function sameModule(from: string, filename: string): boolean {
  const strip = (path: string): string => (path.split(/[\\/]/).pop() ?? path).replace(/\.[cm]?[jt]sx?$/, '');
  const base = strip(filename);
  return strip(from) === base || (base === 'index' && strip(filename.replace(/[\\/]index\.[cm]?[jt]sx?$/, '')) === strip(from));
}

const MESSAGE_PARAM_NAMES = new Set(['job', 'message', 'msg', 'event']);
/** Calls that take a function without making it a per-delivery handler. */
const NOT_REGISTRATIONS = /^(forEach|map|flatMap|filter|find\w*|some|every|reduce\w*|sort|then|catch|finally|addEventListener|removeEventListener|setTimeout|setInterval|setImmediate|nextTick|queueMicrotask|bind|call|apply|describe|it|test)$/;

/** Local functions passed by name to a call (`queue.subscribe(onMessage)`), the weak "registered" signal. */
function registeredByName(call: TSESTree.CallExpression | TSESTree.NewExpression, context: AnyRuleContext): TSESTree.FunctionLike[] {
  const callee = unwrap(call.callee);
  const name = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : callee.type === AST_NODE_TYPES.Identifier ? callee.name : undefined;
  if (name === undefined || NOT_REGISTRATIONS.test(name)) return [];
  const scope = context.sourceCode.getScope(call);
  return call.arguments.flatMap((arg) => {
    if (arg.type !== AST_NODE_TYPES.Identifier) return [];
    const fn = resolveFunction(arg, scope);
    return fn ? [fn] : [];
  });
}

function hasParamNamed(fn: TSESTree.FunctionLike, name: string): boolean {
  const param = fn.params[0];
  return param?.type === AST_NODE_TYPES.Identifier && param.name === name;
}

function hasMessageParamName(fn: TSESTree.FunctionLike): boolean {
  const param = fn.params[0];
  return param?.type === AST_NODE_TYPES.Identifier && MESSAGE_PARAM_NAMES.has(param.name);
}

const SQS_EVENT_TYPES = new Set(['SQSEvent']);
const SQS_HANDLER_TYPES = new Set(['SQSHandler']);

function lambdaHandler(fn: TSESTree.FunctionLike, exportNode: TSESTree.Node, context: AnyRuleContext): ConsumerHandler | undefined {
  const param = fn.params[0];
  if (!param) return undefined;
  const typed = typeName(paramAnnotation(param));
  const handlerType = typeName(declaredType(fn));
  const isSqs =
    (typed !== undefined && SQS_EVENT_TYPES.has(typed)) ||
    (handlerType !== undefined && SQS_HANDLER_TYPES.has(handlerType)) ||
    (typed === undefined && handlerType === undefined && readsSqsRecords(fn, context));
  return isSqs ? { fn, broker: 'lambda-sqs', queue: undefined, registration: exportNode, messageParam: param } : undefined;
}

function paramAnnotation(param: TSESTree.Parameter): TSESTree.TypeNode | undefined {
  const target = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
  return 'typeAnnotation' in target ? target.typeAnnotation?.typeAnnotation : undefined;
}

function declaredType(fn: TSESTree.FunctionLike): TSESTree.TypeNode | undefined {
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.typeAnnotation?.typeAnnotation;
  }
  return undefined;
}

function typeName(type: TSESTree.TypeNode | undefined): string | undefined {
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name.name;
  if (name.type === AST_NODE_TYPES.TSQualifiedName) return name.right.name;
  return undefined;
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
    if (name === 'Records' && node.object.type === AST_NODE_TYPES.Identifier && node.object.name === param.name) seen.records = true;
    if (name === 'receiptHandle' || name === 'messageId' || name === 'body') seen.sqsField = true;
  });
  return seen.records && seen.sqsField;
}

// ---------------------------------------------------------------------------------------------
// Work: calls that return a promise, and handler work nobody waits for

/** Array methods that call their callback synchronously, once per element. */
const ITERATION_METHODS = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'find', 'findIndex', 'reduce', 'reduceRight']);
const PROMISE_STATICS = new Set(['all', 'allSettled', 'race', 'any']);
const CHAIN_METHODS = new Set(['then', 'catch', 'finally']);
const PRISMA_OPERATIONS = /^(create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|find\w*|count|aggregate|groupBy|\$transaction|\$executeRaw\w*|\$queryRaw\w*)$/;

/**
 * What kind of promise a call returns, or undefined when it does not return one as far as we
 * can tell. With type information the checker decides (a thenable type), unless the type is
 * `any`; without it, the call's shape does: a local async function, `.then/.catch/.finally`,
 * `Promise.all`, an HTTP request, a query on a pool or client, a Stripe call, an AWS SDK v3
 * `send(new XCommand())`, an AWS SDK v2 `.promise()`, a queue `add`, a Kafka producer `send`,
 * a Pub/Sub `publish`, nodemailer `sendMail`, a Prisma model call.
 */
export function asyncCallKind(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const typed = typedThenable(call, context);
  if (typed !== undefined) return typed ? 'promise' : undefined;
  return syntacticAsyncKind(call, context);
}

function typedThenable(node: TSESTree.Node, context: AnyRuleContext): boolean | undefined {
  const services = context.sourceCode.parserServices;
  const map = services?.esTreeNodeToTSNodeMap;
  if (!services?.program || !map?.has(node)) return undefined;
  const checker = services.program.getTypeChecker();
  const type = checker.getTypeAtLocation(map.get(node));
  const text = checker.typeToString(type);
  if (text === 'any' || text === 'unknown' || text.startsWith('error')) return undefined;
  const thenable = (part: typeof type): boolean => {
    const then = part.getProperty('then');
    if (!then) return false;
    const declaration = then.valueDeclaration ?? then.getDeclarations()?.[0];
    if (!declaration) return false;
    return checker.getTypeOfSymbolAtLocation(then, declaration).getCallSignatures().length > 0;
  };
  return type.isUnion() ? type.types.some(thenable) : thenable(type);
}

function syntacticAsyncKind(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const scope = context.sourceCode.getScope(call);
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const fn = resolveFunction(callee, scope);
    if (fn && returnsPromise(fn)) return 'async function';
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) {
    return getOutgoingRequest(call, context) ? 'request' : undefined;
  }
  const method = memberName(callee, scope);
  const receiver = unwrap(callee.object);
  if (method === undefined) return undefined;
  if (CHAIN_METHODS.has(method) && call.arguments.length > 0) return 'promise chain';
  if (receiver.type === AST_NODE_TYPES.Identifier && receiver.name === 'Promise' && PROMISE_STATICS.has(method)) return 'promise';
  if (getOutgoingRequest(call, context)) return 'request';
  const query = getQueryCall(call, context);
  if (query && (poolEvidence(query.receiver, context) !== undefined || isCheckedOutClient(query.receiver, context))) return 'query';
  if (isStripeCall(call, context)) return 'stripe';
  if (method === 'promise' && call.arguments.length === 0 && unwrap(receiver).type === AST_NODE_TYPES.CallExpression) return 'aws-sdk';
  if (method === 'send' && isAwsCommand(call.arguments[0])) return 'aws-sdk';
  if (receiver.type === AST_NODE_TYPES.ThisExpression || receiver.type === AST_NODE_TYPES.Identifier) {
    const fn = sameClassMethod(callee, method) ?? objectMethod(receiver, method, scope);
    if (fn && returnsPromise(fn)) return 'async function';
  }
  const name = lastName(receiver, scope);
  const createdBy = calleeName(origin(receiver, scope));
  if ((method === 'add' || method === 'addBulk') && (createdBy === 'Queue' || (name !== undefined && /queue$/i.test(name)))) return 'queue';
  if (method === 'send' && (createdBy === 'producer' || (name !== undefined && /producer$/i.test(name)))) return 'producer';
  if ((method === 'publish' || method === 'publishMessage' || method === 'publishJSON') && (createdBy === 'topic' || (name !== undefined && /topic$/i.test(name)))) {
    return 'publish';
  }
  if (method === 'sendMail' && (createdBy === 'createTransport' || (name !== undefined && /transport/i.test(name)))) return 'mail';
  const path = memberPath(callee, scope);
  if (path && path.length >= 3 && /^prisma$/i.test(path[path[0] === 'this' ? 1 : 0] ?? '') && PRISMA_OPERATIONS.test(method)) return 'prisma';
  return undefined;
}

function returnsPromise(fn: TSESTree.FunctionLike): boolean {
  if (fn.async) return true;
  const annotation = fn.returnType?.typeAnnotation;
  return annotation?.type === AST_NODE_TYPES.TSTypeReference && annotation.typeName.type === AST_NODE_TYPES.Identifier && annotation.typeName.name === 'Promise';
}

function isAwsCommand(arg: TSESTree.Node | undefined): boolean {
  const value = arg && unwrap(arg);
  return value?.type === AST_NODE_TYPES.NewExpression && value.callee.type === AST_NODE_TYPES.Identifier && /Command$/.test(value.callee.name);
}

/** `this.method()` inside a class that declares `method`. */
function sameClassMethod(callee: TSESTree.MemberExpression, method: string): TSESTree.FunctionLike | undefined {
  if (callee.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  for (let current: TSESTree.Node | undefined = callee.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) {
      for (const member of current.body) {
        if ((member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) && propertyKeyName(member) === method) {
          const value = member.value && unwrap(member.value);
          return value && isFunction(value) ? value : undefined;
        }
      }
      return undefined;
    }
  }
  return undefined;
}

/** `service.method()` where `service` is a `const` object literal with that method. */
function objectMethod(receiver: TSESTree.Node, method: string, scope: Scope): TSESTree.FunctionLike | undefined {
  if (receiver.type !== AST_NODE_TYPES.Identifier) return undefined;
  const object = unwrap(resolveValue(receiver, scope));
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = findProperty(object, (key) => key === method, scope);
  return property && property !== 'unknown' ? resolveFunction(property.value, scope) : undefined;
}

export type FloatingKind = 'floating' | 'voided' | 'asyncCallback';

export interface FloatingWork {
  /** The call whose promise nobody waits for (for `asyncCallback`, the `forEach`/`map` call). */
  node: TSESTree.CallExpression;
  kind: FloatingKind;
  /** What the call is (see {@link asyncCallKind}); the iteration method for `asyncCallback`. */
  what: string;
}

/**
 * The promises a handler starts and neither awaits, returns nor hands to something that
 * does: work that may still be running (or may never finish) when the broker has already
 * counted the message as handled. Looks at the handler's own body and the callbacks of
 * array methods it calls synchronously; other nested functions run on their own schedule.
 */
export function floatingWork(handler: ConsumerHandler, context: AnyRuleContext): FloatingWork[] {
  const found: FloatingWork[] = [];
  const body = handler.fn.body;
  if (!body) return found;
  const visit = (node: TSESTree.Node): void => {
    if (isFunction(node) && node !== handler.fn) {
      if (!isIterationCallback(node)) return;
      if (node.async) return; // its own awaits are fine; the iteration call is checked below
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const iteration = asyncIteration(node);
      if (iteration !== undefined && isDropped(node, handler, context) !== undefined) {
        found.push({ node, kind: 'asyncCallback', what: iteration });
      } else {
        // Whether the result is dropped is syntax; only then is the call's type worth asking for.
        const dropped = isDropped(node, handler, context);
        const what = dropped === undefined ? undefined : asyncCallKind(node, context);
        if (what !== undefined && dropped !== undefined && !respondsWhenSettled(node, handler)) found.push({ node, kind: dropped, what });
      }
    }
    for (const child of childNodes(node, context.sourceCode.visitorKeys)) visit(child);
  };
  visit(body);
  return found;
}

/**
 * A webhook's delivery ends with its response, not with the handler's return: a chain that
 * sends the response itself (`get(id).then((p) => res.send(p.status))`) answers the sender
 * only after the work.
 */
function respondsWhenSettled(call: TSESTree.CallExpression, handler: ConsumerHandler): boolean {
  const response = handler.fn.params[1];
  if (handler.broker !== 'webhook' || response?.type !== AST_NODE_TYPES.Identifier) return false;
  let uses = false;
  const visit = (node: TSESTree.Node): void => {
    if (uses) return;
    if (node.type === AST_NODE_TYPES.Identifier && node.name === response.name) uses = true;
    for (const key of Object.keys(node) as (keyof typeof node)[]) {
      if (key === 'parent') continue;
      const child: unknown = node[key];
      for (const item of Array.isArray(child) ? (child as unknown[]) : [child]) if (isNode(item)) visit(item);
    }
  };
  visit(call);
  return uses;
}

/** A function passed as the first argument of `xs.forEach(...)`, `xs.map(...)` and the like. */
function isIterationCallback(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (parent.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== fn) return false;
  const callee = unwrap(parent.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  return method !== undefined && ITERATION_METHODS.has(method);
}

/** `xs.forEach(async ...)` / `xs.map(async ...)`: the iteration method, when its callback is async. */
function asyncIteration(call: TSESTree.CallExpression): string | undefined {
  const callee = unwrap(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  if (method !== 'forEach' && method !== 'map' && method !== 'flatMap') return undefined;
  const callback = call.arguments[0];
  return callback && isFunction(callback) && callback.async ? method : undefined;
}

/**
 * How the promise of `call` is dropped, or undefined when something takes it: an `await`, a
 * `return` from the handler, an assignment whose variable is read, an argument.
 */
function isDropped(call: TSESTree.CallExpression, handler: ConsumerHandler, context: AnyRuleContext): 'floating' | 'voided' | undefined {
  let node: TSESTree.Node = call;
  let parent: TSESTree.Node | undefined = node.parent;
  for (;;) {
    if (!parent) return undefined;
    const wraps =
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === node) ||
      (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== node) ||
      (parent.type === AST_NODE_TYPES.SequenceExpression && parent.expressions.at(-1) === node);
    if (!wraps) break;
    node = parent;
    parent = parent.parent;
  }
  switch (parent.type) {
    case AST_NODE_TYPES.ExpressionStatement:
      return 'floating';
    case AST_NODE_TYPES.SequenceExpression:
      return 'floating';
    case AST_NODE_TYPES.UnaryExpression:
      return parent.operator === 'void' ? 'voided' : undefined;
    case AST_NODE_TYPES.VariableDeclarator: {
      if (parent.init !== node || parent.id.type !== AST_NODE_TYPES.Identifier) return undefined;
      const variable = context.sourceCode.getDeclaredVariables(parent)[0];
      return variable && variable.references.every((reference) => !reference.isRead()) ? 'floating' : undefined;
    }
    case AST_NODE_TYPES.ArrowFunctionExpression:
      // An expression body returns the promise: dropped only by forEach.
      return parent !== handler.fn && droppedByCaller(parent) ? 'floating' : undefined;
    case AST_NODE_TYPES.ReturnStatement: {
      const fn = enclosingFunctionOf(parent);
      return fn && fn !== handler.fn && droppedByCaller(fn) ? 'floating' : undefined;
    }
    default:
      return undefined;
  }
}

function enclosingFunctionOf(node: TSESTree.Node): TSESTree.FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunction(current)) return current;
  return undefined;
}

/** A callback whose return value its caller ignores: `forEach`. */
function droppedByCaller(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (parent.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== fn) return false;
  const callee = unwrap(parent.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'forEach';
}

// ---------------------------------------------------------------------------------------------
// Message identity: what stays the same on every delivery of one message

/**
 * Expressions (as source text) that identify the delivery `node` is handling, stable across
 * redeliveries, for building an idempotency key: `job.id` (BullMQ, Bull, a generic `job`),
 * `message.MessageId` (sqs-consumer), `record.messageId` (a Lambda SQS record in scope),
 * `topic`, `partition` and `message.offset` (kafkajs), `message.id` (Pub/Sub, a generic
 * message or event). Undefined where the broker gives no reliable id (amqplib's `messageId`
 * is optional, webhook bodies vary) or the code does not name it.
 */
export function messageIdentity(handler: ConsumerHandler, node: TSESTree.Node, context: AnyRuleContext): string[] | undefined {
  const param = handler.messageParam;
  const name = param?.type === AST_NODE_TYPES.Identifier ? param.name : undefined;
  switch (handler.broker) {
    case 'bullmq':
    case 'bull':
      return name === undefined ? undefined : [`${name}.id`];
    case 'pubsub':
      return name === undefined ? undefined : [`${name}.id`];
    case 'generic':
      return name === undefined || !MESSAGE_PARAM_NAMES.has(name) ? undefined : [`${name}.id`];
    case 'sqs-consumer': {
      if (name === undefined) return undefined;
      // handleMessage(message) gets one; handleMessageBatch(messages) needs the loop's item.
      const item = loopVariableOver(node, handler.fn, name) ?? (isBatchHandler(handler, context) ? undefined : name);
      return item === undefined ? undefined : [`${item}.MessageId`];
    }
    case 'lambda-sqs': {
      const record = name === undefined ? undefined : loopVariableOver(node, handler.fn, name, 'Records');
      return record === undefined ? undefined : [`${record}.messageId`];
    }
    case 'kafkajs': {
      if (param?.type === AST_NODE_TYPES.ObjectPattern) {
        const bound = new Map<string, string>();
        for (const property of param.properties) {
          if (property.type === AST_NODE_TYPES.Property && property.value.type === AST_NODE_TYPES.Identifier) {
            const key = propertyKeyName(property);
            if (key !== undefined) bound.set(key, property.value.name);
          }
        }
        const topic = bound.get('topic');
        const partition = bound.get('partition');
        const message = bound.get('message');
        return topic && partition && message ? [topic, partition, `${message}.offset`] : undefined;
      }
      return name === undefined ? undefined : [`${name}.topic`, `${name}.partition`, `${name}.message.offset`];
    }
    default:
      return undefined;
  }
}

/** sqs-consumer's `handleMessageBatch`, which receives an array. */
function isBatchHandler(handler: ConsumerHandler, context: AnyRuleContext): boolean {
  const registration = handler.registration;
  if (registration.type !== AST_NODE_TYPES.CallExpression && registration.type !== AST_NODE_TYPES.NewExpression) return false;
  const scope = context.sourceCode.getScope(registration);
  const options = registration.arguments[0] && resolveValue(registration.arguments[0], scope);
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const property = findProperty(options, (key) => key === 'handleMessageBatch', scope);
  return property !== undefined && property !== 'unknown' && resolveFunction(property.value, scope) === handler.fn;
}

/**
 * The name of the item variable of a loop around `node`, inside `fn`, over `source` (or
 * `source.<member>`): `for (const r of event.Records)`, `event.Records.map((r) => ...)`.
 */
function loopVariableOver(node: TSESTree.Node, fn: TSESTree.FunctionLike, source: string, member?: string): string | undefined {
  const iterates = (expression: TSESTree.Node): boolean => {
    const path = memberPath(expression);
    return path !== undefined && path[0] === source && path.length === (member ? 2 : 1) && (!member || path[1] === member);
  };
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== fn; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ForOfStatement && iterates(current.right)) {
      const left = current.left;
      const declared = left.type === AST_NODE_TYPES.VariableDeclaration ? left.declarations.at(0)?.id : undefined;
      if (declared?.type === AST_NODE_TYPES.Identifier) return declared.name;
      if (left.type === AST_NODE_TYPES.Identifier) return left.name;
    }
    if (isFunction(current) && current.parent.type === AST_NODE_TYPES.CallExpression && current.parent.arguments[0] === current) {
      const callee = unwrap(current.parent.callee);
      const first = current.params[0];
      if (callee.type === AST_NODE_TYPES.MemberExpression && iterates(callee.object) && first?.type === AST_NODE_TYPES.Identifier) return first.name;
    }
  }
  return undefined;
}
