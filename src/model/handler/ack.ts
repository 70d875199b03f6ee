import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticValue } from '../ast/values.js';
import { memberName, memberPath, calleeName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { enclosingConsumerHandler, type ConsumerHandler } from './consumer-handler.js';
import { isAmqpChannel } from '../libraries/amqplib.js';
import { asyncCallKind } from './async-call.js';
import { isFunction } from '../ast/function.js';
import { getWrite, writeTarget } from '../writes.js';
import { enclosingFunction } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';
import { importedSummary } from '../settings.js';
import { resolveHandlerFunction } from './methods.js';

/**
 * Acknowledgements: the calls that tell a broker a message is done, so it deletes the
 * message and never redelivers it. Anything that runs after the ack runs without a net.
 */

/** `imported`: a call to a function of another module that acks (`idempotency-check` lists them). */
type AckKind = 'amqplib' | 'pubsub' | 'kafkajs' | 'sqs' | 'imported';

export interface Ack {
  call: TSESTree.CallExpression;
  kind: AckKind;
}

const PARAM_MESSAGE_NAME = /^(m|msg|message|\w*Message)$/;
/** Calls that talk to the broker about the delivery; none of them is the work itself. */
const BROKER_CONTROL = new Set([
  'ack',
  'ackAll',
  'nack',
  'nackAll',
  'reject',
  'heartbeat',
  'commitOffsets',
  'resolveOffset',
  'modifyAckDeadline',
  'pause',
  'resume',
  'seek',
  'working',
  'inProgress',
  'term',
]);
const SQS_DELETE_COMMANDS = new Set(['DeleteMessageCommand', 'DeleteMessageBatchCommand']);

/** The ack `call` is, or undefined. */
export function getAck(call: TSESTree.CallExpression, context: AnyRuleContext): Ack | undefined {
  const callee = unwrap(call.callee);
  const scope = context.sourceCode.getScope(call);
  // kafkajs eachBatch: resolveOffset(message.offset), destructured from the payload
  // (https://kafka.js.org/docs/consuming#each-batch); a function of the file or an import that
  // happens to bear the name (an API's pagination helper) acks nothing.
  if (callee.type === AST_NODE_TYPES.Identifier)
    return callee.name === 'resolveOffset' &&
      call.arguments.length > 0 &&
      findVariable(scope, callee)?.defs[0]?.type === TSESLint.Scope.DefinitionType.Parameter
      ? { call, kind: 'kafkajs' }
      : undefined;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee, scope);
  const receiver = unwrap(callee.object);
  switch (method) {
    case 'ack':
    case 'ackAll':
      if (call.arguments.length > 0 || method === 'ackAll') {
        const inConsumer = enclosingConsumerHandler(call, context)?.broker === 'amqplib';
        return inConsumer || isAmqpChannel(receiver, scope, importsOf(context)) ? { call, kind: 'amqplib' } : undefined;
      }
      return isDeliveredMessage(receiver, context) ? { call, kind: 'pubsub' } : undefined;
    case 'commitOffsets':
      return call.arguments.length > 0 ? { call, kind: 'kafkajs' } : undefined;
    case 'resolveOffset':
      return call.arguments.length > 0 ? { call, kind: 'kafkajs' } : undefined;
    case 'send': {
      const command = call.arguments[0] && unwrap(call.arguments[0]);
      return command?.type === AST_NODE_TYPES.NewExpression &&
        command.callee.type === AST_NODE_TYPES.Identifier &&
        SQS_DELETE_COMMANDS.has(command.callee.name)
        ? { call, kind: 'sqs' }
        : undefined;
    }
    case 'deleteMessage':
    case 'deleteMessageBatch': {
      const name = memberPath(receiver, scope)?.at(-1);
      return name !== undefined && /sqs/i.test(name) ? { call, kind: 'sqs' } : undefined;
    }
    default:
      return undefined;
  }
}

const importCache = new WeakMap<object, Set<string>>();

function importsOf(context: AnyRuleContext): Set<string> {
  let modules = importCache.get(context.sourceCode);
  if (!modules) {
    modules = new Set(
      context.sourceCode.ast.body.flatMap((statement) =>
        statement.type === AST_NODE_TYPES.ImportDeclaration ? [statement.source.value] : [],
      ),
    );
    importCache.set(context.sourceCode, modules);
  }
  return modules;
}

/** `message.ack()`: the receiver is the message a handler was given (Pub/Sub, NATS JetStream). */
function isDeliveredMessage(receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const handler = enclosingConsumerHandler(receiver, context);
  const param = handler?.messageParam;
  if (handler?.broker === 'pubsub' && param?.type === AST_NODE_TYPES.Identifier && param.name === receiver.name)
    return true;
  // Otherwise: the first parameter of an enclosing function, named like a message.
  for (let current: TSESTree.Node | undefined = receiver.parent; current; current = current.parent) {
    if (isFunction(current)) {
      const first = current.params[0];
      if (first?.type === AST_NODE_TYPES.Identifier && first.name === receiver.name)
        return PARAM_MESSAGE_NAME.test(first.name);
    }
  }
  return false;
}

