import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { Scope } from '../ast/context.js';
import { calleeName, lastName } from '../ast/names.js';
import { findProperty, origin, resolveValue } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * amqplib: `channel.consume(queue, onMessage, options)`; a message not acked before the channel
 * closes is requeued and delivered again, flagged `redelivered`
 * (https://amqp-node.github.io/amqplib/channel_api.html#channel_consume,
 * https://www.rabbitmq.com/docs/confirms#automatic-requeueing).
 */
export const amqplib: DeliveryLibrary<'amqplib'> = {
  broker: 'amqplib',
  modules: ['amqplib', 'amqplib/callback_api', 'amqp-connection-manager'],
  registrations: [
    {
      call: { method: ['consume'] },
      receiver: {
        test: (receiver, call, context, imports) =>
          isAmqpChannel(receiver, context.sourceCode.getScope(receiver), imports) ||
          hasNoAckOption(call.arguments[2], context.sourceCode.getScope(call)),
      },
      arguments: { min: 2 },
      handler: { argument: 1 },
      queue: [{ argument: 0 }],
    },
  ],
};

/** True when `receiver` looks like an amqplib channel: made by `createChannel()`, named so, or in a file that imports amqplib. */
export function isAmqpChannel(receiver: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const created = origin(receiver, scope);
  const createdBy = calleeName(created);
  if (createdBy === 'createChannel' || createdBy === 'createConfirmChannel') return true;
  if (amqplib.modules.some((module) => imports.has(module))) return true;
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
