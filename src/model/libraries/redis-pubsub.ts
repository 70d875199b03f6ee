import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../ast/context.js';
import { calleeName, lastName } from '../ast/names.js';
import { origin } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Redis Pub/Sub subscribers: ioredis' (and node-redis 3's) `subscriber.on('message', (channel,
 * message) => …)` and `on('pmessage', (pattern, channel, message) => …)` after `subscribe`, and
 * node-redis 4's `client.subscribe(channel, (message, channel) => …)` (`pSubscribe`,
 * `sSubscribe`). Redis pushes each message to every client subscribed to its channel
 * (https://redis.io/docs/latest/develop/interact/pubsub/), so a service that runs several
 * instances runs the listener once per instance for one published message, and what a publisher
 * sends again is run again: the listener is a delivery's handler. Nothing acknowledges a message
 * (ack.ts: the handler's promise decides nothing).
 */
export const redisPubsub: DeliveryLibrary<'redis-pubsub'> = {
  broker: 'redis-pubsub',
  modules: ['ioredis', 'redis', '@redis/client'],
  registrations: [
    {
      call: { method: ['on', 'addListener'] },
      event: { index: 0, value: 'message' },
      receiver: { test: isSubscriber },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
    },
    {
      call: { method: ['on', 'addListener'] },
      event: { index: 0, value: 'pmessage' },
      receiver: { test: isSubscriber },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
    },
    {
      // node-redis 4: the listener is the second argument. ioredis' `subscribe(...channels, callback)`
      // takes a callback of the subscription itself (`(err, count)`), not of its messages.
      call: { method: ['subscribe', 'pSubscribe', 'sSubscribe'] },
      receiver: { test: (_receiver, _call, _context, imports) => imports.has('redis') || imports.has('@redis/client') },
      arguments: { min: 2, max: 3 },
      handler: { argument: 1 },
      queue: [{ argument: 0 }],
    },
  ],
};

/** The constructors and factories of a Redis client in ioredis and node-redis. */
const CLIENT_MAKERS: ReadonlySet<string> = new Set([
  'Redis',
  'IORedis',
  'Cluster',
  'createClient',
  'createCluster',
  'duplicate',
]);

/**
 * A Redis client used to subscribe, in a file that imports a Redis client library: made by one of
 * its constructors or factories (`new Redis(url)`, `client.duplicate()`), or named a subscriber
 * (`this.subscriber`, `sub`), which a client handed in from elsewhere is called by.
 */
function isSubscriber(
  receiver: TSESTree.Node,
  _call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  if (!redisPubsub.modules.some((module) => imports.has(module))) return false;
  const scope = context.sourceCode.getScope(receiver);
  const maker = calleeName(origin(receiver, scope));
  if (maker !== undefined && CLIENT_MAKERS.has(maker)) return true;
  const name = lastName(receiver, scope);
  return name !== undefined && /^sub(?:scriber|Client|Redis)?$|subscriber$|^(?:redis)?Sub$/i.test(name);
}
