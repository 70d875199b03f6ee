import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { forEachNode } from '../ast/walk.js';
import { unwrap } from '../ast/nodes.js';
import { moduleExportName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { ownSummary } from '../settings.js';
import { isFunction } from '../ast/function.js';
import { staticString } from '../ast/values.js';
import { resolveHandlerFunction } from './methods.js';
import {
  exportedFunctions,
  pathModuleOperation,
  routeHandler,
  exportedName,
  registeredByName,
  hasParamNamed,
  hasMessageParamName,
  cloudflareWorkerHandlers,
  subscriberHandler,
  typedRouteHandler,
} from './exports.js';
import { importedModules } from '../modules.js';
import type { LibraryBroker } from '../libraries/index.js';
import type { WorkerEntryBroker } from '../libraries/cloudflare-workers.js';
import { mayRegister, registrationsOf, workerFactories } from './registrations.js';
import { factoryMadeLambdaHandler, httpLambdaWebhook, lambdaHandler, wrappedExports, wrapperCalls } from './lambda.js';
import { classHandlers } from './nestjs.js';
import { REGISTERING_NAMES, annotatedTaskTable, typedTask } from './library-registrations.js';
import { isWebhookRoute } from './webhooks.js';
import { resolveFunction, resolveStaticMethod } from '../ast/function.js';
import { registryDispatch, registryEntries } from './registries.js';
import { type Dispatched, forwardPicks, typeDispatches } from './type-dispatch.js';
import { workerClassHandlers, workerObjectHandlers } from './workers.js';

/**
 * Consumer handlers: the functions a broker (or an HTTP sender that retries) calls once per
 * delivery. A handler runs at least once per message, so the rules look inside them for
 * effects that a second run repeats, and for work that outlives the delivery's ack.
 */

/**
 * A Lambda's broker by the event source that invokes it (a template's, or its event's type):
 * a queue, a topic, a schedule, a stream, a bucket, or a Step Functions state machine that runs
 * it as a Task, retried by the state's `Retry`.
 */
export type LambdaEventBroker =
  | 'lambda-sqs'
  | 'lambda-sns'
  | 'lambda-eventbridge'
  | 'lambda-kinesis'
  | 'lambda-dynamodb'
  | 'lambda-s3'
  | 'lambda-stepfunctions';

export type Broker =
  /** A library's (libraries/index.ts). */
  | LibraryBroker
  | LambdaEventBroker
  /** A Lambda invoked asynchronously (an `Event` invoke, an EventBridge rule or schedule), which Lambda retries. */
  | 'lambda-async'
  /** A Cloudflare Worker's `queue` or `scheduled` entry (libraries/cloudflare-workers.ts). */
  | WorkerEntryBroker
  | 'nestjs-microservices'
  | 'nestjs-rabbitmq'
  /** A handler of a project's job registry, looked up per job by its type (see registries.ts). */
  | 'job-registry'
  /** A framework's event subscriber, loaded from a `subscribers` folder. */
  | 'event-subscriber'
  /** The work method of a project's worker object or class (see workers.ts). */
  | 'project-worker'
  | 'webhook'
  /** A POST route that is not a webhook: the rules look inside it; the inventory does not list it. */
  | 'route'
  /** A function shaped like a handler that nothing here registers: for the rules, not the inventory. */
  | 'generic';

/** The brokers whose handlers the inventory lists: deliveries, not ordinary routes or look-alikes. */
export function isDelivery(broker: string): boolean {
  return broker !== 'route' && broker !== 'generic';
}

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
  /** Picked by another handler by the delivery's type (handler/type-dispatch.ts), not registered itself. */
  picked?: true;
}

/**
 * What a handler picks by the delivery's type: a registered handler's every pick; a picked one's
 * only by a field the delivery carries, not by what the code computes from it (a per-type handler's
 * `switch (planOf(order.productId))` chooses among its own helpers).
 */
