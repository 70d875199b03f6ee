import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../ast/context.js';
import { calleeName, lastName, memberName } from '../ast/names.js';
import { findVariable, origin } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Google Cloud Pub/Sub: `subscription.on('message', onMessage)`; a message not acked before its
 * ack deadline is delivered again (https://cloud.google.com/pubsub/docs/subscriber,
 * https://googleapis.dev/nodejs/pubsub/latest/Subscription.html#event:message).
 */
export const pubsub: DeliveryLibrary<'pubsub'> = {
  broker: 'pubsub',
  modules: ['@google-cloud/pubsub'],
  registrations: [
    {
      call: { method: ['on', 'addListener', 'once'] },
      event: { index: 0, value: 'message' },
      handler: { argument: 1 },
      queue: [{ receiver: true }],
      handlerTest: isPubSubSubscription,
    },
  ],
};

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

/** The receiver is a subscription (made or named so), or the file imports Pub/Sub and the handler acks its message. */
function isPubSubSubscription(
  fn: TSESTree.FunctionLike,
  receiver: TSESTree.Node,
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
  return pubsub.modules.some((module) => imports.has(module)) && acksItsParam(fn, context);
}
