import type { DeliveryLibrary } from './library.js';

/**
 * Vercel Queues: `handleCallback(handler, options?)` makes a route a push consumer of the topics
 * vercel.json binds to it (`handleNodeCallback` for a Node request handler). Vercel calls the
 * handler with each message and its metadata (`deliveryCount`), acknowledges the message when the
 * handler completes and delivers it again when it throws; delivery is at least once
 * (https://vercel.com/docs/queues/sdk, https://vercel.com/docs/queues/concepts). The functions
 * are the module's and a `QueueClient`'s (`queue.handleCallback`).
 */
export const vercelQueue: DeliveryLibrary<'vercel-queue'> = {
  broker: 'vercel-queue',
  modules: ['@vercel/queue'],
  registrations: [
    { call: { function: ['handleCallback', 'handleNodeCallback'] }, handler: { argument: 0 } },
    {
      call: { method: ['handleCallback', 'handleNodeCallback'] },
      receiver: { imports: true },
      handler: { argument: 0 },
    },
  ],
};
