import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import type { AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { origin } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Fedify, the ActivityPub server framework: `federation.setInboxListeners(inboxPath,
 * sharedInboxPath).on(Follow, listener).on(Create, …)` registers the listener Fedify runs for each
 * activity of that type another server POSTs to an inbox (https://fedify.dev/manual/inbox).
 * Servers deliver again an activity whose POST failed, and with a message queue Fedify itself
 * enqueues each inbound activity and retries a listener that throws (its retry policy, or the
 * queue's own when `nativeRetrial` is set; https://fedify.dev/manual/mq, Fedify 1.7.0's release
 * notes): a listener runs again for the same activity. `withIdempotency(…)` on the same chain
 * skips an activity the inbox has seen, which is the listener's protection, not its absence.
 *
 * `on` is every event emitter's method, so the receiver must be the chain `setInboxListeners`
 * starts, written in place or kept in a binding, in a file that imports Fedify.
 */
export const fedify: DeliveryLibrary<'webhook'> = {
  broker: 'webhook',
  modules: ['@fedify/fedify', '@fedify/fedify/federation', '@fedify/fedify/vocab'],
  registrations: [
    {
      call: { method: ['on'] },
      receiver: { test: isInboxListeners },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
    },
  ],
};

/** The setters `setInboxListeners` returns, each returning the setters again. */
const INBOX_SETTERS = new Set(['on', 'onError', 'setSharedKeyDispatcher', 'withIdempotency', 'onUnverifiedActivity']);

/** How many setter calls and bindings the chain is followed back through. */
const CHAIN_DEPTH = 64;

/** The receiver is what `setInboxListeners(…)` returned, through the setters chained on it and the bindings that keep it. */
function isInboxListeners(
  receiver: TSESTree.Node,
  _call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  if (!fedify.modules.some((module) => imports.has(module))) return false;
  let node: TSESTree.Node = unwrap(receiver);
  for (let step = 0; step < CHAIN_DEPTH; step++) {
    if (node.type === AST_NODE_TYPES.Identifier) {
      const made = unwrap(origin(node, context.sourceCode.getScope(node)));
      if (made === node) return false;
      node = made;
      continue;
    }
    if (node.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = unwrap(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const name = memberName(callee);
    if (name === 'setInboxListeners') return true;
    if (name === undefined || !INBOX_SETTERS.has(name)) return false;
    node = unwrap(callee.object);
  }
  return false;
}
