import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue } from '../ast/values.js';
import { memberPath, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, resolveFunction } from '../ast/function.js';
import { enclosingConsumerHandler, type ConsumerHandler } from './consumer-handler.js';
import { HANDLER_PARAM_NAMES, MESSAGE_PARAM_NAMES } from './exports.js';

// ---------------------------------------------------------------------------------------------
// Message identity: what stays the same on every delivery of one message

/**
 * The message's identity at `node`: from the consumer handler around it, or else from an
 * enclosing function's message-named parameter (`job`, `message`, `msg`).
 */
export function messageIdentityAt(node: TSESTree.Node, context: AnyRuleContext): string[] | undefined {
  const handler = enclosingConsumerHandler(node, context);
  if (handler) return messageIdentity(handler, node, context);
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    for (const parameter of fn.params) {
      if (parameter.type === AST_NODE_TYPES.Identifier && MESSAGE_PARAM_NAMES.has(parameter.name))
        return [`${parameter.name}.id`];
    }
  }
  return undefined;
}

/**
 * Expressions (as source text) that identify the delivery `node` is handling, stable across
 * redeliveries, for building an idempotency key: `job.id` (BullMQ, Bull, a generic `job`),
 * `message.MessageId` (sqs-consumer), `record.messageId` (a Lambda SQS record in scope),
 * `topic`, `partition` and `message.offset` (kafkajs), `message.id` (Pub/Sub, a generic
 * message or event), `job.id` (bee-queue, pg-boss), `job.attrs._id` (agenda), `ctx.run.id`
 * (trigger.dev: a run keeps its id across attempts), `event.id` (EventBridge), a record's
 * `Sns.MessageId` (SNS) or `eventID` (Kinesis, DynamoDB streams). Undefined where the broker gives no reliable id (amqplib's `messageId`
 * is optional, webhook bodies vary) or the code does not name it.
 */
export function messageIdentity(
  handler: ConsumerHandler,
  node: TSESTree.Node,
  context: AnyRuleContext,
): string[] | undefined {
  const param = handler.messageParam;
  const name = param?.type === AST_NODE_TYPES.Identifier ? param.name : undefined;
  switch (handler.broker) {
    case 'bullmq':
    case 'bull':
    case 'bee-queue':
      return name === undefined ? undefined : [`${name}.id`];
    case 'pg-boss': {
      // pg-boss 10 hands the handler an array of jobs: `async ([job]) => …`.
      if (param?.type === AST_NODE_TYPES.ArrayPattern) {
        const first = param.elements[0];
        return first?.type === AST_NODE_TYPES.Identifier && param.elements.length === 1
          ? [`${first.name}.id`]
          : undefined;
      }
      const item = name === undefined ? undefined : loopVariableOver(node, handler.fn, name);
      return item === undefined ? undefined : [`${item}.id`];
    }
    case 'agenda':
      return name === undefined ? undefined : [`${name}.attrs._id`];
    case 'trigger.dev':
      return triggerRunId(handler.fn);
    case 'lambda-eventbridge':
      return name === undefined ? undefined : [`${name}.id`];
    case 'lambda-sns': {
      const record = name === undefined ? undefined : loopVariableOver(node, handler.fn, name, 'Records');
      return record === undefined ? undefined : [`${record}.Sns.MessageId`];
    }
    case 'lambda-kinesis':
    case 'lambda-dynamodb': {
      const record = name === undefined ? undefined : loopVariableOver(node, handler.fn, name, 'Records');
      return record === undefined ? undefined : [`${record}.eventID`];
    }
    case 'pubsub':
      return name === undefined ? undefined : [`${name}.id`];
    case 'generic':
      return name === undefined || !HANDLER_PARAM_NAMES.has(name) ? undefined : [`${name}.id`];
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

/**
 * trigger.dev's run id, stable across a run's retried attempts (`ctx.attempt` changes): from
 * `run: async (payload, { ctx }) => …`.
 */
function triggerRunId(fn: TSESTree.FunctionLike): string[] | undefined {
  const second = fn.params[1];
  if (second?.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of second.properties) {
    if (
      property.type === AST_NODE_TYPES.Property &&
      propertyKeyName(property) === 'ctx' &&
      property.value.type === AST_NODE_TYPES.Identifier
    )
      return [`${property.value.name}.run.id`];
  }
  return undefined;
}

/** sqs-consumer's `handleMessageBatch`, which receives an array. */
function isBatchHandler(handler: ConsumerHandler, context: AnyRuleContext): boolean {
  const registration = handler.registration;
  // @SqsMessageHandler('queue', true): NestJS's batch flag.
  if (registration.type === AST_NODE_TYPES.Decorator) {
    const call = registration.expression;
    const flag = call.type === AST_NODE_TYPES.CallExpression ? call.arguments[1] : undefined;
    return flag?.type === AST_NODE_TYPES.Literal && flag.value === true;
  }
  if (registration.type !== AST_NODE_TYPES.CallExpression && registration.type !== AST_NODE_TYPES.NewExpression)
    return false;
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
function loopVariableOver(
  node: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  source: string,
  member?: string,
): string | undefined {
  const iterates = (expression: TSESTree.Node): boolean => {
    const path = memberPath(expression);
    return (
      path !== undefined && path[0] === source && path.length === (member ? 2 : 1) && (!member || path[1] === member)
    );
  };
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== fn; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ForOfStatement && iterates(current.right)) {
      const left = current.left;
      const declared = left.type === AST_NODE_TYPES.VariableDeclaration ? left.declarations.at(0)?.id : undefined;
      if (declared?.type === AST_NODE_TYPES.Identifier) return declared.name;
      if (left.type === AST_NODE_TYPES.Identifier) return left.name;
    }
    if (
      isFunction(current) &&
      current.parent.type === AST_NODE_TYPES.CallExpression &&
      current.parent.arguments[0] === current
    ) {
      const callee = unwrap(current.parent.callee);
      const first = current.params[0];
      if (
        callee.type === AST_NODE_TYPES.MemberExpression &&
        iterates(callee.object) &&
        first?.type === AST_NODE_TYPES.Identifier
      )
        return first.name;
    }
  }
  return undefined;
}