export function ownDispatches(handler: ConsumerHandler, context: AnyRuleContext): Dispatched[] {
  const dispatches = typeDispatches(handler.fn, context);
  return handler.picked ? dispatches.filter((dispatch) => !dispatch.computed) : dispatches;
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

// ---------------------------------------------------------------------------------------------
// The per-file index

/**
 * `export const POST = wrap(fn)`: the names the wrapper's result is exported under, with the
 * aliases the module exports it by as well (`export const POST = GET`, `export { GET as POST }`:
 * a route that takes a scheduler's GET and a queue's POST).
 */
function wrappedExportNames(wrapper: TSESTree.CallExpression, program: TSESTree.Program): string[] {
  const parent = wrapper.parent;
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.id.type !== AST_NODE_TYPES.Identifier) return [];
  const local = parent.id.name;
  const names = [local];
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration || statement.source) continue;
    if (statement.declaration?.type === AST_NODE_TYPES.VariableDeclaration)
      for (const declarator of statement.declaration.declarations) {
        const init = declarator.init && unwrap(declarator.init);
        if (
          declarator.id.type === AST_NODE_TYPES.Identifier &&
          init?.type === AST_NODE_TYPES.Identifier &&
          init.name === local
        )
          names.push(declarator.id.name);
      }
    for (const specifier of statement.specifiers)
      if (specifier.local.name === local) names.push(moduleExportName(specifier.exported));
  }
  return names;
}

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
  const wrapped: ReturnType<typeof wrappedExports> = [];
  const seen = { messageParamFunction: false };

  forEachNode(program, context, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) calls.push(node);
    else if (isFunction(node) && hasMessageParamName(node)) seen.messageParamFunction = true;
    else if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) {
      for (const handler of classHandlers(node, context)) add(handler);
      for (const handler of workerClassHandlers(node)) add(handler);
    } else if (node.type === AST_NODE_TYPES.VariableDeclarator) {
      for (const handler of annotatedTaskTable(node, context)) add(handler);
      add(typedTask(node, context));
      add(typedRouteHandler(node, context));
      for (const handler of workerObjectHandlers(node)) add(handler);
    } else if (node.type === AST_NODE_TYPES.TSAsExpression) {
      add(typedTask(node, context));
    } else if (
      node.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      node.type === AST_NODE_TYPES.ExportDefaultDeclaration ||
      node.type === AST_NODE_TYPES.AssignmentExpression
    ) {
      for (const [fn, exportNode] of exportedFunctions(node, context)) {
        if (!exported.has(fn)) exported.set(fn, exportNode);
      }
      wrapped.push(...wrappedExports(node, context));
      for (const handler of cloudflareWorkerHandlers(node, context)) add(handler);
    }
  });
  const text = context.sourceCode.text;
  const gate = {
    webhook: /webhook/i.test(text),
    constructorModules: REGISTERING_NAMES.constructorModules.some((module) => text.includes(module)),
  };
  for (const call of calls) {
    if (mayRegister(call, gate)) for (const handler of registrationsOf(call, context, imports)) add(handler);
    if (call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.MemberExpression) {
      const dispatch = call.callee.computed ? registryDispatch(call, context.sourceCode.getScope(call)) : undefined;
      if (dispatch) {
        const scope = context.sourceCode.getScope(call);
        for (const { value, key } of registryEntries(dispatch.registry)) {
          const fn = resolveHandlerFunction(value, scope);
          if (fn) add({ fn, broker: 'job-registry', queue: key, registration: call, messageParam: fn.params[0] });
        }
        const { dispatcher } = dispatch;
        if (dispatcher)
          add({
            fn: dispatcher,
            broker: 'job-registry',
            queue: dispatch.name,
            registration: call,
            messageParam: dispatcher.params[0],
          });
      }
    }
    // Only a function whose first parameter is named like a delivery is taken from such a call.
    if (seen.messageParamFunction) for (const fn of registeredByName(call, context)) registered.set(fn, call);
  }
  // Calls of the file's worker factories: the processor argument of each is a handler.
  const factories = workerFactories(program, context);
  if (factories.size > 0) {
    for (const call of calls) {
      if (call.type !== AST_NODE_TYPES.CallExpression) continue;
      const scope = context.sourceCode.getScope(call);
      const target = resolveFunction(call.callee, scope) ?? resolveStaticMethod(call.callee, scope);
      const factory = target && factories.get(target);
      const processor = factory && call.arguments[factory.index];
      const fn = processor && resolveHandlerFunction(processor, scope);
      if (!factory || !fn) continue;
      const queueArg = factory.queueIndex === undefined ? undefined : call.arguments[factory.queueIndex];
      add({
        fn,
        broker: 'bullmq',
        queue: queueArg && staticString(queueArg, scope),
        registration: call,
        messageParam: fn.params[0],
      });
    }
  }
  for (const { fn, exportNode, wrapper } of wrapped) {
    add(
      lambdaHandler(fn, exportNode, context, wrapper) ??
        httpLambdaWebhook(fn, exportNode, context, wrapper) ??
        factoryMadeLambdaHandler(fn, exportNode, context) ??
        // `export default withSentry(handler)`: a Next.js pages API route behind a wrapper.
        (exportNode.type === AST_NODE_TYPES.ExportDefaultDeclaration
          ? routeHandler(fn, exportNode, context)
          : undefined),
    );
    if (wrappedExportNames(wrapper, program).includes('POST')) {
      const guards = wrapperCalls(wrapper);
      const broker = isWebhookRoute(fn, undefined, exportNode, context, guards) ? 'webhook' : 'route';
      add({ fn, broker, queue: undefined, registration: exportNode, messageParam: fn.params[0] });
    }
  }

  for (const [fn, exportNode] of exported) {
    add(
      lambdaHandler(fn, exportNode, context) ??
        httpLambdaWebhook(fn, exportNode, context) ??
        factoryMadeLambdaHandler(fn, exportNode, context) ??
        routeHandler(fn, exportNode, context) ??
        pathModuleOperation(fn, exportNode, context) ??
        subscriberHandler(fn, exportNode, context),
    );
  }
  for (const [fn, exportNode] of exported) {
    const name = exportedName(fn, exportNode);
    if (name !== undefined && ownSummary(name, context)?.consumerHandler) {
      add({ fn, broker: 'generic', queue: undefined, registration: exportNode, messageParam: fn.params[0] });
    }
  }
  for (const [fn, exportNode] of exported) {
    if (hasMessageParamName(fn))
      add({ fn, broker: 'generic', queue: undefined, registration: exportNode, messageParam: fn.params[0] });
  }
  for (const [fn, call] of registered) {
    if (hasMessageParamName(fn) && !hasParamNamed(fn, 'event'))
      add({ fn, broker: 'generic', queue: undefined, registration: call, messageParam: fn.params[0] });
  }
  // What a delivery's handler picks by the delivery's type runs once per delivery of that type.
  const handlers = [...index.values()].filter((handler) => isDelivery(handler.broker));
  // So does the function a handler that only hands its delivery on hands it to, on every delivery,
  // and what that one picks in turn by the delivery's type (a batch's record function choosing by
  // the record's keys); not what it hands on again, which is no longer the delivery.
  const forwarded = new Set<ConsumerHandler>();
  for (const handler of handlers) {
    const picks: (Dispatched & { forward?: true })[] = [
      ...ownDispatches(handler, context),
      ...(forwarded.has(handler) ? [] : forwardPicks(handler.fn, context)).map((pick) => ({
        ...pick,
        key: handler.queue,
        forward: true as const,
      })),
    ];
    for (const { value, key, at, forward } of picks) {
      const fn = resolveHandlerFunction(value, context.sourceCode.getScope(at));
      if (!fn || index.has(fn)) continue;
      const picked: ConsumerHandler = {
        fn,
        broker: handler.broker,
        queue: key,
        registration: at,
        messageParam: fn.params[0],
        picked: true,
      };
      add(picked);
      handlers.push(picked);
      if (forward) forwarded.add(picked);
    }
  }
  return index;
}
