import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { memberName, memberPath, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { fileMemo } from '../ast/memo.js';
import { forEachNode } from '../ast/walk.js';
import { isHttpRouter, routeMethods } from './routers.js';
import { type ConsumerHandler } from './consumer-handler.js';
import {
  REGISTERING_NAMES,
  handlerFunctions,
  isConstructor,
  libraryRegistrations,
  wrappedHandler,
} from './library-registrations.js';
import { servedHandler } from '../libraries/server-entries.js';
import { resolveHandlerFunction } from './methods.js';
import { LIBRARY_REGISTRARS } from '../libraries/registrars.js';
import { isWebhookRoute } from './webhooks.js';

// ---------------------------------------------------------------------------------------------
// Registrations: calls that hand a function to a broker client or an HTTP router

/** The methods {@link registrationsOf} reads a handler from besides the libraries' (library-registrations.ts). */
const REGISTERING_METHODS = new Set([
  ...REGISTERING_NAMES.methods,
  'on',
  'addListener',
  'once',
  'post',
  'postAsync',
  'openapi',
  'route',
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
      ? REGISTERING_NAMES.constructors.has(name)
      : REGISTERING_METHODS.has(name);
  }
  if (call.type === AST_NODE_TYPES.NewExpression && callee.type === AST_NODE_TYPES.Identifier) {
    return REGISTERING_NAMES.constructors.has(callee.name) || gate.constructorModules;
  }
  return (
    callee.type === AST_NODE_TYPES.Identifier &&
    (REGISTERING_NAMES.functions.has(callee.name) || POST_ROUTE_HELPER.test(callee.name))
  );
}

/** Fastify's hooks a route's options may run before its handler, where a sender's check may sit. */
const ROUTE_HOOKS: ReadonlySet<string> = new Set(['onRequest', 'preParsing', 'preValidation', 'preHandler']);

/**
 * Fastify's shorthand with the handler in the options, `fastify.post(url, { config, handler })`
 * ("the handler [may be] specified in the options object",
 * https://fastify.dev/docs/latest/Reference/Routes/#shorthand-declaration): the handler, and the
 * hooks that run before it (`preHandler: verifySignature`).
 */
function routeOptions(
  node: TSESTree.Node,
  scope: Scope,
): { handler: TSESTree.FunctionLike | undefined; hooks: TSESTree.Node[] } | undefined {
  const options = unwrap(resolveValue(node, scope));
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const handler = findProperty(options, (key) => key === 'handler', scope);
  if (!handler || handler === 'unknown') return undefined;
  const hooks: TSESTree.Node[] = [];
  for (const property of options.properties) {
    if (property.type !== AST_NODE_TYPES.Property || !ROUTE_HOOKS.has(propertyKeyName(property) ?? '')) continue;
    const value = unwrap(property.value);
    if (value.type !== AST_NODE_TYPES.ArrayExpression) hooks.push(value);
    else for (const element of value.elements) if (element) hooks.push(element);
  }
  return { handler: wrappedHandler(handler.value, scope), hooks };
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
  // A POST route: a webhook when its path says so or its handler verifies a signature.
  const route = (fnNode: TSESTree.Node | undefined, path: string | undefined): ConsumerHandler[] => {
    const fn = fnNode && resolveHandlerFunction(fnNode, scope);
    if (!fn) return [];
    const broker = isWebhookRoute(fn, path, call, context) ? 'webhook' : 'route';
    return [{ fn, broker, queue: path, registration: call, messageParam: fn.params[0] }];
  };
  // app.post(path, ...middleware, handler): the last function is the handler, possibly wrapped
  // (`asyncHandler(async (req, res) => …)`); the middleware before it may be what checks the sender.
  const guardedRoute = (
    handlers: readonly TSESTree.Node[],
    path: string | undefined,
    continued = false,
  ): ConsumerHandler[] => {
    const last = handlers.at(-1);
    const options = last && routeOptions(last, scope);
    const fn = options ? options.handler : last && wrappedHandler(last, scope);
    if (!fn) return [];
    // Middleware in front of a later registration of the same path (`(req, res, next) => …`).
    if (continued && fn.params.length >= 3) return [];
    const guards = options ? options.hooks : handlers.slice(0, -1);
    const broker = isWebhookRoute(fn, path, call, context, guards) ? 'webhook' : 'route';
    return [{ fn, broker, queue: path, registration: call, messageParam: fn.params[0] }];
  };

  if (call.type === AST_NODE_TYPES.NewExpression) return libraryRegistrations(call, context, imports);
  const delivered = libraryRegistrations(call, context, imports);
  if (delivered.length > 0) return delivered;
  const post = postRouteOf(call, scope, imports);
  if (post) return guardedRoute(post.handlers, post.path, post.continued);
  // A server's one handler (`Deno.serve(handler)`, a Supabase Edge Function): listed as a webhook
  // when it checks the sender; it serves every method, so it is no POST route of its own.
  const served = servedHandler(call, scope, imports);
  if (served) {
    const fn = resolveHandlerFunction(served, scope);
    return fn && isWebhookRoute(fn, undefined, call, context)
      ? [{ fn, broker: 'webhook', queue: undefined, registration: call, messageParam: fn.params[0] }]
      : [];
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
        if (name === undefined || !/^(on[A-Z]\w*|handler|handle\w*)$/.test(name)) return [];
        return handlerFunctions(property.value, context).map((fn) => ({
          fn,
          broker: 'webhook' as const,
          queue: undefined,
          registration: call,
          messageParam: fn.params[0],
        }));
      });
    });
  }
  return [];
}