/** How many levels of same-file calls an ack is looked for in. */
const ACK_HELPER_DEPTH = 2;

/**
 * Calls in a handler's body to functions of this file that ack (`await done(msg)` where
 * `done` calls `channel.ack(msg)`, two calls deep): each acks the delivery as much as a direct
 * ack does, so it is returned as one, at the handler's call.
 */
export function acksThroughHelpers(handler: ConsumerHandler, context: AnyRuleContext): Ack[] {
  const found: Ack[] = [];
  const body = handler.fn.body;
  if (!body) return found;
  walk(body, context, (node) => {
    if (isFunction(node) && node !== handler.fn && !isInlineCallback(node)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression || getAck(node, context)) return undefined;
    const callee = resolveHandlerFunction(node.callee, context.sourceCode.getScope(node));
    const kind =
      callee && callee !== handler.fn
        ? ackInside(callee, context, 1, new Set([handler.fn]))
        : importedAck(node, context);
    if (kind) found.push({ call: node, kind });
    return undefined;
  });
  return found;
}

function ackInside(
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  depth: number,
  seen: Set<TSESTree.FunctionLike>,
): AckKind | undefined {
  if (seen.has(fn) || !fn.body) return undefined;
  seen.add(fn);
  let kind: AckKind | undefined;
  walk(fn.body, context, (node) => {
    if (isFunction(node) && node !== fn && !isInlineCallback(node)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    kind = getAck(node, context)?.kind ?? importedAck(node, context);
    if (!kind && depth < ACK_HELPER_DEPTH) {
      const callee = resolveHandlerFunction(node.callee, context.sourceCode.getScope(node));
      kind = callee && ackInside(callee, context, depth + 1, seen);
    }
    return kind ? 'stop' : undefined;
  });
  return kind;
}

/** `done(channel, msg)` with `done` imported from a module where it acks (`settings.idempotency.ackFunctions`). */
function importedAck(call: TSESTree.CallExpression, context: AnyRuleContext): AckKind | undefined {
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.Identifier && importedSummary(callee, context)?.acks === true
    ? 'imported'
    : undefined;
}

/**
 * True when `fn` acks a delivery, itself or through the functions of its file it calls (two
 * calls deep): importers of an exported `fn` ack when they call it.
 */
export function acksInside(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  return ackInside(fn, context, 0, new Set()) !== undefined;
}

export interface WorkAfterAck {
  /** The first call after the ack that does the message's work. */
  work: TSESTree.CallExpression;
}

/**
 * The first piece of work that runs after `ack` on the same path: an awaited call, a call
 * known to return a promise, or a write (SQL, HTTP, SDK). Undefined when the ack comes last,
 * or when the ack's branch ends (`return`, `throw`) before any work, or sits in a `catch`.
 */
export function workAfterAck(ack: Ack, context: AnyRuleContext): WorkAfterAck | undefined {
  const fn = enclosingFunction(ack.call) ?? context.sourceCode.ast;
  const body = fn.type === AST_NODE_TYPES.Program ? fn : fn.body;
  if (!body) return undefined;
  let found: TSESTree.CallExpression | undefined;
  walk(body, context, (node) => {
    if (isFunction(node) && node !== fn && !isInlineCallback(node)) return 'skip';
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.range[0] > ack.call.range[1] &&
      isWork(node, context) &&
      reachableAfter(ack.call, node, fn)
    ) {
      found = node;
      return 'stop';
    }
    return undefined;
  });
  return found && { work: found };
}

/** True for a call that does the message's work (and not one that only talks to the broker). */
function isWork(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const name = calleeName(call);
  if (name !== undefined && BROKER_CONTROL.has(name)) return false;
  if (getAck(call, context)) return false;
  if (getWrite(call, context)) return true;
  const parent = call.parent;
  if (parent.type === AST_NODE_TYPES.AwaitExpression) return !isTimer(call);
  return asyncCallKind(call, context) !== undefined && !isTimer(call);
}

function isTimer(call: TSESTree.CallExpression): boolean {
  const path = memberPath(call.callee);
  const last = path?.at(-1);
  return last === 'setTimeout' || last === 'sleep' || last === 'delay' || last === 'wait';
}

/** Callbacks that run inline, as part of the same path: array iteration. */
function isInlineCallback(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (
    parent.type !== AST_NODE_TYPES.CallExpression ||
    !parent.arguments.includes(fn as TSESTree.CallExpressionArgument)
  )
    return false;
  const callee = unwrap(parent.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  return method !== undefined && /^(forEach|map|flatMap|filter|reduce|some|every)$/.test(method);
}

function isAncestor(ancestor: TSESTree.Node, node: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent)
    if (current === ancestor) return true;
  return false;
}

const EXITS = new Set<string>([
  AST_NODE_TYPES.ReturnStatement,
  AST_NODE_TYPES.ThrowStatement,
  AST_NODE_TYPES.BreakStatement,
  AST_NODE_TYPES.ContinueStatement,
]);

