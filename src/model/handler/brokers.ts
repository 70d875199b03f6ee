import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { importSource } from '../modules.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';

import { origin, lastName } from './registrations.js';
import { calleeName } from '../ast/names.js';

/** True when `identifier` is bound to an import of the project's own module (`'../lib/queue'`). */
function isRelativeImport(identifier: TSESTree.Identifier, scope: Scope): boolean {
  const module = importSource(identifier, scope)?.module;
  return module !== undefined && module.startsWith('.');
}

export function isBullQueue(receiver: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const created = origin(receiver, scope);
  if (created.type === AST_NODE_TYPES.NewExpression || created.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(created.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(callee, scope);
      if (source?.module === 'bull') return true;
    }
    if (calleeName(created) === 'Queue' || calleeName(created) === 'Bull') return imports.has('bull');
    // someQueue().process(...): a project's accessor for a Bull queue; in a file that does not
    // import bull, a queue factory the project imports (`const scan = newQueue('scan')` with
    // `newQueue` in lib/queue.js returning `new Queue(...)`).
    const accessor = calleeName(created);
    if (accessor === undefined || !/queue$/i.test(accessor)) return false;
    if (imports.has('bull')) return true;
    return callee.type === AST_NODE_TYPES.Identifier && isRelativeImport(callee, scope);
  }
  // A queue built elsewhere: trust the file's import and the receiver's name.
  const name = lastName(receiver, scope);
  return imports.has('bull') && name !== undefined && /queue$/i.test(name);
}

export function bullQueueName(receiver: TSESTree.Node, scope: Scope): string | undefined {
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
export function hasNoAckOption(node: TSESTree.Node | undefined, scope: Scope): boolean {
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

export function isPubSubSubscription(
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

export function pubSubName(receiver: TSESTree.Node, scope: Scope): string | undefined {
  const created = origin(receiver, scope);
  if (created.type === AST_NODE_TYPES.CallExpression || created.type === AST_NODE_TYPES.NewExpression) {
    const first = created.arguments[0];
    return first && staticString(first, scope);
  }
  return undefined;
}

const HTTP_MODULES = ['express', 'fastify', 'hono', 'koa-router', '@koa/router', 'restify', 'polka', 'h3'];

const ROUTER_FACTORIES = ['express', 'Router', 'fastify', 'Fastify', 'Hono', 'polka', 'createRouter'];

const ROUTER_NAMES =
  /^(app|router|server|api|fastify|hono|routes|route|instance|webhooks?|\w*(App|Router|Server|Routes))$/;

/**
 * Methods that return their own receiver, only retyped: Fastify's `withTypeProvider<T>()`
 * (`withTypeProvider () { return this }` in fastify.js; its docs chain routes on
 * `fastify().withTypeProvider<TypeBoxTypeProvider>()`).
 */
const RETYPING_METHODS: ReadonlySet<string> = new Set(['withTypeProvider']);

/** `app.withTypeProvider<T>()` → `app`: the instance a retyping call returns. */
function throughRetyping(node: TSESTree.Node): TSESTree.Node {
  let current = unwrap(node);
  while (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression &&
    RETYPING_METHODS.has(memberName(current.callee) ?? '')
  )
    current = unwrap(current.callee.object);
  return current;
}

export function isHttpRouter(node: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const receiver = throughRetyping(node);
  const created = throughRetyping(origin(receiver, scope));
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

export function routeMethods(node: TSESTree.Node, scope: Scope): string[] {
  const value = unwrap(node);
  if (value.type === AST_NODE_TYPES.ArrayExpression) {
    return value.elements.flatMap((element) => (element ? routeMethods(element, scope) : []));
  }
  const text = staticString(value, scope);
  return text === undefined ? [] : [text.toUpperCase()];
}
