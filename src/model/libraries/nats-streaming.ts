import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../ast/context.js';
import { calleeName } from '../ast/names.js';
import { origin } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * NATS Streaming (STAN) subscribers: `stan.subscribe(subject, queueGroup, options)` returns a
 * subscription whose `on('message', (msg) => …)` listener runs once per delivery. The server
 * delivers at least once: a message the subscriber does not acknowledge within `ackWait` is sent
 * again (https://docs.nats.io/legacy/stan/intro, `setManualAckMode` and `msg.ack()` in
 * node-nats-streaming's README), so the listener runs again. The classic shape is a project's
 * `Listener` base class whose listener calls the subclasses' `onMessage` (handler/template-methods.ts).
 */
export const natsStreaming: DeliveryLibrary<'nats-streaming'> = {
  broker: 'nats-streaming',
  modules: ['node-nats-streaming'],
  registrations: [
    {
      call: { method: ['on', 'addListener'] },
      event: { index: 0, value: 'message' },
      receiver: { test: isSubscription },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
    },
  ],
};

/** What a client's `subscribe(…)` returned, in a file that imports node-nats-streaming. */
function isSubscription(
  receiver: TSESTree.Node,
  _call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  if (!natsStreaming.modules.some((module) => imports.has(module))) return false;
  return calleeName(origin(receiver, context.sourceCode.getScope(receiver))) === 'subscribe';
}