/**
 * True when `work`, which comes after `ack` in the source, can run after it: the ack is not
 * in a `catch`, its branch does not exit first, and they are not in two branches of one `if`.
 */
function reachableAfter(
  ack: TSESTree.Node,
  work: TSESTree.Node,
  fn: TSESTree.FunctionLike | TSESTree.Program,
): boolean {
  // Work or an ack on an error path is error handling, not the message's work.
  if (inCatch(ack, fn) || inCatch(work, fn)) return false;
  for (let node: TSESTree.Node = ack; node !== fn && node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (isAncestor(parent, work)) {
      // The lowest common ancestor: exclusive branches never run one after the other.
      if (parent.type === AST_NODE_TYPES.IfStatement && node !== parent.test) return false;
      if (parent.type === AST_NODE_TYPES.ConditionalExpression && node !== parent.test) return false;
      if (parent.type === AST_NODE_TYPES.TryStatement && node === parent.handler) return false;
      if (parent.type === AST_NODE_TYPES.TryStatement && parent.handler && isAncestor(parent.handler, work))
        return false;
      if (parent.type === AST_NODE_TYPES.SwitchStatement) return false;
      return true;
    }
    if (parent.type === AST_NODE_TYPES.CatchClause) return false;
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.SwitchCase) {
      const statements: TSESTree.Node[] =
        parent.type === AST_NODE_TYPES.BlockStatement ? parent.body : parent.consequent;
      const index = statements.indexOf(node);
      if (statements.slice(index + 1).some((statement) => EXITS.has(statement.type))) return false;
    }
  }
  return true;
}

function inCatch(node: TSESTree.Node, fn: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent) {
    if (current.type === AST_NODE_TYPES.CatchClause) return true;
  }
  return false;
}

export interface AutoAckWrite {
  /** The `noAck: true` property. */
  property: TSESTree.Property;
  /** The first write the consumer makes. */
  write: TSESTree.CallExpression;
  what: string;
}

/**
 * An amqplib consumer registered with `noAck: true` (the broker forgets each message as it
 * is delivered) whose callback writes. Undefined for other handlers and for consumers that
 * only read or log.
 */
export function autoAckedWrite(handler: ConsumerHandler, context: AnyRuleContext): AutoAckWrite | undefined {
  if (handler.broker !== 'amqplib' || handler.registration.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const optionsArg = handler.registration.arguments[2];
  if (!optionsArg) return undefined;
  const scope = context.sourceCode.getScope(handler.registration);
  const options = unwrap(resolveValue(optionsArg, scope));
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = findProperty(options, (name) => name === 'noAck', scope);
  if (!property || property === 'unknown' || staticValue(property.value, scope)?.value !== true) return undefined;
  let found: AutoAckWrite | undefined;
  if (handler.fn.body)
    walk(handler.fn.body, context, (node) => {
      if (isFunction(node) && node !== handler.fn && !isInlineCallback(node)) return 'skip';
      const write = node.type === AST_NODE_TYPES.CallExpression ? getWrite(node, context) : undefined;
      if (!write) return undefined;
      found = { property, write: node as TSESTree.CallExpression, what: writeTarget(write) };
      return 'stop';
    });
  return found;
}

/**
 * True when the message counts as handled once the handler's promise settles, so work the
 * handler does not wait for is unprotected: BullMQ, Bull, sqs-consumer, kafkajs and Lambda
 * wait for the returned promise, a webhook's response ends the sender's retries (an ordinary
 * POST route is not a delivery), and an
 * amqplib or Pub/Sub callback that acks explicitly decides the moment itself. False for
 * generic handlers and routes (too weak a signal) and for callback-style handlers (`(job, done)`,
 * `(event, context, callback)`), which finish on their callback.
 */
export function ackedOnSettle(handler: ConsumerHandler, context: AnyRuleContext): boolean {
  const { fn, broker } = handler;
  switch (broker) {
    case 'generic':
    case 'route':
    // Redis Pub/Sub and Postgres NOTIFY acknowledge nothing: a message is pushed once to each listener.
    case 'redis-pubsub':
    case 'pg-notify':
    // A Matrix application service answers the homeserver's transaction before its callbacks
    // settle (libraries/matrix-appservice-bridge.ts).
    case 'matrix-appservice':
      return false;
    case 'bull':
      return fn.async || fn.params.length < 2;
    case 'lambda-sqs':
    case 'lambda-sns':
    case 'lambda-eventbridge':
    case 'lambda-kinesis':
    case 'lambda-dynamodb':
    case 'lambda-s3':
    case 'lambda-stepfunctions':
    case 'lambda-async':
      return fn.async || fn.params.length < 3;
    case 'amqplib':
    case 'pubsub':
      return acksExplicitly(handler, context);
    default:
      return true;
  }
}

function acksExplicitly(handler: ConsumerHandler, context: AnyRuleContext): boolean {
  const { fn } = handler;
  return (
    (fn.body != null &&
      walk(fn.body, context, (node) =>
        node.type === AST_NODE_TYPES.CallExpression && getAck(node, context) ? 'stop' : undefined,
      )) ||
    acksThroughHelpers(handler, context).length > 0
  );
}