/** A POST route's path and its handlers, the last of them the route's own (the ones before it middleware). */
export interface PostRoute {
  path: string | undefined;
  /** Its handlers, after those of the registrations of the same path before it (Express runs them in order). */
  handlers: readonly TSESTree.Node[];
  /** A registration of the same path follows: this one's functions are middleware in front of it, when they take `next`. */
  continued: boolean;
}

/**
 * A POST route registered by a call: express / fastify / hono / koa-router's `app.post(path,
 * ...middleware, handler)`, also chained after the router's other routes (`router.get(…).post(…)`)
 * and as express-promise-router's `postAsync`, and the project's own POST-route helper
 * (`addPostRoute('/twilio', validator, handler)`).
 */
export function postRouteOf(
  call: TSESTree.CallExpression,
  scope: Scope,
  imports: ReadonlySet<string>,
): PostRoute | undefined {
  const callee = unwrap(call.callee);
  const args = call.arguments;
  if (args.length < 2) return undefined;
  const [first, ...handlers] = args;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = memberName(callee, scope);
    if (method !== 'post' && method !== 'postAsync') return undefined;
    const receiver = unwrap(callee.object);
    if (!isHttpRouter(receiver, scope, imports) && !isRouteChain(receiver, scope, imports)) return undefined;
    const path = first && routePath(first, scope);
    const siblings = path === undefined ? undefined : samePathRoutes(call, path, scope);
    return {
      path,
      handlers: [...(siblings?.before ?? []), ...handlers],
      continued: siblings?.after ?? false,
    };
  }
  if (callee.type !== AST_NODE_TYPES.Identifier || !POST_ROUTE_HELPER.test(callee.name)) return undefined;
  const path = first && staticString(first, scope);
  return path?.startsWith('/') ? { path, handlers, continued: false } : undefined;
}

/**
 * The registrations of the same method and path on the same router among the statements around
 * `call` (`router.post('/slack', this.verifySignature)` then `router.post('/slack', this.handle)`):
 * Express runs every matching route's functions in the order they were added, each handing on with
 * `next()` (expressjs.com/en/guide/routing.html, "Route handlers"), so those before are middleware
 * in front of this one. Their functions, and whether one follows.
 */
function samePathRoutes(
  call: TSESTree.CallExpression,
  path: string,
  scope: Scope,
): { before: TSESTree.Node[]; after: boolean } | undefined {
  const statement = call.parent;
  const body = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.parent : undefined;
  if (body?.type !== AST_NODE_TYPES.BlockStatement && body?.type !== AST_NODE_TYPES.Program) return undefined;
  const key = routeKey(call, scope);
  if (key === undefined) return undefined;
  const calls = routesOfBlock(body, scope).get(key) ?? [];
  const index = calls.indexOf(call);
  return {
    before: calls.slice(0, index).flatMap((other) => other.arguments.slice(1)),
    after: index < calls.length - 1,
  };
}

const blockRoutes = new WeakMap<TSESTree.Node, Map<string, TSESTree.CallExpression[]>>();

/** The route registrations a block makes as statements, by {@link routeKey}, in order: read once per block. */
function routesOfBlock(
  body: TSESTree.BlockStatement | TSESTree.Program,
  scope: Scope,
): Map<string, TSESTree.CallExpression[]> {
  let routes = blockRoutes.get(body);
  if (!routes) {
    routes = new Map();
    for (const statement of body.body) {
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
      const expression = unwrap(statement.expression);
      const key = expression.type === AST_NODE_TYPES.CallExpression ? routeKey(expression, scope) : undefined;
      if (key === undefined || expression.type !== AST_NODE_TYPES.CallExpression) continue;
      routes.set(key, [...(routes.get(key) ?? []), expression]);
    }
    blockRoutes.set(body, routes);
  }
  return routes;
}

/** `router.post` and its path, as one string (`router.post /slack`), for a call with a static path. */
function routeKey(call: TSESTree.CallExpression, scope: Scope): string | undefined {
  const callee = unwrap(call.callee);
  const receiver = callee.type === AST_NODE_TYPES.MemberExpression ? memberPath(callee.object) : undefined;
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee, scope) : undefined;
  const path = call.arguments[0] && staticString(call.arguments[0], scope);
  return receiver && method && path !== undefined ? `${receiver.join('.')}.${method} ${path}` : undefined;
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
  const callee = unwrap(call.callee);
  const known = LIBRARY_REGISTRARS.find(({ module, imported }) => isConstructor(callee, [imported], [module], scope));
  if (!known) return undefined;
  const handed = call.arguments[known.index];
  let processor = handed && unwrap(handed);
  if (processor?.type === AST_NODE_TYPES.CallExpression && processor.arguments[0])
    processor = unwrap(processor.arguments[0]);
  if (processor?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(scope, processor)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
  const factory = def.node;
  const name = processor.name;
  const index = factory.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === name);
  if (index < 0) return undefined;
  const queue = known.queueIndex === undefined ? undefined : call.arguments[known.queueIndex];
  const queueNode = queue && unwrap(queue);
  const queueIndex =
    queueNode?.type === AST_NODE_TYPES.Identifier
      ? factory.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === queueNode.name)
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
    const text = context.sourceCode.text;
    if (!LIBRARY_REGISTRARS.some(({ module }) => text.includes(module))) return found;
    forEachNode(program, context, (node) => {
      if (node.type !== AST_NODE_TYPES.NewExpression) return;
      const factory = workerFactory(node, context);
      if (factory) found.set(factory.factory, factory);
    });
    return found;
  });
}
